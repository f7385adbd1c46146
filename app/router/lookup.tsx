import type { ReactElement } from 'react';
import { matchRoutes, Route } from 'react-router-dom';
import type { RouteDef } from '@core/menu';
import { RouteElement } from '@app/router/resolve';

export type FoundRoute = { def: RouteDef; params: Record<string, string | undefined>; route: ReactElement };

/** A route path without parameters, splats or optional segments, as React Router compares it (any case, no trailing slash). */
const staticKey = (path: string) => (/[:*?]/.test(path) ? undefined : path.toLowerCase().replace(/\/+$/, '') || '/');

/**
 * The main layout's route lookup: a path's route, ranked as React Router ranks routes (static
 * segments before parameters), matched once per path — matching every render against all of the
 * menu's routes (a hundred or more) was a measurable part of the layout's render. A path that is a
 * static route's own is that route without ranking them all (React Router ranks it above any route
 * that matches through parameters; of equal ones the first listed wins, as here); any other is
 * matched by React Router. `route` is the one <Route> a tab's <Routes> renders (the tab keeps its own
 * location for the page inside).
 */
export function routeLookup(defs: RouteDef[]): (pathname: string) => FoundRoute | undefined {
  // (An optional segment makes a route match its shorter path too, ranked as equal to a static route
  // there: with one in the list, every path is left to React Router.)
  const exact = new Map<string, RouteDef>();
  if (!defs.some((d) => d.path.includes('?')))
    for (const def of defs) {
      const k = staticKey(def.path);
      if (k !== undefined && !exact.has(k)) exact.set(k, def);
    }
  const routes = defs.map((def) => ({ path: def.path, def }));
  const elements = new Map<RouteDef, ReactElement>();
  const found = new Map<string, FoundRoute | undefined>();
  return (pathname) => {
    if (found.has(pathname)) return found.get(pathname);
    const same = exact.get(staticKey(pathname) ?? '');
    const m = same ? undefined : matchRoutes(routes, pathname)?.[0];
    const def = same ?? (m && (m.route as (typeof routes)[number]).def);
    if (def && !elements.has(def)) elements.set(def, <Route path={def.path} element={<RouteElement def={def} />} />);
    const r = def && { def, params: m?.params ?? {}, route: elements.get(def)! };
    found.set(pathname, r);
    return r;
  };
}
