import { http } from '@core/http/client';
import { urlsOf } from '@shared/urls';
import { registerAction } from '../registry';

// 导出: the list's current filters (and the selected rows, when any) to the page's exportXls url.
registerAction('export', async (a, ctx) => {
  const url = a.url ?? urlsOf(ctx.schema).exportXls;
  if (!url) {
    ctx.message.error('请设置url.exportXls属性!');
    return;
  }
  try {
    await http.download(url, { ...ctx.listParams(), ...(ctx.selected.length ? { selections: ctx.selected.join(',') } : {}) }, a.fileName ?? `${ctx.schema.exportName ?? ctx.schema.title}.xlsx`);
  } catch (err) {
    ctx.message.warning((err as Error).message || '文件下载失败');
  }
});
