import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, ok, page } from '../http/envelope.js';
import { deleteRows, getRow, hookContext, saveRow, toWire } from '../crud/engine.js';
import { defineEntityHooks, type HookContext, type Row } from '../crud/hooks.js';
import { checkPassword } from '../../shared/password-policy.js';
import { hashPassword } from '../auth/password.js';
import { revokeSessions } from '../auth/session.js';
import { sessionsRevoked } from './notify.js';
import { newId, now } from '../util.js';
import { assertDepartsGrantable, assertRolesGrantable, assertUserInScope, usersInScope } from './user-scope.js';

/** Comma lists from JeecgBoot bodies ("a,b," allowed), trimmed, without empties or duplicates. */
export const commaList = (v: unknown): string[] =>
  [...new Set((Array.isArray(v) ? v.map(String) : String(v ?? '').split(',')).map((s) => s.trim()).filter(Boolean))].slice(0, 1000);

/** Escapes LIKE wildcards of user input. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/**
 * Revokes every live session of these users inside the caller's transaction (their next request
 * gets 401). Call `sessionsRevoked(ctx)` after the commit so open websockets close at once too.
 */
export async function revokeUsersIn(ctx: ServerContext, db: HookContext['db'], userIds: string[], reason: string) {
  for (const id of new Set(userIds)) await revokeSessions({ ...ctx, db }, { userId: id }, reason);
}

/** Picker-safe user fields (no phone, e-mail or password). */
const PICK = ['id', 'username', 'realname', 'avatar', 'sex', 'work_no', 'org_code', 'post', 'title', 'listener_category', 'status'] as const;
const pickRow = (r: Record<string, unknown>) => ({
  id: r.id, username: r.username, realname: r.realname, avatar: r.avatar ?? '', sex: r.sex, workNo: r.work_no, orgCode: r.org_code,
  post: r.post, title: r.title, listenerCategory: r.listener_category, status: r.status,
});

async function setUserRoles(h: HookContext, userId: string, roleIds: string[]): Promise<boolean> {
  const have = (await h.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', userId).execute()).map((r) => String(r.role_id));
  if (roleIds.length) {
    const known = await h.db.selectFrom('sys_role').select('id').where('id', 'in', roleIds).execute();
    if (known.length !== roleIds.length) throw new BizError('所选角色不存在');
  }
  const add = roleIds.filter((r) => !have.includes(r));
  const drop = have.filter((r) => !roleIds.includes(r));
  if ((add.length || drop.length) && userId === h.user.id) throw new BizError('不能修改自己的角色');
  // No escalation: a role carrying administrative codes the caller lacks can be neither given nor taken away by them.
  if (add.length || drop.length) {
    const codes = await h.db
      .selectFrom('sys_role_permission as rp')
      .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
      .innerJoin('sys_role as r', 'r.id', 'rp.role_id')
      .select(['r.role_name', 'p.perms'])
      .where('rp.role_id', 'in', [...add, ...drop])
      .where('p.perms', 'is not', null)
      .execute();
    const admin = (c: string) => /^(system|monitor|online):/.test(c);
    const over = codes.find((r) => String(r.perms).split(',').some((c) => admin(c.trim()) && !h.user.perms.has(c.trim())));
    if (over) throw new BizError(`无权分配或移除角色“${over.role_name}”：该角色含有您没有的管理权限`);
  }
  await assertRolesGrantable(h.ctx, h.req, [...add, ...drop], h.db);
  if (drop.length) await h.db.deleteFrom('sys_user_role').where('user_id', '=', userId).where('role_id', 'in', drop).execute();
  if (add.length) await h.db.insertInto('sys_user_role').values(add.map((role_id) => ({ id: newId(), user_id: userId, role_id }))).execute();
  return add.length + drop.length > 0;
}

async function setUserDeparts(h: HookContext, userId: string, departIds: string[]) {
  const departs = departIds.length
    ? await h.db.selectFrom('sys_depart').select(['id', 'org_code']).where('id', 'in', departIds).where('del_flag', '=', '0').execute()
    : [];
  if (departs.length !== departIds.length) throw new BizError('所选部门不存在');
  const have = (await h.db.selectFrom('sys_user_depart').select('dep_id').where('user_id', '=', userId).execute()).map((r) => String(r.dep_id));
  const changed = [...departIds.filter((d) => !have.includes(d)), ...have.filter((d) => !departIds.includes(d))];
  if (!changed.length) return;
  if (userId === h.user.id) throw new BizError('不能修改自己的所属部门');
  await assertDepartsGrantable(h.ctx, h.req, changed, h.db);
  await h.db.deleteFrom('sys_user_depart').where('user_id', '=', userId).execute();
  if (departIds.length) await h.db.insertInto('sys_user_depart').values(departIds.map((dep_id) => ({ id: newId(), user_id: userId, dep_id }))).execute();
  // The current department stays when still a member, else the first selected one.
  const u = await h.db.selectFrom('sys_user').select('org_code').where('id', '=', userId).executeTakeFirst();
  const codes = departIds.map((id) => String(departs.find((d) => d.id === id)!.org_code));
  if (!codes.includes(String(u?.org_code ?? ''))) await h.db.updateTable('sys_user').set({ org_code: codes[0] ?? null }).where('id', '=', userId).execute();
}

/** Users of the system-administration screens (JeecgBoot SysUserController). */
export async function registerUserAdmin(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  defineEntityHooks(
    'sys_user',
    {
      // /sys/user/list (and export) ?departId=…&code=a,b (department ids): members of those departments.
      listScope(h, qb) {
        const q = (h.req.query ?? {}) as Record<string, unknown>;
        const deps = [...commaList(q.departId), ...commaList(q.code)];
        if (!deps.length) return qb;
        return qb.where('t.id', 'in', h.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', 'in', deps));
      },
      async decorateRows(h, rows) {
        if (!rows.length) return rows;
        const ids = rows.map((r) => String(r.id));
        const deps = await h.db
          .selectFrom('sys_user_depart as ud')
          .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
          .select(['ud.user_id', 'd.depart_name'])
          .where('ud.user_id', 'in', ids)
          .orderBy('d.org_code')
          .execute();
        return rows.map((r) => ({ ...r, orgCodeTxt: deps.filter((d) => d.user_id === r.id).map((d) => d.depart_name).join(',') }));
      },
      async beforeSave(h, row, mode, old, input) {
        // Tenant membership is never written through user add/edit/import.
        delete row.relTenantIds;
        delete row.loginTenantId;
        if (mode === 'edit') {
          if (old!.id === h.user.id && row.status !== undefined && Number(row.status) !== Number(old!.status)) throw new BizError('不能修改自己的账号状态');
          await assertUserInScope(h.ctx, h.req, [String(old!.id)], { db: h.db, write: true });
        }
        if (mode === 'edit' && old?.username === 'admin' && row.username !== undefined && row.username !== 'admin') throw new BizError('不允许修改管理员账号');
        if (mode === 'add') {
          const problem = checkPassword(input.password as string | undefined, String(row.username ?? ''));
          if (problem) throw new BizError(problem);
          if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) throw new BizError('两次输入的密码不一样！');
        }
      },
      async afterSave(h, row, mode, input) {
        const id = String(row.id);
        if (mode === 'add') await h.db.updateTable('sys_user').set({ password: await hashPassword(String(input.password)), del_flag: 0 }).where('id', '=', id).execute();
        let rolesChanged = false;
        if (input.selectedroles !== undefined) rolesChanged = await setUserRoles(h, id, commaList(input.selectedroles));
        if (input.selecteddeparts !== undefined) await setUserDeparts(h, id, commaList(input.selecteddeparts));
        const frozen = mode === 'edit' && row.status !== undefined && Number(row.status) !== 1;
        if (mode === 'edit' && (rolesChanged || frozen)) await revokeUsersIn(h.ctx, h.db, [id], rolesChanged ? 'role-change' : 'frozen');
      },
      async beforeDelete(h, rows) {
        if (rows.some((r) => r.id === h.user.id)) throw new BizError('不能删除当前登录用户');
        if (rows.some((r) => r.username === 'admin')) throw new BizError('不允许删除管理员账号');
        const ids = rows.map((r) => String(r.id));
        await assertUserInScope(h.ctx, h.req, ids, { db: h.db, write: true });
        // The recycle bin shows when and by whom a user was deleted.
        await h.db.updateTable('sys_user').set({ update_time: now(), update_by: h.user.username }).where('id', 'in', ids).execute();
        await revokeUsersIn(h.ctx, h.db, ids, 'deleted');
      },
    },
    'user-admin',
  );

  const user = (req: FastifyRequest) => hookContext(ctx, req, 'sys_user');

  api.post('/sys/user/add', { config: { auth: 'system:user:add' } }, async (req) => {
    await saveRow(user(req), (req.body ?? {}) as Row, 'add');
    return ok('添加成功！', '添加成功！');
  });
  const edit = async (req: FastifyRequest) => {
    await saveRow(user(req), (req.body ?? {}) as Row, 'edit');
    await sessionsRevoked(ctx);
    return ok('编辑成功!', '编辑成功!');
  };
  api.put('/sys/user/edit', { config: { auth: 'system:user:edit' } }, edit);
  api.post('/sys/user/edit', { config: { auth: 'system:user:edit' } }, edit);

  api.delete('/sys/user/delete', { config: { auth: 'system:user:delete' } }, async (req) => {
    const id = String((req.query as Row).id ?? '');
    if (!id) throw new BizError('请选择一条记录！');
    await deleteRows(user(req), [id]);
    await sessionsRevoked(ctx);
    return ok('删除用户成功', '删除用户成功');
  });
  api.delete('/sys/user/deleteBatch', { config: { auth: 'system:user:deleteBatch' } }, async (req) => {
    const n = await deleteRows(user(req), commaList((req.query as Row).ids));
    await sessionsRevoked(ctx);
    return ok('批量删除用户成功', `批量删除用户成功！共${n}条`);
  });

  api.put('/sys/user/frozenBatch', { config: { auth: 'system:user:frozen' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const ids = commaList(b.ids);
    const status = Number(b.status);
    if (!ids.length) throw new BizError('请选择用户');
    if (status !== 1 && status !== 2) throw new BizError('状态只能是 1（正常）或 2（冻结）');
    const h = user(req);
    await h.db.transaction().execute(async (trx) => {
      const th = { ...h, db: trx };
      if (ids.includes(h.user.id)) throw new BizError(status === 2 ? '不能冻结当前登录用户' : '不能修改自己的账号状态');
      // Every id must be in the caller's user scope, else nothing changes.
      for (const id of ids) if (!(await getRow(th, id, trx))) throw new BizError('部分用户不存在或无权操作，未做任何修改');
      await assertUserInScope(ctx, req, ids, { db: trx, write: true });
      if (status === 2) {
        const admin = await trx.selectFrom('sys_user').select('id').where('id', 'in', ids).where('username', '=', 'admin').executeTakeFirst();
        if (admin) throw new BizError('管理员账号不允许冻结');
      }
      await trx.updateTable('sys_user').set({ status, update_by: h.user.username, update_time: now() }).where('id', 'in', ids).execute();
      if (status === 2) await revokeUsersIn(ctx, trx, ids, 'frozen');
    });
    await sessionsRevoked(ctx);
    return ok(status === 2 ? '冻结成功!' : '解冻成功!', status === 2 ? '冻结成功!' : '解冻成功!');
  });

  // Deliberately not public (CVE-2021-37306: user enumeration): only user editors check uniqueness.
  api.get('/sys/user/checkOnlyUser', { config: { auth: ['system:user:add', 'system:user:edit'] } }, async (req) => {
    const q = req.query as Row;
    const fields: Array<[string, string]> = [['username', 'username'], ['phone', 'phone'], ['email', 'email'], ['workNo', 'work_no']];
    const hit = fields.find(([k]) => typeof q[k] === 'string' && q[k] !== '');
    if (!hit) throw new BizError('请指定要校验的字段');
    let qb = ctx.db.selectFrom('sys_user').select('id').where(hit[1], '=', String(q[hit[0]]));
    if (typeof q.id === 'string' && q.id) qb = qb.where('id', '<>', q.id);
    if (await qb.executeTakeFirst()) return { ...ok(false, '该值不可用，系统中已存在！'), success: false, code: 500 };
    return ok(true, '该值可用！');
  });

  api.get('/sys/user/queryUserRole', { config: { auth: ['system:user:queryById', 'system:user:edit'] } }, async (req) => {
    const id = String((req.query as Row).userid ?? (req.query as Row).userId ?? '');
    await assertUserInScope(ctx, req, [id]);
    const rows = await ctx.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', id).execute();
    return ok(rows.map((r) => String(r.role_id)));
  });

  api.get('/sys/user/userDepartList', { config: { auth: ['system:user:queryById', 'system:user:edit'] } }, async (req) => {
    const id = String((req.query as Row).userId ?? '');
    await assertUserInScope(ctx, req, [id]);
    const rows = await ctx.db
      .selectFrom('sys_user_depart as ud')
      .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
      .select(['d.id', 'd.depart_name', 'd.org_code'])
      .where('ud.user_id', '=', id)
      .orderBy('d.org_code')
      .execute();
    return ok(rows.map((r) => ({ key: r.id, value: r.id, title: r.depart_name, orgCode: r.org_code })));
  });

  // Pickers (any signed-in user): picker-safe fields only.
  api.get('/sys/user/queryUserByDepId', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const id = String(q.id ?? '');
    let qb = ctx.db
      .selectFrom('sys_user as u')
      .select(PICK.map((c) => `u.${c}` as const))
      .where('u.del_flag', '=', 0)
      .where('u.id', 'in', ctx.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', id));
    if (typeof q.realname === 'string' && q.realname) qb = qb.where('u.realname', 'like', `%${likeEscape(q.realname)}%`);
    return ok((await qb.orderBy('u.work_no').limit(2000).execute()).map(pickRow));
  });

  // By usernames (`username=a,b`) or ids (`id=…`): what a picker needs to name the users it holds.
  api.get('/sys/user/getMultiUser', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const [col, keys] = q.id !== undefined ? (['id', commaList(q.id)] as const) : (['username', commaList(q.username)] as const);
    if (!keys.length) return ok([]);
    const rows = await ctx.db.selectFrom('sys_user').select(PICK.map((c) => c)).where(col, 'in', keys.slice(0, 500)).where('del_flag', '=', 0).execute();
    return ok(rows.map(pickRow));
  });

  api.get('/sys/user/queryUserComponentDataWithRole', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const pageNo = Math.max(1, Number(q.pageNo) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(q.pageSize) || 10));
    let qb = ctx.db.selectFrom('sys_user as u').where('u.del_flag', '=', 0).where('u.status', '=', 1);
    if (typeof q.username === 'string' && q.username) qb = qb.where('u.username', 'like', `%${likeEscape(q.username)}%`);
    if (typeof q.realname === 'string' && q.realname) qb = qb.where('u.realname', 'like', `%${likeEscape(q.realname)}%`);
    // One search box (JSearchUser): name, account or 工号, or the id of the user a form already holds.
    if (typeof q.keyword === 'string' && q.keyword.trim()) {
      const kw = q.keyword.trim();
      const like = `%${likeEscape(kw)}%`;
      qb = qb.where((eb) => eb.or([eb('u.realname', 'like', like), eb('u.username', 'like', like), eb('u.work_no', 'like', like), eb('u.id', '=', kw)]));
    }
    const deps = commaList(q.departId);
    if (deps.length) qb = qb.where('u.id', 'in', ctx.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', 'in', deps));
    const roles = commaList(q.roleId);
    if (roles.length) qb = qb.where('u.id', 'in', ctx.db.selectFrom('sys_user_role').select('user_id').where('role_id', 'in', roles));
    // The user-by-department picker filters by role code (教师 = teacher, …).
    const roleCodes = commaList(q.roleCode);
    if (roleCodes.length)
      qb = qb.where('u.id', 'in', ctx.db.selectFrom('sys_user_role as ur').innerJoin('sys_role as r', 'r.id', 'ur.role_id').select('ur.user_id').where('r.role_code', 'in', roleCodes));
    const sex = Number(q.sex);
    if (sex === 1 || sex === 2) qb = qb.where('u.sex', '=', sex);
    if (typeof q.birthday === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(q.birthday)) qb = qb.where('u.birthday', '=', q.birthday);
    const total = Number((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    // Sort only by allow-listed columns.
    const sortable: Record<string, string> = { createTime: 'u.create_time', username: 'u.username', realname: 'u.realname', workNo: 'u.work_no' };
    const col = sortable[String(q.column ?? 'createTime')] ?? 'u.create_time';
    const dir = q.order === 'asc' ? 'asc' : 'desc';
    const rows = await qb.select(PICK.map((c) => `u.${c}` as const)).orderBy(sql.ref(col), dir).orderBy('u.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(rows.map(pickRow), total, pageNo, pageSize));
  });

  /** The ids that are in the recycle bin (others are ignored by the bin's actions). */
  const inBin = async (ids: string[]) => (await ctx.db.selectFrom('sys_user').select('id').where('id', 'in', ids).where('del_flag', '=', 1).execute()).map((r) => String(r.id));
  // Recycle bin: logically deleted users.
  // Without pageNo: the whole bin as an array (JeecgBoot); with pageNo: a page, searchable by username/realname.
  api.get('/sys/user/recycleBin', { config: { auth: 'system:user:recycleBin' } }, async (req) => {
    const q = (req.query ?? {}) as Row;
    // The caller's user scope: a department administrator sees only their department's deleted users.
    let { qb } = await usersInScope(ctx, req, ctx.db, { deleted: true });
    for (const f of ['username', 'realname'] as const) {
      const v = typeof q[f] === 'string' ? String(q[f]).replace(/^\*|\*$/g, '') : '';
      if (v) qb = qb.where(`t.${f}`, 'like', `%${likeEscape(v)}%`);
    }
    const wire = (rows: Row[]) => rows.map((r) => { const w = toWire(ctx.entities.get('sys_user'), r); delete w.password; return w; });
    if (q.pageNo === undefined) return ok(wire(await qb.selectAll('t').orderBy('t.update_time', 'desc').limit(1000).execute()));
    const pageNo = Math.max(1, Number(q.pageNo) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(q.pageSize) || 10));
    const total = Number((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await qb.selectAll('t').orderBy('t.update_time', 'desc').orderBy('t.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(wire(rows), total, pageNo, pageSize));
  });
  api.put('/sys/user/putRecycleBin', { config: { auth: 'system:user:recycleBin' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const ids = commaList(b.userIds ?? b.ids);
    if (!ids.length) throw new BizError('请选择用户');
    await assertUserInScope(ctx, req, await inBin(ids), { deleted: true, write: true });
    await ctx.db.updateTable('sys_user').set({ del_flag: 0, update_time: now(), update_by: req.user!.username }).where('id', 'in', ids).where('del_flag', '=', 1).execute();
    return ok('还原成功', '还原成功');
  });
  api.delete('/sys/user/deleteRecycleBin', { config: { auth: 'system:user:recycleBin' } }, async (req) => {
    const q = req.query as Row;
    const ids = commaList(q.userIds ?? q.ids);
    if (!ids.length) throw new BizError('请选择用户');
    await assertUserInScope(ctx, req, await inBin(ids), { deleted: true, write: true });
    await ctx.db.transaction().execute(async (trx) => {
      const gone = (await trx.selectFrom('sys_user').select('id').where('id', 'in', ids).where('del_flag', '=', 1).execute()).map((r) => String(r.id));
      if (!gone.length) return;
      await trx.deleteFrom('sys_user_role').where('user_id', 'in', gone).execute();
      await trx.deleteFrom('sys_user_depart').where('user_id', 'in', gone).execute();
      await trx.deleteFrom('sys_session').where('user_id', 'in', gone).execute();
      await trx.deleteFrom('sys_user').where('id', 'in', gone).execute();
    });
    return ok('彻底删除成功', '彻底删除成功');
  });
}
