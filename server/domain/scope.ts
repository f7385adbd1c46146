import { sql, type Expression, type SqlBool } from 'kysely';
import type { SessionUser } from '../auth/session.js';

/**
 * Row scope of domain data (DESIGN §1): `all` for supervisors and the quality office, `depart`
 * for secretaries and leaders (their department subtree by orgCode), `self` for everyone else.
 * Granted through permission codes so roles stay configurable.
 */
export const SCOPE_ALL = 'supervisor:lectureRecord:viewAll';
export const SCOPE_DEPART = 'supervisor:lectureRecord:viewDepart';
export type Scope = 'all' | 'depart' | 'self';

export function scopeOf(user: Pick<SessionUser, 'perms' | 'roleCodes' | 'orgCode'>): Scope {
  if (user.perms.has(SCOPE_ALL) || user.roleCodes.includes('admin')) return 'all';
  if (user.perms.has(SCOPE_DEPART) && user.orgCode) return 'depart';
  return 'self';
}

/** LIKE pattern for an orgCode subtree (orgCodes are alphanumeric, so no escaping is needed beyond that check). */
export function subtree(orgCode: string): string {
  if (!/^[A-Za-z0-9]+$/.test(orgCode)) return '\u0000'; // matches nothing
  return `${orgCode}%`;
}

type EB = { or(parts: Expression<SqlBool>[]): Expression<SqlBool> };

/**
 * Lecture-record visibility for table alias `alias`: own records always; records about one's own
 * lectures once submitted; plus the department's or everyone's submitted records by scope.
 */
export function recordVisibility(eb: EB, user: SessionUser, alias = 't'): Expression<SqlBool> {
  const c = (col: string) => sql.ref(`${alias}.${col}`);
  const notDraft = sql<SqlBool>`${c('status')} <> 'DRAFT'`;
  const parts: Expression<SqlBool>[] = [sql<SqlBool>`${c('listener_id')} = ${user.id}`, sql<SqlBool>`(${c('teacher_id')} = ${user.id} and ${notDraft})`];
  const s = scopeOf(user);
  if (s === 'all') parts.push(notDraft);
  if (s === 'depart') {
    const p = subtree(user.orgCode);
    parts.push(sql<SqlBool>`((${c('listener_org_code')} like ${p} or ${c('teacher_org_code')} like ${p}) and ${notDraft})`);
  }
  return eb.or(parts);
}
