import type { ReactElement } from 'react';
import { matchRoutes, Route } from 'react-router-dom';
import type { RouteDef } from '@/router/menu';
import { RouteElement } from '@/router/resolve';

export type FoundRoute = { def: RouteDef; params: Record<string, string | undefined>; route: ReactElement };

/**
 * The main layout's route lookup: a path's route, ranked as React Router ranks routes (static
 * segments before parameters), matched once per path — matching every render against all of the
 * menu's routes (a hundred or more) was a measurable part of the layout's render. `route` is the one
 * <Route> a tab's <Routes> renders (the tab keeps its own location for the page inside).
 */
export function routeLookup(defs: RouteDef[]): (pathname: string) => FoundRoute | undefined {
  const routes = defs.map((def) => ({ path: def.path, def }));
  const elements = new Map<RouteDef, ReactElement>();
  const found = new Map<string, FoundRoute | undefined>();
  return (pathname) => {
    if (found.has(pathname)) return found.get(pathname);
    const m = matchRoutes(routes, pathname)?.[0];
    const def = m && (m.route as (typeof routes)[number]).def;
    if (def && !elements.has(def)) elements.set(def, <Route path={def.path} element={<RouteElement def={def} />} />);
    const r = def && { def, params: m.params, route: elements.get(def)! };
    found.set(pathname, r);
    return r;
  };
}
