import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { allFields, columnOf, type EntityField, type EntitySchema } from '../crud/entity-types.js';
import { compare, type DbColumn } from '../crud/sync.js';

const TYPE_TEXT: Record<string, string> = { string: '文本', text: '长文本', integer: '整数', bigint: '长整数', number: '小数', boolean: '是/否', date: '日期', datetime: '日期时间', time: '时间', json: 'JSON' };
const describe = (f: EntityField) => `${f.title ?? f.name}（${columnOf(f)}，${TYPE_TEXT[f.type] ?? f.type}${f.type === 'string' ? `，长度 ${f.length ?? 255}` : ''}${f.type === 'number' ? `，${f.precision ?? 12} 位含 ${f.scale ?? 2} 位小数` : ''}${f.required ? '，必填' : ''}）`;

export interface SyncPlan {
  /** The change in words, one sentence per step. */
  steps: string[];
  /** Whether applying it is allowed (additive only). */
  allowed: boolean;
}

/**
 * What 同步数据库 would do to the form's table, in words, before it is done: create the table, add columns,
 * widen types, add indexes. Only additive changes are allowed; a field removed from the definition keeps
 * its column and data (hidden, never dropped); a narrowing or type change is named and refused.
 */
export async function syncPlan(db: DB, e: EntitySchema): Promise<SyncPlan> {
  const { rows } = await sql<DbColumn>`
    select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale
    from information_schema.columns where table_schema = current_schema() and table_name = ${e.table}`.execute(db);
  const fields = allFields(e);
  if (!rows.length)
    return { allowed: true, steps: [`新建数据表 ${e.table}（${e.title}），字段：${fields.filter((f) => !f.primary).map(describe).join('、')}`, ...(e.indexes ?? []).map((ix) => `新建${ix.unique ? '唯一' : ''}索引：${ix.fields.join('、')}`)] };
  const cols = new Map(rows.map((r) => [r.column_name, r]));
  const steps: string[] = [];
  let allowed = true;
  for (const f of fields) {
    const c = cols.get(columnOf(f));
    if (!c) steps.push(`新增字段 ${describe(f)}`);
    else {
      const verdict = compare(f, c);
      if (verdict === 'widen') steps.push(`加宽字段 ${describe(f)}（不丢失数据）`);
      else if (verdict !== 'same') {
        allowed = false;
        steps.push(`不能执行：字段 ${f.title ?? f.name}（${columnOf(f)}）的变更会丢失数据（${verdict}）`);
      }
    }
  }
  const wanted = new Set(fields.map(columnOf));
  for (const r of rows) if (!wanted.has(r.column_name)) steps.push(`字段 ${r.column_name} 已从表单中移除：仅隐藏，数据库中的列和数据保留`);
  for (const ix of e.indexes ?? []) steps.push(`确保${ix.unique ? '唯一' : ''}索引：${ix.fields.join('、')}（已存在则不变）`);
  if (!steps.length) steps.push('数据库表已是最新，无需变更');
  return { allowed, steps };
}
