import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import type { FillRuleDefaults } from '../crud/fill-rule.js';

/**
 * Next value of a named counter, atomically (one upsert: concurrent callers get distinct values).
 * Used for record and task numbers: `${prefix}${n padded}`.
 */
export async function nextCounter(db: DB, name: string, by = 1): Promise<number> {
  const r = await sql<{ value: string }>`
    insert into sup_counter (name, value) values (${name}, ${by})
    on conflict (name) do update set value = sup_counter.value + ${by}
    returning value`.execute(db);
  return Number(r.rows[0]!.value);
}

export async function nextNo(db: DB, prefix: string, width = 6): Promise<string> {
  return `${prefix}${String(await nextCounter(db, prefix)).padStart(width, '0')}`;
}

/** The fill rule that numbers lecture records (填值规则; created on first use, editable there). */
export const RECORD_NO_RULE: FillRuleDefaults & { rule_code: string } = {
  rule_code: 'lecture_record_no', rule_name: '听课记录编号', prefix: 'TK', date_format: 'YYYYMMDD', seq_length: 4,
  rule_description: '听课记录保存时生成：TK + 日期 + 4位流水，每天从0001开始（示例数据的编号为 TK + 学期代码 + 5位流水）',
};
