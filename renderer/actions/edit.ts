import { registerAction } from '../registry';

registerAction('edit', (_a, ctx) => ctx.openForm('edit', ctx.record));
