import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError } from '../http/envelope.js';
import { toWire } from '../crud/engine.js';
import { allDictItems } from '../sys/dict-service.js';
import { createSession } from './session.js';

type Row = Record<string, unknown>;

/** A user's departments (wire shape), in tree order. */
export async function userDeparts(ctx: ServerContext, userId: string): Promise<Row[]> {
  const rows = await ctx.db
    .selectFrom('sys_depart as d')
    .innerJoin('sys_user_depart as ud', 'ud.dep_id', 'd.id')
    .selectAll('d')
    .where('ud.user_id', '=', userId)
    .where('d.del_flag', '=', '0')
    .orderBy('d.org_code')
    .execute();
  const e = ctx.entities.get('sys_depart');
  return rows.map((r) => toWire(e, r));
}

/** The user as clients see it (never the password): SysUser fields plus orgCodeTxt and departIds. */
export async function userInfo(ctx: ServerContext, userId: string, departs?: Row[]): Promise<Row> {
  const u = await ctx.db.selectFrom('sys_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const ds = departs ?? (await userDeparts(ctx, userId));
  const info = toWire(ctx.entities.get('sys_user'), u);
  delete info.password;
  const cur = ds.find((d) => d.orgCode === info.orgCode);
  return { ...info, orgCodeTxt: cur?.departName ?? '', departIds: ds.map((d) => d.id).join(','), avatar: info.avatar ?? '' };
}

/** Active tenants the user belongs to (`relTenantIds`). */
export async function userTenants(ctx: ServerContext, relTenantIds: unknown): Promise<Row[]> {
  const ids = String(relTenantIds ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (!ids.length) return [];
  const rows = await ctx.db.selectFrom('sys_tenant').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => toWire(ctx.entities.get('sys_tenant'), r));
}

/**
 * After the credentials are verified: opens a session and builds the JeecgBoot login answer
 * `{token, userInfo, departs, multi_depart, tenantList, sysAllDictItems}`.
 */
export async function loginResult(ctx: ServerContext, req: FastifyRequest, user: Row, loginType: string) {
  const uid = String(user.id);
  const departs = await userDeparts(ctx, uid);
  // One department: it becomes the current one. Several: the client asks (multi_depart 2) and keeps the stored choice meanwhile.
  if (departs.length === 1 && user.org_code !== departs[0]!.orgCode)
    await ctx.db.updateTable('sys_user').set({ org_code: departs[0]!.orgCode }).where('id', '=', uid).execute();
  if (departs.length > 1 && !departs.some((d) => d.orgCode === user.org_code))
    await ctx.db.updateTable('sys_user').set({ org_code: departs[0]!.orgCode }).where('id', '=', uid).execute();
  const allTenants = await userTenants(ctx, user.rel_tenant_ids);
  const tenantList = allTenants.filter((t) => Number(t.status) === 1);
  if (allTenants.length && !tenantList.length) throw new BizError('该用户的租户已冻结，无法登录');
  const preferred = Number(user.login_tenant_id ?? 0);
  const tenantId = tenantList.some((t) => Number(t.id) === preferred) ? preferred : Number(tenantList[0]?.id ?? 0);
  const { token } = await createSession(ctx, { id: uid, username: String(user.username) }, {
    tenantId,
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? ''),
    loginType,
  });
  return {
    token,
    userInfo: await userInfo(ctx, uid, departs),
    departs,
    multi_depart: departs.length > 1 ? 2 : departs.length,
    tenantList,
    sysAllDictItems: await allDictItems(ctx.db),
  };
}
