import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { hookContext, scopedQuery } from '../crud/engine.js';
import { BizError, ok, page } from '../http/envelope.js';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * 通讯录: read-only staff directory. Users of a department and its sub-departments (membership in
 * sys_user_depart), through the sys_user row scope (logical delete, data rules granted for
 * `system:address:list`, hooks); a session bound to a tenant sees that tenant's users only.
 */
export async function registerAddress(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const entity = () => ({ ...ctx.entities.get('sys_user'), permission: 'system:address' });

  api.get('/sys/address/list', { config: { auth: 'system:address:list' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const pageNo = Math.max(1, Math.floor(Number(q.pageNo) || 1));
    const pageSize = Math.floor(Number(q.pageSize) || 10);
    if (pageSize < 1 || pageSize > 200) throw new BizError('每页条数须在1到200之间');
    const orgCode = str(q.orgCode);
    if (orgCode && !/^[A-Za-z0-9]{1,64}$/.test(orgCode)) throw new BizError('部门编码不正确');
    const h = hookContext(ctx, req, entity());
    let qb = await scopedQuery(h);
    if (orgCode)
      qb = qb.where('t.id', 'in', ctx.db.selectFrom('sys_user_depart as ud').innerJoin('sys_depart as d', 'd.id', 'ud.dep_id').select('ud.user_id').where('d.org_code', 'like', `${orgCode}%`).where('d.del_flag', '=', '0'));
    const name = str(q.realname);
    if (name) qb = qb.where('t.realname', 'like', `%${name.replace(/[\\%_]/g, '\\$&')}%`);
    if (h.user.tenantId) qb = qb.where(sql<boolean>`(',' || coalesce(t.rel_tenant_ids, '') || ',') like ${`%,${h.user.tenantId},%`}`);
    const [{ n }] = (await qb.select((eb) => eb.fn.countAll<string>().as('n')).execute()) as [{ n: string }];
    const rows = await qb
      .select(['t.id', 't.realname', 't.username', 't.work_no', 't.post', 't.phone', 't.telephone', 't.email', 't.org_code'])
      .orderBy('t.org_code')
      .orderBy('t.work_no')
      .orderBy('t.id')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute();
    const ids = rows.map((r) => String(r.id));
    const deps = ids.length
      ? await ctx.db.selectFrom('sys_user_depart as ud').innerJoin('sys_depart as d', 'd.id', 'ud.dep_id').select(['ud.user_id', 'd.depart_name']).where('ud.user_id', 'in', ids).orderBy('d.org_code').execute()
      : [];
    const records = rows.map((r) => ({
      id: r.id, realname: r.realname, username: r.username, workNo: r.work_no, post: r.post, phone: r.phone, telephone: r.telephone, email: r.email,
      departName: deps.filter((d) => d.user_id === r.id).map((d) => d.depart_name).join('，'),
    }));
    return ok(page(records, Number(n), pageNo, pageSize));
  });
}
