import { registerAction } from '../registry';

// 刷新: the page's data again (a list's current page, a detail's record).
registerAction('reload', (_a, ctx) => ctx.reload());
