import { http } from '@core/http/client';
import { fillUrl, fillValues, registerAction } from '../registry';

// A call: the row (or `body` with `{field}` placeholders filled from it) to `url`; batch calls send `ids`.
registerAction('api', async (a, ctx) => {
  if (!a.url) return;
  const { record, selected } = ctx;
  if (!record && !selected.length) {
    ctx.message.warning('请选择一条记录！');
    return;
  }
  const url = fillUrl(a.url, record);
  const method = a.method ?? 'post';
  const ids = { ids: selected.join(',') };
  const body = a.body && (record ? fillValues(a.body, record) : { ...a.body, ...ids });
  const r =
    method === 'get' || method === 'delete'
      ? await http[method](url, /\{/.test(a.url) ? undefined : record ? { id: record[ctx.rowKey] } : ids)
      : await http[method](url, body ?? record ?? ids);
  if (r.success) {
    ctx.message.success(r.message);
    ctx.reload();
  } else ctx.message.warning(r.message);
});
