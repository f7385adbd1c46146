import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, ok } from '../http/envelope.js';
import { toWire } from '../crud/engine.js';
import { newId, now } from '../util.js';
import { commaList, revokeUsersIn } from './user-admin.js';
import { sessionsRevoked } from './notify.js';
import { pruneDeptRolePermissions } from './depart-role.js';
import { visiblePermissionIds } from './permission-tree.js';

type Row = Record<string, unknown>;
const PERM_FIELDS: Array<[wire: string, column: string]> = [
  ['parentId', 'parent_id'], ['name', 'name'], ['url', 'url'], ['component', 'component'], ['componentName', 'component_name'],
  ['redirect', 'redirect'], ['menuType', 'menu_type'], ['perms', 'perms'], ['permsType', 'perms_type'], ['sortNo', 'sort_no'],
  ['alwaysShow', 'always_show'], ['icon', 'icon'], ['isRoute', 'is_route'], ['keepAlive', 'keep_alive'], ['hidden', 'hidden'],
  ['hideTab', 'hide_tab'], ['description', 'description'], ['status', 'status'], ['internalOrExternal', 'internal_or_external'],
];
const RULE_FIELDS: Array<[string, string]> = [['ruleName', 'rule_name'], ['ruleColumn', 'rule_column'], ['ruleConditions', 'rule_conditions'], ['ruleValue', 'rule_value'], ['status', 'status']];
const RULE_CONDITIONS = ['>', '<', '>=', '<=', '=', '!=', 'IN', 'LIKE', 'LEFT_LIKE', 'RIGHT_LIKE', 'USE_SQL_RULES'];

export interface PermTreeNode extends Row {
  key: string;
  title: string;
  children?: PermTreeNode[];
}

/** Every live permission row, in menu order (wire shape). */
export async function allPermissions(db: DB, ctx: ServerContext): Promise<Row[]> {
  const rows = await db.selectFrom('sys_permission').selectAll().where('del_flag', '=', 0).orderBy('sort_no').orderBy('create_time').orderBy('id').execute();
  const e = ctx.entities.get('sys_permission');
  return rows.map((r) => toWire(e, r));
}

/** Rows → tree; `shape` adds the node keys a screen expects. Orphans become roots. */
export function toTree<T extends Row>(rows: Row[], shape: (r: Row) => T): Array<T & { children?: T[] }> {
  const nodes = new Map(rows.map((r) => [String(r.id), shape(r) as T & { children?: T[] }]));
  const roots: Array<T & { children?: T[] }> = [];
  for (const r of rows) {
    const n = nodes.get(String(r.id))!;
    const p = r.parentId ? nodes.get(String(r.parentId)) : undefined;
    if (p) (p.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

/** JeecgBoot TreeModel for authorisation trees: {key, title, slotTitle, value, parentId, isLeaf, ruleFlag, icon, children}; `only` limits the rows. */
export async function authTree(ctx: ServerContext, only?: Set<string>) {
  const rows = (await allPermissions(ctx.db, ctx)).filter((r) => !only || only.has(String(r.id)));
  const hasKids = new Set(rows.map((r) => String(r.parentId ?? '')));
  const treeList = toTree(rows, (r) => ({
    key: String(r.id), title: String(r.name), slotTitle: String(r.name), value: String(r.id), label: String(r.name), parentId: r.parentId ?? null,
    isLeaf: !hasKids.has(String(r.id)), ruleFlag: Number(r.ruleFlag ?? 0), icon: r.icon ?? '', menuType: r.menuType,
  }));
  return { treeList, ids: rows.map((r) => String(r.id)) };
}

/** Users holding a role (their sessions are revoked when the role's permissions change). */
export async function usersOfRoles(db: DB, roleIds: string[]): Promise<string[]> {
  if (!roleIds.length) return [];
  return (await db.selectFrom('sys_user_role').select('user_id').where('role_id', 'in', roleIds).execute()).map((r) => String(r.user_id));
}

function pick(body: Row, fields: Array<[string, string]>): Row {
  const out: Row = {};
  for (const [w, c] of fields) if (Object.prototype.hasOwnProperty.call(body, w)) out[c] = body[w] === '' ? null : body[w];
  return out;
}

function validatePermission(v: Row, mode: 'add' | 'edit') {
  if (mode === 'add' || 'name' in v) if (!v.name || String(v.name).length > 100) throw new BizError('菜单名称不能为空，且不超过100个字符');
  if (mode === 'add' || 'menu_type' in v) if (![0, 1, 2].includes(Number(v.menu_type))) throw new BizError('菜单类型只能是 0（一级菜单）、1（子菜单）或 2（按钮）');
  if ('menu_type' in v) v.menu_type = Number(v.menu_type);
  if (Number(v.menu_type) === 1 && mode === 'add' && !v.parent_id) throw new BizError('子菜单必须选择上级菜单');
  if (Number(v.menu_type) === 2 && mode === 'add' && !v.perms) throw new BizError('按钮必须填写授权标识');
  if (v.perms && !/^[A-Za-z][A-Za-z0-9_:.,-]{0,254}$/.test(String(v.perms))) throw new BizError('授权标识只允许字母、数字、冒号、下划线、点、逗号');
  if (v.url && String(v.url).length > 255) throw new BizError('路径不超过255个字符');
  if ('perms_type' in v && !['1', '2'].includes(String(v.perms_type))) throw new BizError('权限策略只能是 1（显示）或 2（可编辑）');
  if ('status' in v && !['0', '1'].includes(String(v.status))) throw new BizError('状态只能是 0 或 1');
  if ('sort_no' in v && v.sort_no !== null && !Number.isFinite(Number(v.sort_no))) throw new BizError('排序必须是数字');
  for (const b of ['always_show', 'is_route', 'keep_alive', 'hidden', 'hide_tab', 'internal_or_external']) if (b in v) v[b] = v[b] === true || v[b] === 'true' || v[b] === 1 || v[b] === '1';
  for (const s of ['name', 'url', 'component', 'component_name', 'redirect', 'icon', 'description']) if (v[s] !== undefined && v[s] !== null && typeof v[s] !== 'string') throw new BizError('请求参数不正确');
}

/** A grant of a permission to a role or a department role (both tables key it by role and permission). */
type GrantTable = 'sys_role_permission' | 'sys_depart_role_permission';

/** The data rules of a permission and the ones ticked on one role's grant of it (`{ datarule, drChecked }`). */
export async function grantDataRules(ctx: ServerContext, table: GrantTable, roleId: string, permissionId: string) {
  const rules = await ctx.db.selectFrom('sys_permission_data_rule').selectAll().where('permission_id', '=', permissionId).where('status', '=', '1').execute();
  if (!rules.length) return { ...ok(null, '未找到权限配置信息'), success: false, code: 500 };
  const grant = await ctx.db.selectFrom(table).select('data_rule_ids').where('role_id', '=', roleId).where('permission_id', '=', permissionId).executeTakeFirst();
  return ok({ datarule: rules.map((r) => toWire(ctx.entities.get('sys_permission_data_rule'), r)), drChecked: grant?.data_rule_ids ?? '' });
}

/** Ticks data rules (of that permission only) on a role's existing grant of the permission. */
export async function saveGrantDataRules(ctx: ServerContext, table: GrantTable, roleId: string, permissionId: string, dataRuleIds: unknown) {
  const ids = commaList(dataRuleIds);
  if (ids.length) {
    const known = await ctx.db.selectFrom('sys_permission_data_rule').select('id').where('permission_id', '=', permissionId).where('id', 'in', ids).execute();
    if (known.length !== ids.length) throw new BizError('数据规则不属于该菜单');
  }
  const r = await ctx.db.updateTable(table).set({ data_rule_ids: ids.join(',') || null }).where('role_id', '=', roleId).where('permission_id', '=', permissionId).executeTakeFirst();
  if (!Number(r.numUpdatedRows)) throw new BizError('请先授权该菜单，再保存数据规则');
  return ok('数据规则保存成功！', '数据规则保存成功！');
}

/** Menus, buttons and data rules (JeecgBoot SysPermissionController). */
export async function registerPermissionAdmin(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const READ = { config: { auth: ['system:permission:list', 'system:role:authorize'] } };

  // Tree reads show a caller who is not the administrator only the rows they hold (and their ancestors):
  // no screen outside their own menu is revealed (issue 27 rule 9).
  const visibleOnly = async (req: FastifyRequest, rows: Row[]) => {
    const only = await visiblePermissionIds(ctx, req.user!);
    return only ? rows.filter((r) => only.has(String(r.id))) : rows;
  };

  api.get('/sys/permission/list', { config: { auth: 'system:permission:list' } }, async (req) => {
    const rows = await visibleOnly(req, await allPermissions(ctx.db, ctx));
    const hasKids = new Set(rows.map((r) => String(r.parentId ?? '')));
    return ok(toTree(rows, (r) => ({ ...r, key: String(r.id), title: String(r.name), leaf: !hasKids.has(String(r.id)) })));
  });

  const withHasChildren = async (rows: Row[], only: Set<string> | undefined): Promise<Row[]> => {
    const ids = rows.map((r) => String(r.id));
    const kids = ids.length ? await ctx.db.selectFrom('sys_permission').select(['id', 'parent_id']).where('parent_id', 'in', ids).where('del_flag', '=', 0).execute() : [];
    const set = new Set(kids.filter((k) => !only || only.has(String(k.id))).map((k) => String(k.parent_id)));
    return rows.map((r) => ({ ...r, key: String(r.id), title: String(r.name), hasChildren: set.has(String(r.id)), leaf: !set.has(String(r.id)) }));
  };
  const level = async (req: FastifyRequest, parentIds: string[] | null) => {
    let q = ctx.db.selectFrom('sys_permission').selectAll().where('del_flag', '=', 0);
    q = parentIds === null ? q.where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '=', '')])) : q.where('parent_id', 'in', parentIds.length ? parentIds : ['']);
    const rows = await q.orderBy('sort_no').orderBy('id').execute();
    const only = await visiblePermissionIds(ctx, req.user!);
    const wire = rows.map((r) => toWire(ctx.entities.get('sys_permission'), r));
    return withHasChildren(only ? wire.filter((r) => only.has(String(r.id))) : wire, only);
  };
  api.get('/sys/permission/getSystemMenuList', { config: { auth: 'system:permission:list' } }, async (req) => ok(await level(req, null)));
  api.get('/sys/permission/getSystemSubmenu', { config: { auth: 'system:permission:list' } }, async (req) =>
    ok(await level(req, [String((req.query as Row).parentId ?? '')])),
  );
  api.get('/sys/permission/getSystemSubmenuBatch', { config: { auth: 'system:permission:list' } }, async (req) => {
    const ids = commaList((req.query as Row).parentIds);
    const rows = await level(req, ids);
    const out: Record<string, Row[]> = Object.fromEntries(ids.map((id) => [id, []]));
    for (const r of rows) (out[String(r.parentId)] ??= []).push(r);
    return ok(out);
  });

  api.get('/sys/permission/queryTreeList', READ, async (req) => ok(await authTree(ctx, await visiblePermissionIds(ctx, req.user!))));
  api.get('/sys/role/queryTreeList', { config: { auth: 'system:role:authorize' } }, async (req) => ok(await authTree(ctx, await visiblePermissionIds(ctx, req.user!))));

  const save = (mode: 'add' | 'edit') => async (req: FastifyRequest) => {
    const body = (req.body ?? {}) as Row;
    const v = pick(body, PERM_FIELDS);
    validatePermission(v, mode);
    await ctx.db.transaction().execute(async (trx) => {
      if (v.parent_id) {
        const parent = await trx.selectFrom('sys_permission').select(['id']).where('id', '=', String(v.parent_id)).where('del_flag', '=', 0).executeTakeFirst();
        if (!parent) throw new BizError('上级菜单不存在');
      }
      if (mode === 'add') {
        const id = newId();
        await trx
          .insertInto('sys_permission')
          .values({ perms_type: '1', status: '1', sort_no: 1, is_route: true, ...v, id, is_leaf: true, del_flag: 0, rule_flag: 0, create_by: req.user!.username, create_time: now() })
          .execute();
        if (v.parent_id) await trx.updateTable('sys_permission').set({ is_leaf: false }).where('id', '=', String(v.parent_id)).execute();
      } else {
        const id = String(body.id ?? '');
        const old = await trx.selectFrom('sys_permission').select(['id', 'parent_id']).where('id', '=', id).where('del_flag', '=', 0).executeTakeFirst();
        if (!old) throw new BizError('未找到对应数据');
        // The new parent must not be the row itself or one of its descendants.
        for (let cur = v.parent_id ? String(v.parent_id) : '', depth = 0; cur && depth < 100; depth++) {
          if (cur === id) throw new BizError('上级菜单不能是自己或自己的下级菜单');
          cur = String((await trx.selectFrom('sys_permission').select('parent_id').where('id', '=', cur).executeTakeFirst())?.parent_id ?? '');
        }
        await trx.updateTable('sys_permission').set({ ...v, update_by: req.user!.username, update_time: now() }).where('id', '=', id).execute();
        if (v.parent_id) await trx.updateTable('sys_permission').set({ is_leaf: false }).where('id', '=', String(v.parent_id)).execute();
      }
    });
    return ok(mode === 'add' ? '添加成功！' : '编辑成功!', mode === 'add' ? '添加成功！' : '编辑成功!');
  };
  api.post('/sys/permission/add', { config: { auth: 'system:permission:add' } }, save('add'));
  api.put('/sys/permission/edit', { config: { auth: 'system:permission:edit' } }, save('edit'));
  api.post('/sys/permission/edit', { config: { auth: 'system:permission:edit' } }, save('edit'));

  /** Deletes permissions with their descendants, grants and data rules; holders' sessions are revoked. */
  const remove = async (ids: string[]) => {
    if (!ids.length) throw new BizError('请选择一条记录！');
    await ctx.db.transaction().execute(async (trx) => {
      const all = new Set<string>();
      let frontier = ids;
      while (frontier.length) {
        frontier.forEach((i) => all.add(i));
        frontier = (await trx.selectFrom('sys_permission').select('id').where('parent_id', 'in', frontier).execute()).map((r) => String(r.id)).filter((i) => !all.has(i));
      }
      const list = [...all];
      const roles = (await trx.selectFrom('sys_role_permission').select('role_id').where('permission_id', 'in', list).execute()).map((r) => String(r.role_id));
      const users = await usersOfRoles(trx, [...new Set(roles)]);
      await trx.deleteFrom('sys_role_permission').where('permission_id', 'in', list).execute();
      await trx.deleteFrom('sys_depart_permission').where('permission_id', 'in', list).execute();
      await trx.deleteFrom('sys_depart_role_permission').where('permission_id', 'in', list).execute();
      await trx.deleteFrom('sys_permission_data_rule').where('permission_id', 'in', list).execute();
      await trx.deleteFrom('sys_permission').where('id', 'in', list).execute();
      await revokeUsersIn(ctx, trx, users, 'permission-change');
    });
    await sessionsRevoked(ctx);
  };
  api.delete('/sys/permission/delete', { config: { auth: 'system:permission:delete' } }, async (req) => {
    await remove(commaList((req.query as Row).id));
    return ok('删除成功!', '删除成功!');
  });
  api.delete('/sys/permission/deleteBatch', { config: { auth: 'system:permission:deleteBatch' } }, async (req) => {
    await remove(commaList((req.query as Row).ids));
    return ok('批量删除成功!', '批量删除成功!');
  });

  // Role ↔ permission.
  api.get('/sys/permission/queryRolePermission', { config: { auth: 'system:role:authorize' } }, async (req) => {
    const rows = await ctx.db.selectFrom('sys_role_permission').select('permission_id').where('role_id', '=', String((req.query as Row).roleId ?? '')).execute();
    return ok(rows.map((r) => String(r.permission_id)));
  });
  api.post('/sys/permission/saveRolePermission', { config: { auth: 'system:role:authorize' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const roleId = String(b.roleId ?? '');
    const wanted = commaList(b.permissionIds);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('sys_role').select('id').where('id', '=', roleId).executeTakeFirst())) throw new BizError('角色不存在');
      if (wanted.length) {
        const known = await trx.selectFrom('sys_permission').select('id').where('id', 'in', wanted).where('del_flag', '=', 0).execute();
        if (known.length !== wanted.length) throw new BizError('部分权限不存在，未保存');
      }
      const have = (await trx.selectFrom('sys_role_permission').select('permission_id').where('role_id', '=', roleId).execute()).map((r) => String(r.permission_id));
      const add = wanted.filter((p) => !have.includes(p));
      const drop = have.filter((p) => !wanted.includes(p));
      if (drop.length) await trx.deleteFrom('sys_role_permission').where('role_id', '=', roleId).where('permission_id', 'in', drop).execute();
      if (add.length)
        await trx
          .insertInto('sys_role_permission')
          .values(add.map((permission_id) => ({ id: newId(), role_id: roleId, permission_id, operate_date: now(), operate_ip: req.ip })))
          .execute();
      if (add.length || drop.length) await revokeUsersIn(ctx, trx, await usersOfRoles(trx, [roleId]), 'role-change');
    });
    await sessionsRevoked(ctx);
    return ok('保存成功！', '保存成功！');
  });

  // Role data rules on one permission.
  api.get('/sys/role/datarule/:permissionId/:roleId', { config: { auth: 'system:role:authorize' } }, async (req) => {
    const { permissionId, roleId } = req.params as { permissionId: string; roleId: string };
    return grantDataRules(ctx, 'sys_role_permission', roleId, permissionId);
  });
  api.post('/sys/role/datarule', { config: { auth: 'system:role:authorize' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    return saveGrantDataRules(ctx, 'sys_role_permission', String(b.roleId ?? ''), String(b.permissionId ?? ''), b.dataRuleIds);
  });

  // Department ↔ permission (upper bound of what the department's roles may be given).
  api.get('/sys/permission/queryDepartPermission', { config: { auth: 'system:depart:authorize' } }, async (req) => {
    const rows = await ctx.db.selectFrom('sys_depart_permission').select('permission_id').where('depart_id', '=', String((req.query as Row).departId ?? '')).execute();
    return ok(rows.map((r) => String(r.permission_id)));
  });
  api.post('/sys/permission/saveDepartPermission', { config: { auth: 'system:depart:authorize' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const departId = String(b.departId ?? '');
    const wanted = commaList(b.permissionIds);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('sys_depart').select('id').where('id', '=', departId).executeTakeFirst())) throw new BizError('部门不存在');
      if (wanted.length && (await trx.selectFrom('sys_permission').select('id').where('id', 'in', wanted).execute()).length !== wanted.length)
        throw new BizError('部分权限不存在，未保存');
      await trx.deleteFrom('sys_depart_permission').where('depart_id', '=', departId).where('permission_id', 'not in', wanted.length ? wanted : ['']).execute();
      await pruneDeptRolePermissions(ctx, trx, departId, wanted);
      if (wanted.length)
        await trx
          .insertInto('sys_depart_permission')
          .values(wanted.map((permission_id) => ({ id: newId(), depart_id: departId, permission_id })))
          .onConflict((oc) => oc.columns(['depart_id', 'permission_id']).doNothing())
          .execute();
    });
    await sessionsRevoked(ctx);
    return ok('保存成功！', '保存成功！');
  });

  // Data rules of a permission.
  const RULE_READ = { config: { auth: ['system:permission:edit', 'system:dataRule:list'] } };
  const RULE_WRITE = { config: { auth: ['system:permission:edit', 'system:dataRule:edit'] } };
  const ruleList = async (q: Row) => {
    let qb = ctx.db.selectFrom('sys_permission_data_rule').selectAll().where('permission_id', '=', String(q.permissionId ?? ''));
    if (typeof q.ruleName === 'string' && q.ruleName) qb = qb.where('rule_name', 'like', `%${q.ruleName.replace(/[\\%_]/g, '\\$&')}%`);
    if (typeof q.ruleColumn === 'string' && q.ruleColumn) qb = qb.where('rule_column', '=', q.ruleColumn);
    if (typeof q.ruleValue === 'string' && q.ruleValue) qb = qb.where('rule_value', '=', q.ruleValue);
    return (await qb.orderBy('rule_name').execute()).map((r) => toWire(ctx.entities.get('sys_permission_data_rule'), r));
  };
  api.get('/sys/permission/getPermRuleListByPermId', RULE_READ, async (req) => ok(await ruleList(req.query as Row)));
  api.get('/sys/permission/queryPermissionRule', RULE_READ, async (req) => ok(await ruleList(req.query as Row)));
  const saveRule = (mode: 'add' | 'edit') => async (req: FastifyRequest) => {
    const b = (req.body ?? {}) as Row;
    const v = pick(b, RULE_FIELDS);
    if (mode === 'add' && !v.rule_name) throw new BizError('规则名称不能为空');
    if (v.rule_conditions && !RULE_CONDITIONS.includes(String(v.rule_conditions))) throw new BizError('条件不正确');
    // A custom SQL rule is never accepted (DESIGN §6: no SQL from clients).
    if (v.rule_conditions === 'USE_SQL_RULES') throw new BizError('不支持自定义SQL规则');
    if (v.rule_column && !/^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(String(v.rule_column))) throw new BizError('字段名只允许字母、数字、下划线');
    if (mode === 'add') {
      const permissionId = String(b.permissionId ?? '');
      if (!(await ctx.db.selectFrom('sys_permission').select('id').where('id', '=', permissionId).executeTakeFirst())) throw new BizError('菜单不存在');
      await ctx.db.insertInto('sys_permission_data_rule').values({ status: '1', ...v, id: newId(), permission_id: permissionId, create_by: req.user!.username, create_time: now() }).execute();
      await ctx.db.updateTable('sys_permission').set({ rule_flag: 1 }).where('id', '=', permissionId).execute();
    } else {
      const r = await ctx.db.updateTable('sys_permission_data_rule').set({ ...v, update_by: req.user!.username, update_time: now() }).where('id', '=', String(b.id ?? '')).executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw new BizError('未找到对应数据');
    }
    return ok(mode === 'add' ? '添加成功！' : '编辑成功!', mode === 'add' ? '添加成功！' : '编辑成功!');
  };
  api.post('/sys/permission/addPermissionRule', RULE_WRITE, saveRule('add'));
  api.put('/sys/permission/editPermissionRule', RULE_WRITE, saveRule('edit'));
  /** Deletes rules, all or none; a menu left without rules loses its rule flag. */
  const removeRules = (ids: string[]) =>
    ctx.db.transaction().execute(async (trx) => {
      if (!ids.length) throw new BizError('请选择要删除的数据');
      if (ids.length > 1000) throw new BizError('一次最多删除1000条数据');
      const gone = await trx.deleteFrom('sys_permission_data_rule').where('id', 'in', ids).returning('permission_id').execute();
      if (gone.length !== ids.length) throw new BizError(ids.length === 1 ? '未找到对应数据' : '部分数据不存在，未删除任何数据');
      for (const permissionId of new Set(gone.map((g) => String(g.permission_id)))) {
        const left = await trx.selectFrom('sys_permission_data_rule').select('id').where('permission_id', '=', permissionId).executeTakeFirst();
        if (!left) await trx.updateTable('sys_permission').set({ rule_flag: 0 }).where('id', '=', permissionId).execute();
      }
    });
  api.delete('/sys/permission/deletePermissionRule', RULE_WRITE, async (req) => {
    await removeRules([String((req.query as Row).id ?? '')].filter(Boolean));
    return ok('删除成功!', '删除成功!');
  });
  api.delete('/sys/permission/deletePermissionRuleBatch', RULE_WRITE, async (req) => {
    await removeRules([...new Set(commaList((req.query as Row).ids))]);
    return ok('批量删除成功!', '批量删除成功!');
  });
}
