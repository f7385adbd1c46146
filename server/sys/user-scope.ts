import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError } from '../http/envelope.js';
import { conditionSql, type Condition } from '../crud/query.js';
import { dataRuleConditions, loadDataRules } from '../crud/data-rules.js';
import { subtree } from '../domain/scope.js';

/**
 * The user data scope of the system-administration screens (issue 27 rule 1), in one place: every
 * route that reads or changes a user, a user's roles or departments applies it. The scope is the one
 * the user list applies — the caller's data rules on `system:user:list` (a department administrator:
 * users of their department subtree). A caller with such rules is a *restricted* user administrator:
 * they may grant or take away only the roles of `userAdmin.deptAdminRoles` and only departments of
 * their own subtree, and they may not touch users holding any other role.
 */
export interface UserScope {
  /** Whether data rules narrow the caller's users (a department administrator). */
  restricted: boolean;
  conditions: Condition[];
  /** Some rule cannot be applied safely: nothing is in scope. */
  deny: boolean;
}

const USER_LIST = 'system:user:list';

export async function userScopeOf(ctx: ServerContext, req: FastifyRequest, db: DB = ctx.db): Promise<UserScope> {
  const u = req.user;
  if (!u) throw new BizError('Token失效，请重新登录!', 401, 401);
  const rules = await loadDataRules(db, u.id, USER_LIST);
  if (!rules.length) return { restricted: false, conditions: [], deny: false };
  const conds = dataRuleConditions(ctx.entities.get('sys_user'), rules, u);
  return { restricted: true, deny: conds.includes('deny'), conditions: conds.filter((c): c is Condition => c !== 'deny') };
}

/** Roles a restricted user administrator may grant (role codes, configurable). */
export const grantableRoles = (ctx: ServerContext): string[] => ctx.cfg.userAdmin.deptAdminRoles;

/** `sys_user as t` narrowed to the caller's user scope (deleted users only with `deleted`). */
export async function usersInScope(ctx: ServerContext, req: FastifyRequest, db: DB = ctx.db, opts: { deleted?: boolean } = {}) {
  const scope = await userScopeOf(ctx, req, db);
  let qb = db.selectFrom('sys_user as t').where('t.del_flag', '=', opts.deleted ? 1 : 0);
  if (scope.deny) qb = qb.where(sql<boolean>`false`);
  for (const c of scope.conditions) qb = qb.where((eb) => conditionSql(eb, c));
  return { scope, qb };
}

export interface UserScopeOptions {
  db?: DB;
  /** Users in the recycle bin (del_flag = 1) instead of live ones. */
  deleted?: boolean;
  /** A change (not a read): a restricted administrator may not change users holding roles outside their list. */
  write?: boolean;
  /** The caller may not be among the users (their own roles, departments or status). */
  notSelf?: string;
}

/**
 * Refuses unless every one of `userIds` is in the caller's user scope (nothing is changed then).
 * Use it in every route that reads or writes a user or a user's grants.
 */
export async function assertUserInScope(ctx: ServerContext, req: FastifyRequest, userIds: string[], opts: UserScopeOptions = {}): Promise<void> {
  const ids = [...new Set(userIds.map(String).filter(Boolean))];
  if (!ids.length) return;
  if (opts.notSelf && ids.includes(req.user!.id)) throw new BizError(opts.notSelf);
  const db = opts.db ?? ctx.db;
  const { scope, qb } = await usersInScope(ctx, req, db, opts);
  const found = await qb.select('t.id').where('t.id', 'in', ids).execute();
  if (found.length !== ids.length) throw new BizError(ids.length === 1 ? '用户不存在或不在您的管理范围内' : '部分用户不存在或不在您的管理范围内，未做任何修改');
  if (opts.write && scope.restricted) {
    const other = await db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select(['u.realname', 'r.role_name'])
      .where('ur.user_id', 'in', ids)
      .where('r.role_code', 'not in', grantableRoles(ctx))
      .executeTakeFirst();
    if (other) throw new BizError(`用户“${String(other.realname)}”拥有角色“${String(other.role_name)}”，超出您的管理范围，请联系系统管理员`);
  }
}

/** One user (by username) of the caller's scope, for routes that name users by account. */
export async function userIdInScope(ctx: ServerContext, req: FastifyRequest, username: string, opts: UserScopeOptions = {}): Promise<string> {
  const u = await (opts.db ?? ctx.db).selectFrom('sys_user').select('id').where('username', '=', username).where('del_flag', '=', opts.deleted ? 1 : 0).executeTakeFirst();
  if (!u) throw new BizError('用户不存在或不在您的管理范围内');
  await assertUserInScope(ctx, req, [String(u.id)], opts);
  return String(u.id);
}

/** Refuses role ids a restricted administrator may not grant or take away. */
export async function assertRolesGrantable(ctx: ServerContext, req: FastifyRequest, roleIds: string[], db: DB = ctx.db): Promise<void> {
  if (!roleIds.length) return;
  const scope = await userScopeOf(ctx, req, db);
  if (!scope.restricted) return;
  const bad = await db.selectFrom('sys_role').select('role_name').where('id', 'in', roleIds).where('role_code', 'not in', grantableRoles(ctx)).executeTakeFirst();
  if (bad) throw new BizError(`无权分配或移除角色“${String(bad.role_name)}”：部门管理员只能分配本部门的教师、秘书、领导等角色`);
}

/** Refuses department ids outside a restricted administrator's own subtree. */
export async function assertDepartsGrantable(ctx: ServerContext, req: FastifyRequest, departIds: string[], db: DB = ctx.db): Promise<void> {
  if (!departIds.length) return;
  const scope = await userScopeOf(ctx, req, db);
  if (!scope.restricted) return;
  const bad = await db
    .selectFrom('sys_depart')
    .select('depart_name')
    .where('id', 'in', departIds)
    .where('org_code', 'not like', subtree(req.user!.orgCode))
    .executeTakeFirst();
  if (bad) throw new BizError(`无权分配部门“${String(bad.depart_name)}”：只能分配本部门及下级部门`);
}
