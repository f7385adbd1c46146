import { fillUrl, registerAction } from '../registry';

// A link: a path of the app (`{field}` filled from the row) in the app, anything else in a new window.
registerAction('link', (a, ctx) => {
  if (!a.url) return;
  const url = fillUrl(a.url, ctx.record);
  if (url.startsWith('/')) ctx.navigate(url);
  else window.open(url, '_blank', 'noopener');
});
