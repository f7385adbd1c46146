import type { MenuNode } from '@core/session/store';

/** Layout containers: a menu node with one of these components only groups its children. */
export const CONTAINER_COMPONENTS = new Set(['layouts/RouteView', 'layouts/PageView', 'layouts/TabLayout', 'layouts/BlankLayout', 'layouts/UserLayout', 'layouts/BasicLayout', 'layouts/default/index']);
export const IFRAME_COMPONENT = 'layouts/IframePageView';

/** One routable screen built from a menu node or a static route. */
export interface RouteDef {
  path: string;
  name: string;
  title: string;
  component?: string;
  /** Fixed page id (static demo routes). */
  pageId?: string;
  keepAlive: boolean;
  componentName?: string;
  url?: string;
  external?: boolean;
  hidden?: boolean;
  /** Titles of the menu ancestors (breadcrumb). */
  parents: { title: string; path: string }[];
  fromMenu: boolean;
}

export { ONLINE_KINDS, onlineKind } from '@shared/online-kinds';

/** Menu items with route flag "0" are not routes (SPEC §2); they still show in the menu and navigate by path. */
export function isRoutable(n: MenuNode) {
  return String(n.route ?? '1') !== '0';
}

export function isContainer(n: MenuNode) {
  return (n.children?.length ?? 0) > 0 || (!!n.component && CONTAINER_COMPONENTS.has(n.component));
}

/** Every screen of the menu tree, depth first. */
export function menuRoutes(menu: MenuNode[]): RouteDef[] {
  const out: RouteDef[] = [];
  const walk = (nodes: MenuNode[], parents: RouteDef['parents']) => {
    for (const n of nodes) {
      if (isContainer(n)) {
        walk(n.children ?? [], [...parents, { title: n.meta?.title ?? n.name, path: n.path }]);
        continue;
      }
      if (!isRoutable(n)) continue;
      out.push({
        path: n.path,
        name: n.name,
        title: n.meta?.title ?? n.name,
        component: n.component,
        keepAlive: !!n.meta?.keepAlive,
        componentName: n.meta?.componentName,
        url: n.meta?.url,
        external: !!n.meta?.internalOrExternal,
        hidden: !!n.hidden,
        parents,
        fromMenu: true,
      });
    }
  };
  walk(menu, []);
  return out;
}

/** A path without trailing slashes (the root stays "/"). */
export const normalPath = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

/**
 * Fixed menu paths → the page id their screen asks for first (ComponentPage's page-schema lookup),
 * for the boot prefetch (core/session/prefetch.ts). Iframe, external, parameterised and low-app
 * routes are left out (their requests depend on more than the path).
 */
export function prefetchRoutes(menu: MenuNode[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of menuRoutes(menu)) {
    if (!d.component || d.component === IFRAME_COMPONENT || d.external || d.path.includes(':') || d.name.startsWith('low-app') || !d.path.startsWith('/')) continue;
    // The first definition of a path wins, as in the router.
    out[normalPath(d.path)] ??= d.component.replace(/^\/+/, '');
  }
  return out;
}

/** Container paths → where they lead: their own redirect, else the first visible routable child. */
export function containerRedirects(menu: MenuNode[]): Record<string, string> {
  const out: Record<string, string> = {};
  const first = (n: MenuNode): string | undefined => {
    for (const c of n.children ?? []) {
      if (c.hidden) continue;
      if (isContainer(c)) {
        const f = first(c);
        if (f) return f;
      } else if (!c.meta?.internalOrExternal) return c.path;
    }
    return undefined;
  };
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (!isContainer(n)) continue;
      // An always-show item redirects to its own path (SPEC §2) — i.e. to its first screen, never a loop.
      const target = (n.redirect && n.redirect !== n.path ? n.redirect : undefined) ?? first(n);
      if (target && n.path && target !== n.path) out[n.path] = target;
      walk(n.children ?? []);
    }
  };
  walk(menu);
  return out;
}

/** Visible non-container entries for the menu search (SPEC §2). */
export function searchableEntries(menu: MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.hidden) continue;
      if (isContainer(n)) walk(n.children ?? []);
      else out.push(n);
    }
  };
  walk(menu);
  return out;
}

/**
 * `{{ expression }}` placeholders in menu URLs (SPEC §2). Evaluated against a fixed set of names —
 * never as code (no eval under our CSP and DESIGN §6).
 */
export function resolveUrlPlaceholders(url: string, vars: Record<string, string>): string {
  return url.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
    const key = expr
      .replace(/^window\._CONFIG\[['"](\w+)['"]\]$/, '$1')
      .replace(/^window\._CONFIG\.(\w+)$/, '$1')
      .replace(/^(?:this\.)?\$?store\.getters\.(\w+)$/, '$1');
    return vars[key] ?? '';
  });
}
