import { http } from '@core/http/client';
import { urlsOf } from '@shared/urls';
import { registerAction } from '../registry';
import { fillText, fillUrl } from '../template';

// 导出: the list's current filters (and the selected rows, when any) to the page's exportXls url. As a row
// action, `{field}` in `url` and `fileName` are filled from the row and only the row is exported (e.g. 表单开发's 导出: one definition as .json).
registerAction('export', async (a, ctx) => {
  const url = a.url ?? urlsOf(ctx.schema).exportXls;
  if (!url) {
    ctx.message.error('请设置url.exportXls属性!');
    return;
  }
  const row = ctx.record;
  const data = { ...ctx.params, ...row };
  const fileName = a.fileName ? fillText(a.fileName, data) : `${ctx.schema.exportName ?? ctx.schema.title}.xlsx`;
  try {
    if (row) await http.download(fillUrl(url, data), {}, fileName);
    else await http.download(url, { ...ctx.listParams(), ...(ctx.selected.length ? { selections: ctx.selected.join(',') } : {}) }, fileName);
  } catch (err) {
    ctx.message.warning((err as Error).message || '文件下载失败');
  }
});
