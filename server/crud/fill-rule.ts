import dayjs from 'dayjs';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError } from '../http/envelope.js';
import { newId, now } from '../util.js';
import { inTransaction } from './engine.js';

/**
 * Next number of a fill rule (sys_fill_rule): prefix + date (rule's format) + zero-padded sequence
 * that restarts each period, e.g. `TK202611210001`. The rule row is locked for the increment, so
 * concurrent callers never get the same number; pass the caller's transaction to roll back with it.
 * An unknown rule code is created on first use from `defaults` (else prefix = the code in upper case, YYYYMMDD, 4 digits).
 */
export async function nextNumber(ctx: Pick<ServerContext, 'db'>, ruleCode: string, trx?: DB, defaults?: FillRuleDefaults): Promise<string> {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(ruleCode)) throw new BizError('填值规则编码不正确');
  const d = { rule_name: ruleCode, prefix: ruleCode.toUpperCase(), date_format: 'YYYYMMDD', seq_length: 4, rule_description: null, ...defaults };
  return inTransaction(trx ?? ctx.db, async (db) => {
    await sql`insert into sys_fill_rule (id, rule_name, rule_code, prefix, date_format, seq_length, current_seq, rule_description, create_time)
      values (${newId()}, ${d.rule_name}, ${ruleCode}, ${d.prefix}, ${d.date_format}, ${d.seq_length}, 0, ${d.rule_description}, ${now()})
      on conflict (rule_code) do nothing`.execute(db);
    const { rows } = await sql<{ id: string; prefix: string | null; date_format: string | null; seq_length: number | null; current_period: string | null; current_seq: number | null }>`
      select id, prefix, date_format, seq_length, current_period, current_seq from sys_fill_rule where rule_code = ${ruleCode} for update`.execute(db);
    const r = rows[0]!;
    const { value, period, seq } = followingNumber(r);
    await sql`update sys_fill_rule set current_period = ${period}, current_seq = ${seq} where id = ${r.id}`.execute(db);
    return value;
  });
}

/** How a rule is created when first used (an administrator may change it later in 填值规则). */
export interface FillRuleDefaults {
  rule_name: string;
  prefix: string;
  date_format: string;
  seq_length: number;
  rule_description?: string | null;
}

export interface FillRuleState {
  prefix: string | null;
  date_format: string | null;
  seq_length: number | null;
  current_period: string | null;
  current_seq: number | null;
}

/** The number a rule gives next (pure: the 测试 preview uses it without consuming the number). */
export function followingNumber(r: FillRuleState, at = dayjs()): { value: string; period: string; seq: number } {
  const period = r.date_format ? at.format(r.date_format) : '';
  const seq = (period === (r.current_period ?? '') ? Number(r.current_seq ?? 0) : 0) + 1;
  return { value: `${r.prefix ?? ''}${period}${String(seq).padStart(Number(r.seq_length ?? 4), '0')}`, period, seq };
}
