import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { cachedRows, rawRead } from '../db/read-cache.js';

export interface AuthEntry {
  action: string;
  type: string;
  describe: string;
  status?: string;
}

export interface MenuNode {
  id: string;
  path: string;
  name: string;
  component: string;
  route: '0' | '1';
  hidden?: true;
  alwaysShow?: true;
  redirect?: string;
  children?: MenuNode[];
  meta: {
    title: string;
    icon?: string;
    keepAlive: boolean;
    internalOrExternal: boolean;
    componentName: string;
    url?: string;
    hideTab?: boolean;
    permissionList?: AuthEntry[];
  };
}

type PermRow = Record<string, any>;

const isExternal = (url: string) => /^(https?:)?\/\//i.test(url) || url.startsWith('{{');
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

function node(p: PermRow, top: boolean, buttons: AuthEntry[]): MenuNode {
  const url = String(p.url ?? '');
  const component = String(p.component ?? '');
  const external = isExternal(url);
  const n: MenuNode = {
    id: String(p.id),
    path: external ? md5(url) : url,
    name: p.component_name || url.replace(/^\//, '').replace(/\//g, '-').replace(/:/g, '@'),
    component,
    route: p.is_route === false ? '0' : '1',
    meta: {
      title: String(p.name),
      keepAlive: !!p.keep_alive,
      internalOrExternal: !!p.internal_or_external,
      componentName: p.component_name || component.split('/').pop() || '',
    },
  };
  if (p.icon) n.meta.icon = String(p.icon);
  if (external) n.meta.url = url;
  if (p.hide_tab) n.meta.hideTab = true;
  if (p.hidden) n.hidden = true;
  if (p.always_show) n.alwaysShow = true;
  if (top && p.redirect) n.redirect = String(p.redirect);
  if (buttons.length) n.meta.permissionList = buttons;
  return n;
}

/** A container whose children are all hidden is hidden too (applied bottom-up). */
function propagateHidden(nodes: MenuNode[]) {
  for (const n of nodes) {
    if (!n.children?.length) continue;
    propagateHidden(n.children);
    if (n.children.every((c) => c.hidden)) n.hidden = true;
  }
}

/**
 * Grants a user holds through department roles (permission id and the grant's data rule ids): roles of
 * departments the user belongs to, each capped by that department's own permissions (sys_depart_permission).
 */
export const deptRoleGrants = (userId: string) => sql<{ permission_id: string; data_rule_ids: string | null }>`
  select drp.permission_id, drp.data_rule_ids from sys_depart_role_user dru
  join sys_depart_role dr on dr.id = dru.drole_id
  join sys_user_depart ud on ud.user_id = dru.user_id and ud.dep_id = dr.depart_id
  join sys_depart_role_permission drp on drp.role_id = dr.id
  join sys_depart_permission dp on dp.depart_id = dr.depart_id and dp.permission_id = drp.permission_id
  where dru.user_id = ${userId}`;

/** Every grant a user holds, through roles and department roles (permission id, the grant's data rule ids). */
export const userGrants = (userId: string) => sql<{ permission_id: string; data_rule_ids: string | null }>`
  select rp.permission_id, rp.data_rule_ids from sys_user_role ur join sys_role_permission rp on rp.role_id = ur.role_id where ur.user_id = ${userId}
  union all ${deptRoleGrants(userId)}`;

/** Permission ids a user holds through department roles (see `deptRoleGrants`). */
export const deptRolePermissionIds = (userId: string) => sql<{ permission_id: string }>`select g.permission_id from (${deptRoleGrants(userId)}) g`;

const MENU_CACHE_MS = 30_000;

/** The select of the menus and buttons a user holds (through roles and department roles), in menu order. */
export const grantedQuery = (ctx: ServerContext, user: Pick<SessionUser, 'id'>) =>
  rawRead(ctx.db, sql<PermRow>`
    select p.* from sys_permission p
    where p.del_flag = 0 and p.id in (select g.permission_id from (${userGrants(user.id)}) g)
    order by p.sort_no asc, p.create_time asc, p.id asc`);

/** The menus and buttons a user holds, through the read cache: a write to any of the permission tables drops these at once. */
export const grantedRows = (ctx: ServerContext, user: Pick<SessionUser, 'id'>) => cachedRows(ctx.db, grantedQuery(ctx, user), MENU_CACHE_MS);

/** The system administrator sees every screen and every permission row. */
export const seesEverything = (user: Pick<SessionUser, 'roleCodes'>) => user.roleCodes.includes('admin');

/**
 * The permission rows a user may see in the permission trees (issue 27 rule 9): everything for the
 * administrator (undefined), else the rows they hold and their ancestors — a screen outside the
 * caller's menu is not revealed by a tree read.
 */
export async function visiblePermissionIds(ctx: ServerContext, user: SessionUser): Promise<Set<string> | undefined> {
  if (seesEverything(user)) return undefined;
  const held = await grantedRows(ctx, user);
  const parents = new Map(
    (await cachedRows(ctx.db, ctx.db.selectFrom('sys_permission').select(['id', 'parent_id']).where('del_flag', '=', 0), MENU_CACHE_MS)).map((r) => [String(r.id), r.parent_id ? String(r.parent_id) : '']),
  );
  const out = new Set<string>();
  for (const r of held) for (let id = String(r.id), depth = 0; id && !out.has(id) && depth < 50; id = parents.get(id) ?? '', depth++) out.add(id);
  return out;
}

/**
 * The `component` of the first granted, routable menu entry at `path` (what the client's router will
 * open there), for the early page requests of a first visit (GET /schema/route).
 */
export async function routedComponent(ctx: ServerContext, user: SessionUser, path: string): Promise<string | undefined> {
  const at = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const hit = (await grantedRows(ctx, user)).find(
    (r) => Number(r.menu_type) !== 2 && r.is_route !== false && !r.internal_or_external && String(r.url ?? '').replace(/\/+$/, '') === at && r.component,
  );
  return hit ? String(hit.component).replace(/^\/+/, '') : undefined;
}

/** The `getUserPermissionByToken` answer: the user's menu tree, their buttons, every button, the safe-mode flag. */
export async function userPermissions(ctx: ServerContext, user: SessionUser) {
  const [rows, allButtons] = await Promise.all([
    grantedRows(ctx, user),
    cachedRows(ctx.db, ctx.db
      .selectFrom('sys_permission')
      .select(['perms', 'perms_type', 'name', 'status'])
      .where('menu_type', '=', 2)
      .where('del_flag', '=', 0)
      .orderBy('sort_no'), MENU_CACHE_MS),
  ]);
  const entry = (b: PermRow): AuthEntry => ({ action: String(b.perms ?? ''), type: String(b.perms_type ?? '1'), describe: String(b.name) });
  const buttonsOf = new Map<string, AuthEntry[]>();
  const auth: AuthEntry[] = [];
  const seen = new Set<string>();
  for (const b of rows) {
    if (Number(b.menu_type) !== 2 || !b.perms || String(b.status) !== '1') continue;
    const e = entry(b);
    if (b.parent_id) (buttonsOf.get(b.parent_id) ?? buttonsOf.set(b.parent_id, []).get(b.parent_id)!).push(e);
    if (!seen.has(e.action)) {
      seen.add(e.action);
      auth.push(e);
    }
  }

  const menus = rows.filter((r) => Number(r.menu_type) !== 2);
  const home = '/dashboard/analysis';
  if (!menus.some((m) => m.url === home)) {
    // JeecgBoot always shows 首页, granted or not.
    const h = await cachedRows(ctx.db, rawRead(ctx.db, sql<PermRow>`select * from sys_permission where url = ${home} and del_flag = 0 and menu_type <> 2 limit 1`), MENU_CACHE_MS);
    if (h[0]) menus.unshift({ ...h[0], parent_id: null });
  }
  const ids = new Set(menus.map((m) => String(m.id)));
  const nodes = new Map<string, MenuNode>();
  const tops: MenuNode[] = [];
  for (const m of menus) {
    const top = !m.parent_id || !ids.has(String(m.parent_id));
    nodes.set(String(m.id), node(m, top, buttonsOf.get(String(m.id)) ?? []));
  }
  for (const m of menus) {
    const n = nodes.get(String(m.id));
    if (!n) continue;
    const parent = m.parent_id ? nodes.get(String(m.parent_id)) : undefined;
    if (parent) (parent.children ??= []).push(n);
    else tops.push(n);
  }
  propagateHidden(tops);
  const home0 = tops.findIndex((t) => t.path === home);
  if (home0 > 0) tops.unshift(...tops.splice(home0, 1));

  return {
    menu: tops,
    auth,
    allAuth: allButtons.map((b) => ({ ...entry(b), status: String(b.status ?? '1') })),
    sysSafeMode: ctx.cfg.safeMode,
  };
}
