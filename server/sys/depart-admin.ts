import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, ok, page } from '../http/envelope.js';
import { toWire, validateInput } from '../crud/engine.js';
import { newId, now } from '../util.js';
import { commaList, likeEscape } from './user-admin.js';
import { dropDeptRoleUsers, dropDeptRolesOf } from './depart-role.js';
import { assertDepartsGrantable, assertUserInScope, usersInScope } from './user-scope.js';

type Row = Record<string, unknown>;
interface DepartNode extends Row {
  key: string;
  value: string;
  title: string;
  isLeaf: boolean;
  children: DepartNode[] | null;
}

/** The next hierarchical code under a parent: A01…A99, B01… (JeecgBoot YouBianCodeUtil). */
export function nextOrgCode(parentCode: string, siblingCodes: string[]): string {
  let max = 0;
  for (const c of siblingCodes) {
    const m = /([A-Z])(\d{2})$/.exec(c.slice(parentCode.length));
    if (m && c.length === parentCode.length + 3) max = Math.max(max, (m[1]!.charCodeAt(0) - 65) * 99 + Number(m[2]));
  }
  const n = max + 1;
  if (n > 26 * 99) throw new BizError('该部门下的子部门数量已达上限');
  return `${parentCode}${String.fromCharCode(65 + Math.floor((n - 1) / 99))}${String(((n - 1) % 99) + 1).padStart(2, '0')}`;
}

async function departRows(ctx: ServerContext, db: DB = ctx.db): Promise<Row[]> {
  const rows = await db.selectFrom('sys_depart').selectAll().where('del_flag', '=', '0').orderBy('depart_order').orderBy('org_code').execute();
  return rows.map((r) => toWire(ctx.entities.get('sys_depart'), r));
}

function buildTree(rows: Row[], rootFilter?: (r: Row) => boolean): DepartNode[] {
  const nodes = new Map<string, DepartNode>(
    rows.map((r) => [String(r.id), { ...r, key: String(r.id), value: String(r.id), title: String(r.departName), isLeaf: true, children: null }]),
  );
  const roots: DepartNode[] = [];
  for (const r of rows) {
    const n = nodes.get(String(r.id))!;
    const p = r.parentId ? nodes.get(String(r.parentId)) : undefined;
    if (p && !(rootFilter && rootFilter(r))) {
      (p.children ??= []).push(n);
      p.isLeaf = false;
    } else if (!rootFilter || rootFilter(r)) roots.push(n);
  }
  return roots;
}

const FIELDS = ['departName', 'departNameEn', 'departNameAbbr', 'departOrder', 'description', 'orgCategory', 'departType', 'mobile', 'fax', 'address', 'memo', 'status'];

/** Departments (JeecgBoot SysDepartController). Trees are open to any signed-in user: every picker needs them. */
export async function registerDepartAdmin(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const e = () => ctx.entities.get('sys_depart');

  api.get('/sys/sysDepart/queryTreeList', { config: { auth: 'user' } }, async (req) => {
    const rows = await departRows(ctx);
    const ids = commaList((req.query as Row).ids);
    if (ids.length) return ok(buildTree(rows.filter((r) => ids.includes(String(r.id))), () => true));
    return ok(buildTree(rows));
  });

  api.get('/sys/sysDepart/queryDepartTreeSync', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const pid = String(q.pid ?? '');
    const rows = await departRows(ctx);
    const ids = commaList(q.ids);
    const level = ids.length ? rows.filter((r) => ids.includes(String(r.id))) : rows.filter((r) => (pid ? r.parentId === pid : !r.parentId));
    const parents = new Set(rows.map((r) => String(r.parentId ?? '')));
    return ok(level.map((r) => ({ ...r, key: String(r.id), value: String(r.id), title: String(r.departName), isLeaf: !parents.has(String(r.id)), children: null })));
  });

  api.get('/sys/sysDepart/queryIdTree', { config: { auth: 'user' } }, async () => {
    const slim = (n: DepartNode): Row => ({ key: n.key, value: n.value, title: n.title, children: n.children ? n.children.map(slim) : null });
    return ok(buildTree(await departRows(ctx)).map(slim));
  });

  api.get('/sys/sysDepart/searchBy', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const kw = String(q.keyWord ?? '').trim();
    let rows = await departRows(ctx);
    if (q.myDeptSearch === '1') {
      const mine = rows.filter((r) => req.user!.departIds.includes(String(r.id))).map((r) => String(r.orgCode));
      rows = rows.filter((r) => mine.some((c) => String(r.orgCode).startsWith(c)));
    }
    const hits = rows.filter((r) => kw && String(r.departName).includes(kw));
    if (!hits.length) return { ...ok(null, '未查询匹配数据！'), success: false, code: 500 };
    return ok(hits.map((r) => ({ ...r, key: String(r.id), value: String(r.id), title: String(r.departName), isLeaf: true, children: null })));
  });

  // The subtrees of the user's own departments (leaders, secretaries).
  api.get('/sys/sysDepart/queryMyDeptTreeList', { config: { auth: 'user' } }, async (req) => {
    const rows = await departRows(ctx);
    const mine = rows.filter((r) => req.user!.departIds.includes(String(r.id)));
    const codes = mine.map((r) => String(r.orgCode));
    // Outermost own departments are the roots.
    const tops = new Set(mine.filter((r) => !codes.some((c) => c !== r.orgCode && String(r.orgCode).startsWith(c))).map((r) => String(r.id)));
    const inside = rows.filter((r) => codes.some((c) => String(r.orgCode).startsWith(c)));
    return ok(buildTree(inside, (r) => tops.has(String(r.id))));
  });

  api.get('/sys/sysDepart/queryById', { config: { auth: 'user' } }, async (req) => {
    const r = await ctx.db.selectFrom('sys_depart').selectAll().where('id', '=', String((req.query as Row).id ?? '')).where('del_flag', '=', '0').executeTakeFirst();
    if (!r) throw new BizError('未找到对应数据');
    return ok(toWire(e(), r));
  });

  const pickBody = (body: Row, mode: 'add' | 'edit') => {
    const input: Row = {};
    for (const f of FIELDS) if (Object.prototype.hasOwnProperty.call(body, f)) input[f] = body[f];
    const v = validateInput(e(), input, mode);
    if (mode === 'add' && !String(v.departName ?? '').trim()) throw new BizError('部门名称不能为空');
    const cols: Row = {};
    for (const [k, val] of Object.entries(v)) cols[k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())] = val;
    return cols;
  };

  api.post('/sys/sysDepart/add', { config: { auth: 'system:depart:add' } }, async (req) => {
    const body = (req.body ?? {}) as Row;
    const cols = pickBody(body, 'add');
    const parentId = body.parentId ? String(body.parentId) : null;
    const created = await ctx.db.transaction().execute(async (trx) => {
      let parentCode = '';
      if (parentId) {
        const p = await trx.selectFrom('sys_depart').select('org_code').where('id', '=', parentId).where('del_flag', '=', '0').forUpdate().executeTakeFirst();
        if (!p) throw new BizError('上级部门不存在');
        parentCode = String(p.org_code);
      }
      let sib = trx.selectFrom('sys_depart').select('org_code');
      sib = parentId ? sib.where('parent_id', '=', parentId) : sib.where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '=', '')]));
      const orgCode = nextOrgCode(parentCode, (await sib.execute()).map((r) => String(r.org_code)));
      const id = newId();
      await trx
        .insertInto('sys_depart')
        .values({
          org_category: parentId ? '2' : '1', status: '1', depart_order: 0, ...cols,
          id, parent_id: parentId, org_code: orgCode, org_type: String(orgCode.length / 3), del_flag: '0', tenant_id: 0,
          create_by: req.user!.username, create_time: now(),
        })
        .execute();
      return { id, orgCode };
    });
    return ok(created, '添加成功！');
  });

  const edit = async (req: FastifyRequest) => {
    const body = (req.body ?? {}) as Row;
    const id = String(body.id ?? '');
    const old = await ctx.db.selectFrom('sys_depart').select(['id', 'parent_id']).where('id', '=', id).where('del_flag', '=', '0').executeTakeFirst();
    if (!old) throw new BizError('未找到对应数据');
    if (body.parentId !== undefined && String(body.parentId ?? '') !== String(old.parent_id ?? '')) throw new BizError('不支持修改上级部门，请新建部门后迁移用户');
    const cols = pickBody(body, 'edit');
    if ('depart_name' in cols && !String(cols.depart_name ?? '').trim()) throw new BizError('部门名称不能为空');
    await ctx.db.updateTable('sys_depart').set({ ...cols, update_by: req.user!.username, update_time: now() }).where('id', '=', id).execute();
    return ok('编辑成功!', '编辑成功!');
  };
  api.put('/sys/sysDepart/edit', { config: { auth: 'system:depart:edit' } }, edit);
  api.post('/sys/sysDepart/edit', { config: { auth: 'system:depart:edit' } }, edit);

  /** Deletes departments that have neither sub-departments nor users; otherwise nothing, with the reason. */
  const remove = async (ids: string[]) => {
    if (!ids.length) throw new BizError('请选择一条记录！');
    await ctx.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('sys_depart').select(['id', 'depart_name']).where('id', 'in', ids).where('del_flag', '=', '0').execute();
      if (rows.length !== ids.length) throw new BizError('未找到对应数据');
      for (const r of rows) {
        const kid = await trx.selectFrom('sys_depart').select('id').where('parent_id', '=', r.id).where('del_flag', '=', '0').where('id', 'not in', ids).executeTakeFirst();
        if (kid) throw new BizError(`部门“${r.depart_name}”下还有子部门，不能删除`);
        const n = Number(
          (await trx.selectFrom('sys_user_depart as ud').innerJoin('sys_user as u', 'u.id', 'ud.user_id').select((eb) => eb.fn.countAll().as('n')).where('ud.dep_id', '=', r.id).executeTakeFirst())?.n ?? 0,
        );
        if (n) throw new BizError(`部门“${r.depart_name}”下还有${n}名用户，请先调整用户的部门后再删除`);
      }
      await trx.deleteFrom('sys_depart_permission').where('depart_id', 'in', ids).execute();
      await dropDeptRolesOf(trx, ids);
      await trx.deleteFrom('sys_depart').where('id', 'in', ids).execute();
    });
  };
  api.delete('/sys/sysDepart/delete', { config: { auth: 'system:depart:delete' } }, async (req) => {
    await remove(commaList((req.query as Row).id));
    return ok('删除部门成功', '删除部门成功');
  });
  api.delete('/sys/sysDepart/deleteBatch', { config: { auth: 'system:depart:deleteBatch' } }, async (req) => {
    await remove(commaList((req.query as Row).ids));
    return ok('批量删除部门成功', '批量删除部门成功');
  });
  // 部门用户: the users of one department (JeecgBoot departUserList / editSysDepartWithUser / deleteUserInDepart[Batch]).
  const DEP_USERS = { config: { auth: ['system:depart:edit', 'system:depart:queryById'] } };
  api.get('/sys/user/departUserList', DEP_USERS, async (req) => {
    const q = req.query as Row;
    const pageNo = Math.max(1, Number(q.pageNo) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(q.pageSize) || 10));
    // Only users of the caller's user scope (a department administrator: their department's users).
    let { qb } = await usersInScope(ctx, req);
    qb = qb.where('t.id', 'in', ctx.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', String(q.depId ?? '')));
    for (const f of ['username', 'realname'] as const) {
      const v = typeof q[f] === 'string' ? String(q[f]).replace(/^\*|\*$/g, '') : '';
      if (v) qb = qb.where(`t.${f}`, 'like', `%${likeEscape(v)}%`);
    }
    const total = Number((await qb.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await qb.selectAll('t').orderBy('t.username').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(rows.map((r) => { const w = toWire(ctx.entities.get('sys_user'), r); delete w.password; return w; }), total, pageNo, pageSize));
  });
  api.post('/sys/user/editSysDepartWithUser', { config: { auth: 'system:depart:edit' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const depId = String(b.depId ?? '');
    const userIds = commaList(b.userIdList);
    if (!userIds.length) throw new BizError('请选择用户');
    await ctx.db.transaction().execute(async (trx) => {
      const dep = await trx.selectFrom('sys_depart').select(['id', 'org_code']).where('id', '=', depId).where('del_flag', '=', '0').executeTakeFirst();
      if (!dep) throw new BizError('部门不存在');
      const known = await trx.selectFrom('sys_user').select('id').where('id', 'in', userIds).where('del_flag', '=', 0).execute();
      if (known.length !== userIds.length) throw new BizError('部分用户不存在，未做任何修改');
      await assertUserInScope(ctx, req, userIds, { db: trx, write: true, notSelf: '不能修改自己的所属部门' });
      await assertDepartsGrantable(ctx, req, [depId], trx);
      const have = new Set((await trx.selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', depId).where('user_id', 'in', userIds).execute()).map((r) => String(r.user_id)));
      const add = userIds.filter((u) => !have.has(u));
      if (add.length) await trx.insertInto('sys_user_depart').values(add.map((user_id) => ({ id: newId(), user_id, dep_id: depId }))).execute();
      // A user without a current department gets this one.
      await trx.updateTable('sys_user').set({ org_code: dep.org_code }).where('id', 'in', userIds).where((eb) => eb.or([eb('org_code', 'is', null), eb('org_code', '=', '')])).execute();
    });
    return ok('添加成功!', '添加成功!');
  });
  const removeDepUsers = async (req: FastifyRequest, depId: string, userIds: string[]) => {
    if (!userIds.length) throw new BizError('请选择用户');
    await ctx.db.transaction().execute(async (trx) => {
      const dep = await trx.selectFrom('sys_depart').select(['id', 'org_code']).where('id', '=', depId).executeTakeFirst();
      if (!dep) throw new BizError('部门不存在');
      await assertUserInScope(ctx, req, userIds, { db: trx, write: true, notSelf: '不能修改自己的所属部门' });
      await assertDepartsGrantable(ctx, req, [depId], trx);
      await trx.deleteFrom('sys_user_depart').where('dep_id', '=', depId).where('user_id', 'in', userIds).execute();
      await dropDeptRoleUsers(trx, depId, userIds);
      // Whose current department this was: the first remaining one becomes current (or none).
      const moved = await trx.selectFrom('sys_user').select('id').where('id', 'in', userIds).where('org_code', '=', String(dep.org_code)).execute();
      for (const u of moved) {
        const next = await trx
          .selectFrom('sys_user_depart as ud')
          .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
          .select('d.org_code')
          .where('ud.user_id', '=', u.id)
          .orderBy('d.org_code')
          .executeTakeFirst();
        await trx.updateTable('sys_user').set({ org_code: next?.org_code ?? null }).where('id', '=', u.id).execute();
      }
    });
  };
  api.delete('/sys/user/deleteUserInDepart', { config: { auth: 'system:depart:edit' } }, async (req) => {
    const q = req.query as Row;
    await removeDepUsers(req, String(q.depId ?? ''), commaList(q.userId));
    return ok('删除成功!', '删除成功!');
  });
  api.delete('/sys/user/deleteUserInDepartBatch', { config: { auth: 'system:depart:edit' } }, async (req) => {
    const q = req.query as Row;
    await removeDepUsers(req, String(q.depId ?? ''), commaList(q.userIds));
    return ok('删除成功!', '删除成功!');
  });
}
