/*
 * Inlined into index.html ahead of the stylesheets and the entry (the `earlyRequests` plugin in
 * vite.config.ts), so it runs while the page is still being parsed: a signed-in visit to a main-layout
 * path asks at once for the menu (GET /sys/permission/getUserPermissionByToken) and for where the path
 * leads (GET /schema/route, answered with the page's schema and, for a list page, its first rows), and
 * then for the header's notice list (GET /sys/annountCement/listByUser, the notice centre's first load).
 * The entry's own requests could only leave once its whole module graph had been downloaded and
 * compiled; these are answered by then. src/session/prefetch.ts (`takeEarly`, `arrivedEarly`) hands
 * the answers to the app: an answer other than HTTP 200 is undefined there, and the app asks again in
 * the usual way (with its error handling). `arrived` keeps each answer as it comes in, so a component
 * can draw it in its first render. A plain script: no imports; the session keys and their
 * `{value, expire}` form are those of src/session/store.ts, the headers those of src/http/client.ts.
 */
(() => {
  const read = (key: string): unknown => {
    try {
      const v = JSON.parse(localStorage.getItem(key) ?? 'null') as { value?: unknown; expire?: number } | null;
      return v && typeof v === 'object' && typeof v.expire === 'number' && v.expire > Date.now() ? v.value : undefined;
    } catch {
      return undefined;
    }
  };
  const token = read('Access-Token');
  const { pathname, search } = window.location;
  if (typeof token !== 'string' || !token || /^\/(user|oauth2-app|403|404|500)(\/|$)/.test(pathname)) return;
  const headers = { 'X-Access-Token': token, 'tenant-id': String(read('TENANT_ID') ?? 0) };
  const arrived: Record<string, unknown> = {};
  const get = (name: string, url: string) =>
    fetch(`${__API_BASE__}${url}`, { headers })
      .then(
        (r) => (r.status === 200 ? (r.json() as Promise<unknown>) : undefined),
        () => undefined,
      )
      .then((answer) => (arrived[name] = answer));
  const permissions = get('permissions', '/sys/permission/getUserPermissionByToken');
  // The path as it is: the server matches it with or without a trailing slash, as the menu does.
  const route = get('route', `/schema/route?${new URLSearchParams({ path: pathname, search })}`);
  // Needed only once the layout is drawn: after the other two, so it takes no connection from the
  // page's scripts (six per host) and no time from the server's answers to them.
  const notices = Promise.all([permissions, route]).then(() => get('notices', '/sys/annountCement/listByUser?pageSize=5'));
  (window as unknown as { __early: unknown }).__early = { path: pathname, search, token, arrived, permissions, route, notices };
})();
