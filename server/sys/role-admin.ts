import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok, page } from '../http/envelope.js';
import { hookContext, saveRow, toWire } from '../crud/engine.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { newId } from '../util.js';
import { commaList, revokeUsersIn } from './user-admin.js';
import { usersOfRoles } from './permission-admin.js';
import { sessionsRevoked } from './notify.js';
import { assertRolesGrantable, assertUserInScope, usersInScope } from './user-scope.js';

/** Roles and their users (JeecgBoot SysRoleController and the role-user calls of SysUserController). */
export async function registerRoleAdmin(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  defineEntityHooks(
    'sys_role',
    {
      async beforeSave(_h, row, mode, old) {
        if (mode === 'edit' && old?.roleCode === 'admin' && row.roleCode !== undefined && row.roleCode !== 'admin') throw new BizError('不允许修改管理员角色的编码');
      },
      async beforeDelete(h, rows) {
        if (rows.some((r) => r.roleCode === 'admin')) throw new BizError('不允许删除系统管理员角色');
        const ids = rows.map((r) => String(r.id));
        const users = await usersOfRoles(h.db, ids);
        await h.db.deleteFrom('sys_role_permission').where('role_id', 'in', ids).execute();
        await h.db.deleteFrom('sys_user_role').where('role_id', 'in', ids).execute();
        await revokeUsersIn(h.ctx, h.db, users, 'role-change');
      },
    },
    'role-admin',
  );

  const role = (req: FastifyRequest) => hookContext(ctx, req, 'sys_role');
  api.post('/sys/role/add', { config: { auth: 'system:role:add' } }, async (req) => {
    await saveRow(role(req), (req.body ?? {}) as Row, 'add');
    return ok('添加成功！', '添加成功！');
  });
  const edit = async (req: FastifyRequest) => {
    await saveRow(role(req), (req.body ?? {}) as Row, 'edit');
    return ok('编辑成功!', '编辑成功!');
  };
  api.put('/sys/role/edit', { config: { auth: 'system:role:edit' } }, edit);
  api.post('/sys/role/edit', { config: { auth: 'system:role:edit' } }, edit);

  api.get('/sys/role/queryall', { config: { auth: ['system:role:list', 'system:user:add', 'system:user:edit'] } }, async () => {
    const rows = await ctx.db.selectFrom('sys_role').selectAll().orderBy('create_time').execute();
    return ok(rows.map((r) => toWire(ctx.entities.get('sys_role'), r)));
  });

  api.get('/sys/role/checkRoleCode', { config: { auth: ['system:role:add', 'system:role:edit'] } }, async (req) => {
    const q = req.query as Row;
    let qb = ctx.db.selectFrom('sys_role').select('id').where('role_code', '=', String(q.roleCode ?? ''));
    if (typeof q.id === 'string' && q.id) qb = qb.where('id', '<>', q.id);
    if (await qb.executeTakeFirst()) return { ...ok(false, '角色编码已存在'), success: false, code: 500 };
    return ok(true, '该值可用！');
  });

  // The users of one role.
  const USERS = { config: { auth: 'system:role:users' } };
  api.get('/sys/user/userRoleList', USERS, async (req) => {
    const q = req.query as Row;
    const pageNo = Math.max(1, Number(q.pageNo) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(q.pageSize) || 10));
    // Only users of the caller's user scope.
    let { qb } = await usersInScope(ctx, req);
    qb = qb.where('t.id', 'in', ctx.db.selectFrom('sys_user_role').select('user_id').where('role_id', '=', String(q.roleId ?? '')));
    if (typeof q.username === 'string' && q.username) qb = qb.where('t.username', 'like', `%${q.username.replace(/[\\%_]/g, '\\$&')}%`);
    const total = Number((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await qb.selectAll('t').orderBy('t.username').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(rows.map((r) => toWire(ctx.entities.get('sys_user'), r)), total, pageNo, pageSize));
  });
  api.post('/sys/user/addSysUserRole', USERS, async (req) => {
    const b = (req.body ?? {}) as Row;
    const roleId = String(b.roleId ?? '');
    const userIds = commaList(b.userIdList);
    if (!userIds.length) throw new BizError('请选择用户');
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await trx.selectFrom('sys_role').select('id').where('id', '=', roleId).executeTakeFirst())) throw new BizError('角色不存在');
      const known = await trx.selectFrom('sys_user').select('id').where('id', 'in', userIds).where('del_flag', '=', 0).execute();
      if (known.length !== userIds.length) throw new BizError('部分用户不存在，未做任何修改');
      await assertUserInScope(ctx, req, userIds, { db: trx, write: true, notSelf: '不能修改自己的角色' });
      await assertRolesGrantable(ctx, req, [roleId], trx);
      await trx
        .insertInto('sys_user_role')
        .values(userIds.map((user_id) => ({ id: newId(), user_id, role_id: roleId })))
        .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
        .execute();
      await revokeUsersIn(ctx, trx, userIds, 'role-change');
    });
    await sessionsRevoked(ctx);
    return ok('添加成功！', '添加成功！');
  });
  const removeUsers = async (req: FastifyRequest, roleId: string, userIds: string[]) => {
    if (!userIds.length) throw new BizError('请选择用户');
    await ctx.db.transaction().execute(async (trx) => {
      await assertUserInScope(ctx, req, userIds, { db: trx, write: true, notSelf: '不能修改自己的角色' });
      await assertRolesGrantable(ctx, req, [roleId], trx);
      await trx.deleteFrom('sys_user_role').where('role_id', '=', roleId).where('user_id', 'in', userIds).execute();
      await revokeUsersIn(ctx, trx, userIds, 'role-change');
    });
    await sessionsRevoked(ctx);
  };
  api.delete('/sys/user/deleteUserRole', USERS, async (req) => {
    const q = req.query as Row;
    await removeUsers(req, String(q.roleId ?? ''), commaList(q.userId));
    return ok('删除成功!', '删除成功!');
  });
  api.delete('/sys/user/deleteUserRoleBatch', USERS, async (req) => {
    const q = req.query as Row;
    await removeUsers(req, String(q.roleId ?? ''), commaList(q.userIds));
    return ok('删除成功!', '删除成功!');
  });
}
