import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { allFields, columnOf, primaryField, type EntityField, type EntitySchema } from './entity-types.js';
import type { EntityRegistry } from './entities.js';

export function sqlType(f: EntityField): string {
  switch (f.type) {
    case 'string':
      return `varchar(${f.length ?? 255})`;
    case 'text':
      return 'text';
    case 'integer':
      return 'integer';
    case 'bigint':
      return 'bigint';
    case 'number':
      return `numeric(${f.precision ?? 12},${f.scale ?? 2})`;
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamp(0)';
    case 'time':
      return 'time(0)';
    case 'json':
      return 'jsonb';
  }
}

function literal(v: string | number | boolean | null): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return `'${v.replace(/'/g, "''")}'`;
}

function columnDdl(f: EntityField): string {
  let s = `"${columnOf(f)}" ${sqlType(f)}`;
  if (f.default !== undefined) s += ` DEFAULT ${literal(f.default)}`;
  return s;
}

export interface DbColumn {
  column_name: string;
  data_type: string;
  character_maximum_length: number | null;
  numeric_precision: number | null;
  numeric_scale: number | null;
}

const TYPE_FAMILY: Record<string, string> = {
  'character varying': 'string',
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  numeric: 'number',
  boolean: 'boolean',
  date: 'date',
  'timestamp without time zone': 'datetime',
  'time without time zone': 'time',
  jsonb: 'json',
};

/** What altering an existing column to the schema's type would do: nothing, a safe widening, or data loss. */
export function compare(f: EntityField, c: DbColumn): 'same' | 'widen' | string {
  const family = TYPE_FAMILY[c.data_type] ?? c.data_type;
  if (family === f.type) {
    if (f.type === 'string' && c.character_maximum_length !== null) {
      const want = f.length ?? 255;
      if (want > c.character_maximum_length) return 'widen';
      if (want < c.character_maximum_length) return `length ${c.character_maximum_length} → ${want} would truncate data`;
    }
    if (f.type === 'number') {
      const p = f.precision ?? 12;
      const s = f.scale ?? 2;
      if (p < (c.numeric_precision ?? 0) || s < (c.numeric_scale ?? 0)) return `numeric(${c.numeric_precision},${c.numeric_scale}) → numeric(${p},${s}) would lose precision`;
      if (p > (c.numeric_precision ?? 0) || s > (c.numeric_scale ?? 0)) return 'widen';
    }
    return 'same';
  }
  const widening: Record<string, string[]> = { string: ['text'], integer: ['bigint', 'number'], bigint: ['number'], date: ['datetime'] };
  if (widening[family]?.includes(f.type)) return 'widen';
  return `type ${family} → ${f.type} is not a safe change`;
}

export interface SyncReport {
  created: string[];
  altered: string[];
  /** Entities whose schema would need a destructive change; their tables were left as they are. */
  refused: Array<{ entity: string; reason: string }>;
}

/**
 * Creates and additively migrates every entity's table: new tables, new columns, widened types,
 * new indexes. It never drops or narrows anything; such a change is refused with the reason and
 * the entity is reported (its screen shows the error; everything else goes on).
 */
export async function syncEntities(db: DB, registry: EntityRegistry): Promise<SyncReport> {
  const report: SyncReport = { created: [], altered: [], refused: [] };
  const { rows } = await sql<DbColumn & { table_name: string }>`
    select table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale
    from information_schema.columns where table_schema = current_schema()`.execute(db);
  const existing = new Map<string, Map<string, DbColumn>>();
  for (const r of rows) {
    if (!existing.has(r.table_name)) existing.set(r.table_name, new Map());
    existing.get(r.table_name)!.set(r.column_name, r);
  }
  for (const e of registry.byName.values()) {
    const fields = allFields(e);
    const cols = existing.get(e.table);
    if (!cols) {
      const pk = primaryField(e);
      const defs = fields.map(columnDdl);
      if (!e.fields.some((f) => f.primary)) defs.unshift(columnDdl(pk));
      defs.push(`PRIMARY KEY ("${columnOf(pk)}")`);
      await sql.raw(`CREATE TABLE IF NOT EXISTS "${e.table}" (${defs.join(', ')})`).execute(db);
      report.created.push(e.table);
    } else {
      const problems: string[] = [];
      const steps: string[] = [];
      for (const f of fields) {
        const c = cols.get(columnOf(f));
        if (!c) {
          steps.push(`ADD COLUMN ${columnDdl(f)}`);
          continue;
        }
        const verdict = compare(f, c);
        if (verdict === 'widen') steps.push(`ALTER COLUMN "${columnOf(f)}" TYPE ${sqlType(f)}`);
        else if (verdict !== 'same') problems.push(`${f.name}: ${verdict}`);
      }
      if (problems.length) {
        report.refused.push({ entity: e.name, reason: `表 ${e.table} 的结构变更会丢失数据，已拒绝：${problems.join('；')}` });
        continue;
      }
      if (steps.length) {
        await sql.raw(`ALTER TABLE "${e.table}" ${steps.join(', ')}`).execute(db);
        report.altered.push(e.table);
      }
    }
    await ensureIndexes(db, e);
  }
  return report;
}

async function ensureIndexes(db: DB, e: EntitySchema) {
  const byName = new Map(allFields(e).map((f) => [f.name, f]));
  const indexes = [...(e.indexes ?? [])];
  for (const f of e.fields) if (f.unique && !f.primary) indexes.push({ fields: [f.name], unique: true });
  if (e.tree) indexes.push({ fields: [e.tree.parentField] });
  for (const ix of indexes) {
    const desc = new Set(ix.desc ?? []);
    const cols = ix.fields.map((n) => ({ col: columnOf(byName.get(n)!), desc: desc.has(n) }));
    const name = `${ix.unique ? 'ux' : 'ix'}_${e.table}_${cols.map((c) => (c.desc ? `${c.col}_d` : c.col)).join('_')}`.slice(0, 63);
    await sql
      .raw(`CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON "${e.table}" (${cols.map((c) => `"${c.col}"${c.desc ? ' DESC NULLS LAST' : ''}`).join(', ')})`)
      .execute(db);
  }
}
