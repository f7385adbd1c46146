import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { allFields, columnOf, type EntityField, type EntityIndex, type EntitySchema } from '../crud/entity-types.js';
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
  const byName = new Map(fields.map((f) => [f.name, f]));
  const ixText = (ix: EntityIndex) => `${ix.unique ? '唯一' : '普通'}索引（${ix.fields.map((n) => byName.get(n)?.title ?? n).join('、')}）`;
  if (!rows.length)
    return { allowed: true, steps: [`新建数据表 ${e.table}（${e.title}），字段：${fields.filter((f) => !f.primary).map(describe).join('、')}`, ...(e.indexes ?? []).map((ix) => `新建${ixText(ix)}`)] };
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
  const { rows: ixRows } = await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = current_schema() and tablename = ${e.table}`.execute(db);
  const existingIndexes = new Set(ixRows.map((r) => r.indexname));
  for (const ix of e.indexes ?? []) {
    const cs = ix.fields.map((n) => byName.get(n)).filter((f): f is EntityField => !!f && cols.has(columnOf(f)));
    // a unique index over existing columns cannot be built while the data has duplicates
    if (ix.unique && cs.length === ix.fields.length) {
      const refs = cs.map((f) => sql.ref(columnOf(f)));
      const dup = await db.selectFrom(e.table).select(sql`1`.as('x')).groupBy(refs).having(sql`count(*)`, '>', 1).limit(1).executeTakeFirst();
      if (dup) {
        allowed = false;
        steps.push(`不能执行：已有数据中${ix.fields.map((n) => byName.get(n)?.title ?? n).join('、')}存在重复值，无法建立唯一索引，请先修正数据`);
        continue;
      }
    }
    const name = `${ix.unique ? 'ux' : 'ix'}_${e.table}_${ix.fields.map((n) => (byName.get(n) ? columnOf(byName.get(n)!) : n)).join('_')}`.slice(0, 63);
    if (!existingIndexes.has(name)) steps.push(`新建${ixText(ix)}`);
  }
  if (!steps.length) steps.push('数据库表已是最新，无需变更');
  return { allowed, steps };
}
