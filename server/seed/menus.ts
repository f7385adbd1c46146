import type { ServerContext } from '../context.js';
import type { EntityRegistry } from '../crud/entities.js';
import { loadEntities } from '../crud/entities.js';
import { now, sha256 } from '../util.js';
import { MENU_TREE, ROLES, STANDARD_BUTTONS, UNASSIGNED_MENU, type MenuSeed } from './data/menus.js';
import { roleId } from './data/org.js';
import type { SeedStep } from './index.js';

/** One sys_permission row to seed, with what role rules need to match it. */
interface PermRow {
  id: string;
  parentId: string | null;
  url: string;
  /** Url of the screen a button belongs to (the menu's own url for menus). */
  screen: string;
  /** Button suffix (menuType 2 only). */
  suffix?: string;
  row: Record<string, unknown>;
}

const permId = (key: string) => sha256(`perm|${key}`).slice(0, 32);
const ENTITY_OPS = ['list', 'add', 'edit', 'delete', 'deleteBatch', 'queryById', 'exportXls', 'importExcel'] as const;
const OP_NAMES: Record<string, string> = Object.fromEntries([['list', '列表'], ...STANDARD_BUTTONS]);

/** Entity permission prefixes → their operations (default all), read from the entity registry. */
function entityPrefixes(reg: EntityRegistry): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of reg.byName.values()) {
    if (!e.permission || !e.resource) continue;
    const ops = out.get(e.permission) ?? new Set<string>();
    for (const op of e.operations ?? ENTITY_OPS) ops.add(op);
    out.set(e.permission, ops);
  }
  return out;
}

/** Flattens the menu tree (plus generated buttons and the hidden catch-all for unclaimed entity prefixes) into rows. */
export function buildPermissionRows(reg: EntityRegistry): PermRow[] {
  const entities = entityPrefixes(reg);
  const claimed = new Set<string>();
  const rows: PermRow[] = [];
  const ts = now();
  const base = { del_flag: 0, status: '1', perms_type: '1', rule_flag: 0, internal_or_external: false, create_by: 'system', create_time: ts };

  const addButtons = (menu: PermRow, prefix: string, buttons: Array<[string, string]>) => {
    const seen = new Set<string>();
    buttons.forEach(([suffix, name], i) => {
      if (seen.has(suffix)) return;
      seen.add(suffix);
      const perms = `${prefix}:${suffix}`;
      rows.push({
        id: permId(`${menu.url}|${perms}`),
        parentId: menu.id,
        url: '',
        screen: menu.url,
        suffix,
        row: { ...base, name, menu_type: 2, perms, sort_no: i + 1, is_route: false, is_leaf: true, hidden: false, keep_alive: false, always_show: false, hide_tab: false },
      });
    });
  };

  const walk = (ms: MenuSeed[], parent: PermRow | null) => {
    ms.forEach((m, i) => {
      const buttons: Array<[string, string]> = [...(m.crud ? STANDARD_BUTTONS : [])];
      if (m.perms) {
        claimed.add(m.perms);
        for (const op of entities.get(m.perms) ?? []) if (op !== 'list') buttons.push([op, OP_NAMES[op] ?? op]);
      }
      buttons.push(...(m.buttons ?? []));
      const hasKids = !!m.children?.length || buttons.length > 0;
      const me: PermRow = {
        id: permId(m.url),
        parentId: parent?.id ?? null,
        url: m.url,
        screen: m.url,
        row: {
          ...base,
          name: m.name,
          url: m.url,
          component: m.component ?? null,
          component_name: m.componentName ?? null,
          redirect: m.redirect ?? null,
          icon: m.icon ?? null,
          menu_type: parent ? 1 : 0,
          perms: m.perms && !m.children?.length ? `${m.perms}:list` : null,
          sort_no: i + 1,
          always_show: false,
          is_route: true,
          is_leaf: !hasKids,
          keep_alive: m.keepAlive ?? false,
          hidden: m.hidden ?? false,
          hide_tab: false,
        },
      };
      rows.push(me);
      if (m.perms) addButtons(me, m.perms, buttons);
      if (m.children) walk(m.children, me);
    });
  };
  walk(MENU_TREE, null);

  const unclaimed = [...entities].filter(([p]) => !claimed.has(p));
  if (unclaimed.length) {
    const holder: MenuSeed = { ...UNASSIGNED_MENU };
    walk([holder], rows.find((r) => r.url === '/isystem') ?? null);
    const me = rows.find((r) => r.url === UNASSIGNED_MENU.url)!;
    me.row.is_leaf = false;
    for (const [prefix, ops] of unclaimed) addButtons(me, prefix, [...ops].map((op) => [op, `${prefix} ${OP_NAMES[op] ?? op}`]));
  }
  return rows;
}

/** Which seeded rows a role's rules grant: matched screens, their ancestors, and the listed buttons. */
export function grantedIds(rows: PermRow[], role: (typeof ROLES)[number]): Set<string> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Set<string>();
  const screenMatch = (pattern: string, url: string) =>
    pattern === '*' || pattern === url || (pattern.endsWith('/*') && url.startsWith(pattern.slice(0, -1)));
  for (const g of role.grants) {
    for (const r of rows) {
      if (!g.menus.some((p) => screenMatch(p, r.screen))) continue;
      if (r.suffix !== undefined && g.buttons !== '*' && !g.buttons.includes(r.suffix)) continue;
      for (let cur: PermRow | undefined = r; cur && !out.has(cur.id); cur = cur.parentId ? byId.get(cur.parentId) : undefined) out.add(cur.id);
    }
  }
  return out;
}

interface RuleRow {
  id: string;
  permissionId: string;
  screen: string;
  name: string;
  column: string;
  condition: string;
  value: string;
}

function dataRuleRows(rows: PermRow[]): RuleRow[] {
  const out: RuleRow[] = [];
  const walk = (ms: MenuSeed[]) => {
    for (const m of ms) {
      for (const r of m.dataRules ?? []) out.push({ id: permId(`rule|${m.url}|${r.name}`), permissionId: permId(m.url), screen: m.url, ...r });
      if (m.children) walk(m.children);
    }
  };
  walk(MENU_TREE);
  const ids = new Set(rows.map((r) => r.id));
  return out.filter((r) => ids.has(r.permissionId));
}

/** permission id → data rule ids a role's rules name on the screens they match. */
function roleDataRules(rules: RuleRow[], role: (typeof ROLES)[number]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const g of role.grants)
    for (const name of g.dataRules ?? [])
      for (const r of rules)
        if (r.name === name && g.menus.some((p) => p === '*' || p === r.screen || (p.endsWith('/*') && r.screen.startsWith(p.slice(0, -1)))))
          out.set(r.permissionId, [...(out.get(r.permissionId) ?? []), r.id]);
  return out;
}

/**
 * Inserts the menu/button rows and the seeded roles that are missing, then grants to each role the
 * rows inserted now (or everything, for a role created now) that its rules match. Existing rows and
 * grants are left alone, so an administrator's edits survive a re-run.
 */
export async function syncMenus(ctx: ServerContext): Promise<void> {
  const rows = buildPermissionRows(ctx.entities);
  const have = new Set((await ctx.db.selectFrom('sys_permission').select('id').execute()).map((r) => r.id as string));
  const fresh = rows.filter((r) => !have.has(r.id));
  if (fresh.length)
    await ctx.db
      .insertInto('sys_permission')
      .values(fresh.map((r) => ({ id: r.id, parent_id: r.parentId, ...r.row })))
      .execute();

  const roleRows = await ctx.db.selectFrom('sys_role').select(['id', 'role_code']).execute();
  const roleIds = new Map(roleRows.map((r) => [r.role_code as string, r.id as string]));
  const newRoles = ROLES.filter((r) => !roleIds.has(r.code));
  if (newRoles.length) {
    await ctx.db
      .insertInto('sys_role')
      .values(newRoles.map((r) => ({ id: roleId(r.code), role_name: r.name, role_code: r.code, description: r.description, tenant_id: 0, create_by: 'system', create_time: now() })))
      .execute();
    for (const r of newRoles) roleIds.set(r.code, roleId(r.code));
  }
  // Data rules of screens (stable ids), inserted where missing.
  const rules = dataRuleRows(rows);
  const haveRules = new Set((await ctx.db.selectFrom('sys_permission_data_rule').select('id').execute()).map((r) => r.id as string));
  const freshRules = rules.filter((r) => !haveRules.has(r.id));
  if (freshRules.length) {
    await ctx.db
      .insertInto('sys_permission_data_rule')
      .values(freshRules.map(({ id, permissionId, name, column, condition, value }) => ({
        id, permission_id: permissionId, rule_name: name, rule_column: column, rule_conditions: condition, rule_value: value, status: '1', create_by: 'system', create_time: now(),
      })))
      .execute();
    await ctx.db.updateTable('sys_permission').set({ rule_flag: 1 }).where('id', 'in', [...new Set(freshRules.map((r) => r.permissionId))]).execute();
  }

  const freshIds = new Set(fresh.map((r) => r.id));
  const grants: Array<Record<string, unknown>> = [];
  for (const role of ROLES) {
    const isNew = newRoles.includes(role);
    const ruleIds = roleDataRules(rules, role);
    for (const pid of grantedIds(rows, role)) {
      const ids = ruleIds.get(pid) ?? [];
      const row = { id: sha256(`rp|${role.code}|${pid}`).slice(0, 32), role_id: roleIds.get(role.code)!, permission_id: pid, operate_date: now(), data_rule_ids: ids.join(',') || null };
      if (isNew || freshIds.has(pid)) grants.push(row);
      // A data rule new to this database reaches the existing grant too.
      else if (ids.some((id) => freshRules.some((r) => r.id === id)))
        await ctx.db.updateTable('sys_role_permission').set({ data_rule_ids: ids.join(',') }).where('role_id', '=', row.role_id).where('permission_id', '=', pid).where('data_rule_ids', 'is', null).execute();
    }
  }
  for (let i = 0; i < grants.length; i += 500)
    await ctx.db
      .insertInto('sys_role_permission')
      .values(grants.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing())
      .execute();
}

/** Re-runs whenever the menu tree or the entity permission prefixes change (the name carries their hash). */
export function menuSeedStep(): SeedStep {
  const reg = loadEntities();
  const sig = sha256(JSON.stringify([MENU_TREE, ROLES, [...entityPrefixes(reg)].map(([p, o]) => [p, [...o].sort()]).sort()])).slice(0, 12);
  return { name: `menus@${sig}`, run: syncMenus };
}
