import { fillUrl, registerAction } from '../registry';

// 详情: the page's form read-only, or — with `url` — the record's detail page (a `detail` kind schema).
registerAction('detail', (a, ctx) => {
  if (a.url) ctx.navigate(fillUrl(a.url, ctx.record));
  else ctx.openForm('detail', ctx.record);
});
