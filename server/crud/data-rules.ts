import dayjs from 'dayjs';
import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { cachedRows, rawRead } from '../db/read-cache.js';
import { userGrants } from '../sys/permission-tree.js';
import { allFields, columnOf, type EntitySchema } from './entity-types.js';
import { coerce, type Condition, type QueryRule } from './query.js';

export interface DataRule {
  ruleColumn: string | null;
  ruleConditions: string | null;
  ruleValue: string | null;
}

export interface RuleUser {
  username: string;
  orgCode: string;
}

const CONDITIONS: Record<string, QueryRule> = {
  '=': 'eq', '!=': 'ne', '<>': 'ne', '>': 'gt', '>=': 'ge', '<': 'lt', '<=': 'le',
  LIKE: 'like', LEFT_LIKE: 'left_like', RIGHT_LIKE: 'right_like', IN: 'in',
};

/** Replaces #{sys_user_code}, #{sys_org_code}, #{sys_date}, #{sys_time}; other variables are unknown. */
export function resolveRuleValue(value: string, user: RuleUser, at = dayjs()): string | undefined {
  let unknown = false;
  const out = value.replace(/#\{(\w+)\}/g, (_m, name: string) => {
    switch (name) {
      case 'sys_user_code':
        return user.username;
      case 'sys_org_code':
        return user.orgCode;
      case 'sys_date':
        return at.format('YYYY-MM-DD');
      case 'sys_time':
        return at.format('YYYY-MM-DD HH:mm:ss');
      default:
        unknown = true;
        return '';
    }
  });
  return unknown ? undefined : out;
}

/**
 * Data rules → conditions (all ANDed). A rule the engine cannot apply safely — unknown column,
 * USE_SQL_RULES or any other condition, an unknown variable, a value of the wrong type — yields
 * 'deny': the rule narrows access, so failing open would widen it.
 */
export function dataRuleConditions(e: EntitySchema, rules: DataRule[], user: RuleUser): Array<Condition | 'deny'> {
  const fields = allFields(e).filter((f) => !f.secret);
  return rules.map((r) => {
    const col = (r.ruleColumn ?? '').trim();
    const field = fields.find((f) => f.name === col || columnOf(f) === col);
    const rule = CONDITIONS[(r.ruleConditions ?? '').trim().toUpperCase()];
    if (!field || !rule) return 'deny';
    const value = resolveRuleValue(r.ruleValue ?? '', user);
    if (value === undefined) return 'deny';
    try {
      if (rule === 'like' || rule === 'left_like' || rule === 'right_like') return { field, rule, value };
      if (rule === 'in') return { field, rule, value: value.split(',').filter(Boolean).map((v) => coerce(field, v)) };
      return { field, rule, value: coerce(field, value) };
    } catch {
      return 'deny';
    }
  });
}

/** Data rules are read on every list call; a write to the tables they come from drops them (read-cache.ts). */
const RULES_CACHE_MS = 30_000;

/**
 * The data rules granted to a user for `<permission>:list`: rules of that permission whose ids are
 * listed in the grant's data_rule_ids, for any of the user's roles and department roles. Every rule
 * granted applies (they narrow the rows together).
 */
export async function loadDataRules(db: DB, userId: string, permissionCode: string): Promise<DataRule[]> {
  const grants = await cachedRows(db, rawRead(db, sql<{ permission_id: string; data_rule_ids: string | null }>`
    select g.permission_id, g.data_rule_ids
    from (${userGrants(userId)}) g
    join sys_permission p on p.id = g.permission_id and p.del_flag = 0
    where p.perms = ${permissionCode}`), RULES_CACHE_MS);
  const ids = new Set<string>();
  for (const g of grants) for (const id of (g.data_rule_ids ?? '').split(',')) if (id.trim()) ids.add(id.trim());
  if (!ids.size) return [];
  const rows = await cachedRows(db, db
    .selectFrom('sys_permission_data_rule')
    .select(['rule_column', 'rule_conditions', 'rule_value'])
    .where('id', 'in', [...ids])
    .where('status', '=', '1'), RULES_CACHE_MS);
  return rows.map((r) => ({ ruleColumn: r.rule_column as string | null, ruleConditions: r.rule_conditions as string | null, ruleValue: r.rule_value as string | null }));
}
