import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { cachedQuery, cachedRows, rawRead } from '../db/read-cache.js';
import { grantedQuery, grantedRows, seesEverything } from '../sys/permission-tree.js';
import { onlineKind } from '../../shared/online-kinds.js';

/**
 * Which page schemas a user may read (issue 27 rule 9): the screens of their menu — the `component` of
 * every granted menu entry (an online list entry: its `online/<kind>` page) — plus, transitively, the
 * pages those schemas embed (any `page` property: tabs, regions, drawers) and the screens their row
 * `link` actions open (a menu path → that entry's component), plus the pages of the static routes every
 * signed-in user has (首页, 我的消息, the demo pages). The administrator reads every page.
 *
 * Computed once per user and permission set: through the read cache, keyed like the user's menu, so a
 * write to a permission table drops it at once; otherwise kept `ALLOWED_CACHE_MS` (page files may change).
 */
const ALLOWED_CACHE_MS = 30_000;
/** Pages of the static routes (app/router/static-routes.ts) and the home page JeecgBoot always shows. */
const ALWAYS = ['dashboard/Analysis', 'dashboard/Workplace', 'dashboard/Monitor', 'system/MyAnnouncement'];
const ALWAYS_PREFIX = 'demo/';

export interface PageLoader {
  (id: string): { schema?: Record<string, unknown> } | undefined;
}

/** A menu `component` as a page id: no leading slash or `.vue`, an online list → its kind's page. */
export function pageIdOf(component: unknown): string {
  const c = String(component ?? '').replace(/^\/+/, '').replace(/\.vue$/, '');
  const kind = onlineKind(c);
  return kind ? `online/${kind}` : c;
}

/** The page ids a schema refers to: `page` properties anywhere, and link actions' menu paths (resolved by `byPath`). */
export function referencedPages(schema: unknown, byPath: Map<string, string>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 40 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.page === 'string') out.push(o.page);
    if (o.type === 'link' && typeof o.url === 'string') {
      const path = o.url.split(/[?#]/)[0]!.replace(/\/+$/, '');
      const target = byPath.get(path);
      if (target) out.push(target);
    }
    for (const x of Object.values(o)) walk(x, depth + 1);
  };
  walk(schema, 0);
  return out;
}

/** The allowed set from the user's granted menu rows (pure; the loader reads the page files). */
export function closePages(granted: Array<Record<string, unknown>>, menus: Array<{ url: unknown; component: unknown }>, load: PageLoader, alias: (id: string) => string): Set<string> {
  const byPath = new Map<string, string>();
  for (const m of menus) if (m.url && m.component) byPath.set(String(m.url).replace(/\/+$/, ''), pageIdOf(m.component));
  const allowed = new Set<string>();
  const queue = [...ALWAYS, ...granted.filter((r) => Number(r.menu_type) !== 2 && r.component).map((r) => pageIdOf(r.component))];
  while (queue.length) {
    const id = alias(queue.pop()!);
    if (!id || allowed.has(id)) continue;
    allowed.add(id);
    const page = load(id);
    if (page?.schema) queue.push(...referencedPages(page.schema, byPath));
  }
  return allowed;
}

/** Whether `user` may read page `id` (an alias already resolved by the caller or not). */
export async function mayReadPage(ctx: ServerContext, user: SessionUser, id: string, load: PageLoader, alias: (id: string) => string): Promise<boolean> {
  if (seesEverything(user)) return true;
  const resolved = alias(id);
  if (resolved.startsWith(ALWAYS_PREFIX)) return true;
  return (await allowedPages(ctx, user, load, alias)).has(resolved);
}

export function allowedPages(ctx: ServerContext, user: SessionUser, load: PageLoader, alias: (id: string) => string): Promise<Set<string>> {
  return cachedQuery(ctx.db, 'allowed-pages', grantedQuery(ctx, user), ALLOWED_CACHE_MS, async () => {
    const [granted, menus] = await Promise.all([
      grantedRows(ctx, user),
      cachedRows(ctx.db, rawRead(ctx.db, sql<{ url: unknown; component: unknown }>`select url, component from sys_permission where del_flag = 0 and menu_type <> 2 and url is not null and component is not null`), ALLOWED_CACHE_MS),
    ]);
    return closePages(granted, menus, load, alias);
  });
}
