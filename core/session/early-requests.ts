/*
 * Inlined into index.html ahead of the stylesheets and the entry (the `earlyRequests` plugin in
 * vite.config.ts), so it runs while the page is still being parsed: a signed-in visit to a main-layout
 * path asks at once, in one request (GET /schema/boot), for the menu (as GET
 * /sys/permission/getUserPermissionByToken answers it), where the path leads (as GET /schema/route: the
 * page's schema and, for a list page, its first rows) and the header's notice list (as GET
 * /sys/annountCement/listByUser, the notice centre's first load). The entry's own requests could only
 * leave once its whole module graph had been downloaded and compiled; these are answered by then.
 * core/session/prefetch.ts (`takeEarly`, `arrivedEarly`) hands the answers to the app: one the server
 * could not give (null), or all three when the request is not answered with HTTP 200, is undefined there,
 * and the app asks again in the usual way (with its error handling). `arrived` keeps each answer once it
 * is in, so a component can draw it in its first render. A plain script: no imports; the session keys and
 * their `{value, expire}` form are those of core/session/store.ts, the headers those of core/http/client.ts.
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
  // The path as it is: the server matches it with or without a trailing slash, as the menu does.
  const query = new URLSearchParams({ path: pathname, search });
  // A light entry (app/scan.tsx: no menu, no notices) asks only where the path leads (GET /schema/route).
  if (__EARLY_ROUTE_ONLY__) {
    const route = fetch(`${__API_BASE__}/schema/route?${query}`, { headers })
      .then((r) => (r.status === 200 ? (r.json() as Promise<unknown>) : undefined))
      .then(
        (answer) => (arrived.route = answer ?? undefined),
        () => undefined,
      );
    (window as unknown as { __early: unknown }).__early = { path: pathname, search, token, arrived, route };
    return;
  }
  const boot = fetch(`${__API_BASE__}/schema/boot?${query}`, { headers })
    .then((r) => (r.status === 200 ? (r.json() as Promise<{ success?: boolean; result?: Record<string, unknown> }>) : undefined))
    .then(
      (answer) => (answer?.success ? answer.result : undefined),
      () => undefined, // not sent, or not JSON
    );
  const part = (name: string) => boot.then((answers) => (arrived[name] = answers?.[name] ?? undefined));
  const [permissions, route, notices] = [part('permissions'), part('route'), part('notices')];
  (window as unknown as { __early: unknown }).__early = { path: pathname, search, token, arrived, permissions, route, notices };
})();
