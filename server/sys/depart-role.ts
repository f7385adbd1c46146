import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, ok, page } from '../http/envelope.js';
import { deleteRows, getRow, hookContext, listRows, saveRow, toWire } from '../crud/engine.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { newId, now } from '../util.js';
import { commaList, revokeUsersIn } from './user-admin.js';
import { authTree, grantDataRules, saveGrantDataRules } from './permission-admin.js';
import { sessionsRevoked } from './notify.js';
import { assertDepartsGrantable, assertUserInScope } from './user-scope.js';

/** Every department-role route: the department screen's 部门设置 code (admin has it). */
const AUTH = { config: { auth: 'system:depart:authorize' } };

/** Users holding any of these department roles. */
export async function usersOfDeptRoles(db: DB, roleIds: string[]): Promise<string[]> {
  if (!roleIds.length) return [];
  return (await db.selectFrom('sys_depart_role_user').select('user_id').where('drole_id', 'in', roleIds).execute()).map((r) => String(r.user_id));
}

/**
 * A department's permissions shrank to `keep`: its roles lose what is outside, their holders are
 * signed out (inside the caller's transaction; call `sessionsRevoked` after the commit).
 */
export async function pruneDeptRolePermissions(ctx: ServerContext, trx: DB, departId: string, keep: string[]): Promise<void> {
  let q = trx.deleteFrom('sys_depart_role_permission').where('depart_id', '=', departId);
  if (keep.length) q = q.where('permission_id', 'not in', keep);
  const gone = await q.returning('role_id').execute();
  if (gone.length) await revokeUsersIn(ctx, trx, await usersOfDeptRoles(trx, [...new Set(gone.map((r) => String(r.role_id)))]), 'role-change');
}

/** A department's users lose their roles of that department (they left it). */
export async function dropDeptRoleUsers(trx: DB, departId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await trx
    .deleteFrom('sys_depart_role_user')
    .where('user_id', 'in', userIds)
    .where('drole_id', 'in', trx.selectFrom('sys_depart_role').select('id').where('depart_id', '=', departId))
    .execute();
}

/** Removes every department role of these departments (the departments are being deleted). */
export async function dropDeptRolesOf(trx: DB, departIds: string[]): Promise<void> {
  if (!departIds.length) return;
  const roles = trx.selectFrom('sys_depart_role').select('id').where('depart_id', 'in', departIds);
  await trx.deleteFrom('sys_depart_role_user').where('drole_id', 'in', roles).execute();
  await trx.deleteFrom('sys_depart_role_permission').where('depart_id', 'in', departIds).execute();
  await trx.deleteFrom('sys_depart_role').where('depart_id', 'in', departIds).execute();
}

const departExists = async (db: DB, id: string) => !!(await db.selectFrom('sys_depart').select('id').where('id', '=', id).where('del_flag', '=', '0').executeTakeFirst());

/** Department roles (JeecgBoot SysDepartRoleController, SysDepartPermissionController's department-role calls). */
export async function registerDepartRole(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  defineEntityHooks(
    'sys_depart_role',
    {
      async beforeSave(h, row, mode, old) {
        const departId = mode === 'add' ? String(row.departId ?? '') : String(old?.departId ?? '');
        if (mode === 'edit' && row.departId !== undefined && String(row.departId) !== departId) throw new BizError('不支持修改部门角色所属的部门');
        if (mode === 'add' && !(await departExists(h.db, departId))) throw new BizError('部门不存在');
        if (row.roleCode !== undefined) {
          let q = h.db.selectFrom('sys_depart_role').select('id').where('depart_id', '=', departId).where('role_code', '=', String(row.roleCode));
          if (old) q = q.where('id', '<>', String(old.id));
          if (await q.executeTakeFirst()) throw new BizError(`部门角色编码“${String(row.roleCode)}”在本部门已存在，不能重复`);
        }
      },
      async beforeDelete(h, rows) {
        const ids = rows.map((r) => String(r.id));
        const users = await usersOfDeptRoles(h.db, ids);
        await h.db.deleteFrom('sys_depart_role_permission').where('role_id', 'in', ids).execute();
        await h.db.deleteFrom('sys_depart_role_user').where('drole_id', 'in', ids).execute();
        await revokeUsersIn(h.ctx, h.db, users, 'role-change');
      },
    },
    'depart-role',
  );
  const h = (req: FastifyRequest) => hookContext(ctx, req, 'sys_depart_role');
  const roleOf = async (db: DB, id: string) => {
    const r = await db.selectFrom('sys_depart_role').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw new BizError('部门角色不存在');
    return r;
  };

  // The roles of one department (not of its sub-departments), searchable by roleName (`*v*`).
  api.get('/sys/sysDepartRole/list', AUTH, async (req) => {
    const q = req.query as Row;
    const deptId = typeof q.deptId === 'string' ? q.deptId : '';
    if (!deptId) return ok(page([], 0, 1, Number(q.pageSize) || 10));
    return ok(await listRows(h(req), { ...q, departId: deptId } as Parameters<typeof listRows>[1]));
  });
  api.get('/sys/sysDepartRole/queryById', AUTH, async (req) => {
    const r = await getRow(h(req), (req.query as Row).id);
    if (!r) throw new BizError('未找到对应数据');
    return ok(r);
  });
  api.post('/sys/sysDepartRole/add', AUTH, async (req) => {
    await saveRow(h(req), (req.body ?? {}) as Row, 'add');
    return ok('添加成功！', '添加成功！');
  });
  const edit = async (req: FastifyRequest) => {
    await saveRow(h(req), (req.body ?? {}) as Row, 'edit');
    return ok('编辑成功!', '编辑成功!');
  };
  api.put('/sys/sysDepartRole/edit', AUTH, edit);
  api.post('/sys/sysDepartRole/edit', AUTH, edit);
  api.delete('/sys/sysDepartRole/delete', AUTH, async (req) => {
    await deleteRows(h(req), commaList((req.query as Row).id));
    await sessionsRevoked(ctx);
    return ok('删除成功!', '删除成功!');
  });
  api.delete('/sys/sysDepartRole/deleteBatch', AUTH, async (req) => {
    await deleteRows(h(req), commaList((req.query as Row).ids));
    await sessionsRevoked(ctx);
    return ok('批量删除成功!', '批量删除成功!');
  });

  // 分配部门角色: the roles of a department, the ones a user holds, and replacing them.
  api.get('/sys/sysDepartRole/getDeptRoleList', AUTH, async (req) => {
    const departId = String((req.query as Row).departId ?? '');
    const rows = await ctx.db.selectFrom('sys_depart_role').selectAll().where('depart_id', '=', departId).orderBy('create_time').orderBy('id').execute();
    return ok(rows.map((r) => toWire(ctx.entities.get('sys_depart_role'), r)));
  });
  api.get('/sys/sysDepartRole/getDeptRoleByUserId', AUTH, async (req) => {
    const q = req.query as Row;
    await assertUserInScope(ctx, req, [String(q.userId ?? '')]);
    const rows = await ctx.db
      .selectFrom('sys_depart_role_user as ru')
      .innerJoin('sys_depart_role as r', 'r.id', 'ru.drole_id')
      .select(['ru.id', 'ru.user_id', 'ru.drole_id'])
      .where('ru.user_id', '=', String(q.userId ?? ''))
      .where('r.depart_id', '=', String(q.departId ?? ''))
      .execute();
    return ok(rows.map((r) => ({ id: r.id, userId: r.user_id, droleId: r.drole_id })));
  });
  api.post('/sys/sysDepartRole/deptRoleUserAdd', AUTH, async (req) => {
    const b = (req.body ?? {}) as Row;
    const userId = String(b.userId ?? '');
    const wanted = commaList(b.newRoleId);
    await ctx.db.transaction().execute(async (trx) => {
      // The department comes from the roles (or, to clear them all, from departId / the old roles).
      const named = [...wanted, ...commaList(b.oldRoleId)];
      const roles = named.length ? await trx.selectFrom('sys_depart_role').select(['id', 'depart_id']).where('id', 'in', named).execute() : [];
      const newRoles = roles.filter((r) => wanted.includes(String(r.id)));
      if (newRoles.length !== wanted.length) throw new BizError('部分部门角色不存在，未做任何修改');
      const departs = new Set(newRoles.map((r) => String(r.depart_id)));
      if (departs.size > 1) throw new BizError('一次只能分配同一部门的部门角色');
      const departId = [...departs][0] ?? (typeof b.departId === 'string' && b.departId ? b.departId : String(roles[0]?.depart_id ?? ''));
      if (!departId || !(await departExists(trx, departId))) throw new BizError('部门不存在');
      await assertUserInScope(ctx, req, [userId], { db: trx, write: true, notSelf: '不能修改自己的部门角色' });
      await assertDepartsGrantable(ctx, req, [departId], trx);
      const member = await trx.selectFrom('sys_user_depart as ud').innerJoin('sys_user as u', 'u.id', 'ud.user_id').select('u.id').where('ud.user_id', '=', userId).where('ud.dep_id', '=', departId).where('u.del_flag', '=', 0).executeTakeFirst();
      if (!member) throw new BizError('该用户不属于此部门，不能分配此部门的角色');
      const have = (
        await trx
          .selectFrom('sys_depart_role_user')
          .select('drole_id')
          .where('user_id', '=', userId)
          .where('drole_id', 'in', trx.selectFrom('sys_depart_role').select('id').where('depart_id', '=', departId))
          .execute()
      ).map((r) => String(r.drole_id));
      const add = wanted.filter((r) => !have.includes(r));
      const drop = have.filter((r) => !wanted.includes(r));
      if (drop.length) await trx.deleteFrom('sys_depart_role_user').where('user_id', '=', userId).where('drole_id', 'in', drop).execute();
      if (add.length) await trx.insertInto('sys_depart_role_user').values(add.map((drole_id) => ({ id: newId(), user_id: userId, drole_id }))).execute();
      if (add.length || drop.length) await revokeUsersIn(ctx, trx, [userId], 'role-change');
    });
    await sessionsRevoked(ctx);
    return ok('添加成功!', '添加成功!');
  });

  // The authorisation tree of a department role: the menu tree limited to the department's permissions.
  api.get('/sys/sysDepartPermission/queryTreeListForDeptRole', AUTH, async (req) => {
    const departId = String((req.query as Row).departId ?? '');
    const mine = new Set((await ctx.db.selectFrom('sys_depart_permission').select('permission_id').where('depart_id', '=', departId).execute()).map((r) => String(r.permission_id)));
    return ok(await authTree(ctx, mine));
  });
  api.get('/sys/sysDepartPermission/queryDeptRolePermission', AUTH, async (req) => {
    const rows = await ctx.db.selectFrom('sys_depart_role_permission').select('permission_id').where('role_id', '=', String((req.query as Row).roleId ?? '')).execute();
    return ok(rows.map((r) => String(r.permission_id)));
  });
  api.post('/sys/sysDepartPermission/saveDeptRolePermission', AUTH, async (req) => {
    const b = (req.body ?? {}) as Row;
    const roleId = String(b.roleId ?? '');
    const wanted = commaList(b.permissionIds);
    await ctx.db.transaction().execute(async (trx) => {
      // The department is the role's, never the body's.
      const departId = String((await roleOf(trx, roleId)).depart_id);
      if (wanted.length) {
        const capped = await trx.selectFrom('sys_depart_permission').select('permission_id').where('depart_id', '=', departId).where('permission_id', 'in', wanted).execute();
        if (capped.length !== wanted.length) throw new BizError('部分权限不在本部门的部门权限范围内，未保存；请先在“部门权限”中授予本部门');
      }
      const have = (await trx.selectFrom('sys_depart_role_permission').select('permission_id').where('role_id', '=', roleId).execute()).map((r) => String(r.permission_id));
      const add = wanted.filter((p) => !have.includes(p));
      const drop = have.filter((p) => !wanted.includes(p));
      if (drop.length) await trx.deleteFrom('sys_depart_role_permission').where('role_id', '=', roleId).where('permission_id', 'in', drop).execute();
      if (add.length)
        await trx
          .insertInto('sys_depart_role_permission')
          .values(add.map((permission_id) => ({ id: newId(), depart_id: departId, role_id: roleId, permission_id, operate_date: now(), operate_ip: req.ip })))
          .execute();
      if (add.length || drop.length) await revokeUsersIn(ctx, trx, await usersOfDeptRoles(trx, [roleId]), 'role-change');
    });
    await sessionsRevoked(ctx);
    return ok('保存成功！', '保存成功！');
  });

  // Data rules on a department role's grant of one menu (as for roles: they narrow its users' rows).
  api.get('/sys/sysDepartPermission/datarule/:permissionId/:departId/:roleId', AUTH, async (req) => {
    const { permissionId, departId, roleId } = req.params as { permissionId: string; departId: string; roleId: string };
    if (String((await roleOf(ctx.db, roleId)).depart_id) !== departId) throw new BizError('该部门角色不属于此部门');
    return grantDataRules(ctx, 'sys_depart_role_permission', roleId, permissionId);
  });
  api.post('/sys/sysDepartPermission/datarule', AUTH, async (req) => {
    const b = (req.body ?? {}) as Row;
    const roleId = String(b.roleId ?? '');
    await roleOf(ctx.db, roleId); // an unknown role is refused
    return saveGrantDataRules(ctx, 'sys_depart_role_permission', roleId, String(b.permissionId ?? ''), b.dataRuleIds);
  });
}
