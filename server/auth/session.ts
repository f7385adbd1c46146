import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { fmt, newId, now, randomToken, sha256 } from '../util.js';
import dayjs from 'dayjs';
import { sessionsRevoked } from '../sys/notify.js';
import { deptRolePermissionIds } from '../sys/permission-tree.js';
import { cachedRows, rawRead } from '../db/read-cache.js';
import { fileTokenValid, parseFileToken } from './file-token.js';

/** The signed-in user as every handler sees it (`req.user`). The session is checked on each request; its permissions come through the read cache. */
export interface SessionUser {
  sessionId: string;
  id: string;
  username: string;
  realname: string;
  /** Current department's orgCode (hierarchical, e.g. A01A03). */
  orgCode: string;
  /** Ids of every department the user belongs to. */
  departIds: string[];
  /** The tenant of this request: the session's, or the `tenant-id` header when the user belongs to it. */
  tenantId: number;
  tenantIds: number[];
  roleCodes: string[];
  /** Every permission code (`perms`) granted through the user's roles and department roles, split on commas. */
  perms: Set<string>;
}

export interface NewSession {
  token: string;
  sessionId: string;
}

export async function createSession(
  ctx: ServerContext,
  user: { id: string; username: string },
  meta: { tenantId?: number; ip?: string; userAgent?: string; loginType?: string },
): Promise<NewSession> {
  const token = randomToken();
  const id = newId();
  await ctx.db
    .insertInto('sys_session')
    .values({
      id,
      token_hash: sha256(token),
      user_id: user.id,
      username: user.username,
      tenant_id: meta.tenantId ?? 0,
      login_type: meta.loginType ?? 'password',
      ip: meta.ip ?? null,
      user_agent: (meta.userAgent ?? '').slice(0, 500),
      created_at: now(),
      last_seen_at: now(),
      expires_at: fmt(dayjs().add(Math.round(ctx.cfg.session.absoluteDays * 86400), 'second')),
    })
    .execute();
  return { token, sessionId: id };
}

/** Revokes sessions: one by id, or every session of a user (password change, freeze, role change, force logout). */
export async function revokeSessions(ctx: ServerContext, by: { sessionId?: string; userId?: string }, reason: string) {
  let q = ctx.db.updateTable('sys_session').set({ revoked_at: now(), revoke_reason: reason }).where('revoked_at', 'is', null);
  if (by.sessionId) q = q.where('id', '=', by.sessionId);
  else if (by.userId) q = q.where('user_id', '=', by.userId);
  else throw new Error('revokeSessions needs sessionId or userId');
  await q.execute();
}

/** Revokes every live session of a user: effective on their very next request (role change, freeze, password change). */
export async function revokeUserSessions(ctx: ServerContext, userId: string, reason: string): Promise<void> {
  await revokeSessions(ctx, { userId }, reason);
  await sessionsRevoked(ctx); // open websockets of this user close too
}

/** A stored "YYYY-MM-DD HH:mm:ss" (server local time, util.now()) as epoch milliseconds. */
const localTime = (v: unknown) => new Date(String(v).replace(' ', 'T')).getTime();

/** How long a user's permissions may be reused while none of the tables they come from is written. */
const AUTH_CACHE_MS = 30_000;

type Resolved = Omit<SessionUser, 'tenantId'> & { sessionTenantId: number };

/** Resolves a raw token to its user, or null when unknown, revoked, idle too long, past its lifetime or the user is frozen. */
export function resolveSession(ctx: ServerContext, token: string): Promise<Resolved | null> {
  if (!token || token.length > 200) return Promise.resolve(null);
  return resolveBy(ctx, { tokenHash: sha256(token) });
}

/** Resolves a file token (server/auth/file-token.ts) to its session's user: the session must be live and the signature its own. */
export function resolveFileToken(ctx: ServerContext, fileToken: string): Promise<Resolved | null> {
  const p = parseFileToken(fileToken);
  if (!p) return Promise.resolve(null);
  return resolveBy(ctx, { sessionId: p.sessionId }, (tokenHash) => fileTokenValid(tokenHash, p.sessionId, p.exp, p.sig));
}

async function resolveBy(ctx: ServerContext, by: { tokenHash: string } | { sessionId: string }, accept?: (tokenHash: string) => boolean): Promise<Resolved | null> {
  const s = await ctx.db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .select([
      's.id as sessionId', 's.token_hash', 's.last_seen_at', 's.expires_at', 's.tenant_id', 's.revoked_at',
      'u.id', 'u.username', 'u.realname', 'u.org_code', 'u.status', 'u.del_flag', 'u.rel_tenant_ids',
    ])
    .where((eb) => ('tokenHash' in by ? eb('s.token_hash', '=', by.tokenHash) : eb('s.id', '=', by.sessionId)))
    .executeTakeFirst();
  if (!s || s.revoked_at || Number(s.status) !== 1 || Number(s.del_flag) !== 0) return null;
  if (accept && !accept(String(s.token_hash))) return null;
  const t = Date.now();
  if (t > localTime(s.expires_at)) return null;
  const idleMs = t - localTime(s.last_seen_at);
  if (idleMs > ctx.cfg.session.idleMinutes * 60_000) return null;
  // Touch at most once a minute (sooner for tiny idle limits): idle tracking without a write per request.
  if (idleMs >= Math.min(60, ctx.cfg.session.idleMinutes * 15) * 1000) {
    await ctx.db.updateTable('sys_session').set({ last_seen_at: now() }).where('id', '=', s.sessionId).execute();
  }
  // Permissions and departments: from the read cache (any write to the role, permission or
  // department tables drops them; changes that narrow access also revoke the sessions concerned).
  const [roles, departs] = await Promise.all([
    cachedRows(ctx.db, rawRead(ctx.db, sql<{ role_code: string | null; perms: string | null }>`
      select r.role_code, p.perms
      from sys_user_role ur
      join sys_role r on r.id = ur.role_id
      left join sys_role_permission rp on rp.role_id = r.id
      left join sys_permission p on p.id = rp.permission_id and p.del_flag = 0 and p.status = '1'
      where ur.user_id = ${s.id}
      union all
      select null, p.perms from sys_permission p
      where p.del_flag = 0 and p.status = '1' and p.id in (${deptRolePermissionIds(s.id)})`), AUTH_CACHE_MS),
    cachedRows(ctx.db, ctx.db.selectFrom('sys_user_depart').select('dep_id').where('user_id', '=', s.id), AUTH_CACHE_MS),
  ]);
  const perms = new Set<string>();
  const roleCodes = new Set<string>();
  for (const r of roles) {
    if (r.role_code) roleCodes.add(r.role_code);
    for (const p of (r.perms ?? '').split(',')) if (p.trim()) perms.add(p.trim());
  }
  return {
    sessionId: s.sessionId,
    id: s.id,
    username: s.username,
    realname: s.realname,
    orgCode: s.org_code ?? '',
    departIds: departs.map((d) => d.dep_id as string),
    sessionTenantId: Number(s.tenant_id ?? 0),
    tenantIds: String(s.rel_tenant_ids ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number),
    roleCodes: [...roleCodes],
    perms,
  };
}
