import { http } from '@core/http/client';
import { registerAction } from '../registry';
import { fillTemplate, fillUrl } from '../template';

// A call: the row (or `body` with `{field}` placeholders filled from it and the page's bound parameters) to `url`; batch calls send `ids` (`{ids}` in a url).
registerAction('api', async (a, ctx) => {
  if (!a.url) return;
  const { record, selected } = ctx;
  if (!record && !selected.length) {
    ctx.message.warning('请选择一条记录！');
    return;
  }
  const data = { ...ctx.params, ...(record ?? {}), ids: selected };
  const url = fillUrl(a.url, data);
  const method = a.method ?? 'post';
  const ids = { ids: selected.join(',') };
  const body = a.body && (record ? (fillTemplate(a.body, data) as Record<string, unknown>) : { ...(fillTemplate(a.body, data) as Record<string, unknown>), ...ids });
  const r =
    method === 'get' || method === 'delete'
      ? await http[method](url, /\{/.test(a.url) ? undefined : record ? { id: record[ctx.rowKey] } : ids)
      : await http[method](url, body ?? record ?? ids);
  if (r.success) {
    ctx.message.success(r.message);
    ctx.reload();
  } else ctx.message.warning(r.message);
});
