import { registerAction } from '../registry';

// The row link asks first (a Popconfirm, see RowActions); the handler deletes.
registerAction('delete', async (_a, ctx) => {
  if (ctx.record) await ctx.remove([String(ctx.record[ctx.rowKey])], false);
});
