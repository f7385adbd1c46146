import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { BizError } from '../http/envelope.js';
import { allFields, columnOf, type EntityField, type EntitySchema } from './entity-types.js';

/**
 * The list-query language of JeecgBoot's QueryGenerator (jeecg-contract.md §4), parsed into
 * conditions over declared fields only. Values are always bound; column names come from the schema.
 */
export type QueryRule = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like' | 'left_like' | 'right_like' | 'in' | 'like_any';

export const SUPER_QUERY_RULES: readonly string[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'left_like', 'right_like', 'in'];

export interface Condition {
  field: EntityField;
  rule: QueryRule;
  /** Typed value; an array for `in` and `like_any`. */
  value: unknown;
}

export type Query = Record<string, unknown>;

const label = (f: EntityField) => f.title ?? f.name;

/** Parses one plain parameter value into a rule and raw value(s). */
export function parsePlainValue(raw: string): { rule: QueryRule; value: string | string[] } {
  const v = raw.trim();
  const op = /^(>=|<=|!=|>|<) (.*)$/s.exec(v);
  if (op) {
    const map: Record<string, QueryRule> = { '>=': 'ge', '<=': 'le', '!=': 'ne', '>': 'gt', '<': 'lt' };
    return { rule: map[op[1]!]!, value: op[2]!.trim() };
  }
  if (v === '*') return { rule: 'eq', value: v };
  if (v.length > 1 && v.startsWith('*') && v.endsWith('*')) return { rule: 'like', value: v.slice(1, -1) };
  if (v.length > 1 && v.startsWith('*')) return { rule: 'left_like', value: v.slice(1) };
  if (v.length > 1 && v.endsWith('*')) return { rule: 'right_like', value: v.slice(0, -1) };
  if (v.length > 2 && v.startsWith(',') && v.endsWith(',')) return { rule: 'like_any', value: v.slice(1, -1).split(',').filter(Boolean) };
  if (v.includes('++')) return { rule: 'eq', value: v.split('++').join(',') };
  if (v.includes(',')) return { rule: 'in', value: v.split(',').filter((x) => x !== '') };
  if (v.length > 1 && v.startsWith('!')) return { rule: 'ne', value: v.slice(1) };
  return { rule: 'eq', value: v };
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;

/** Converts a client string to the field's type, or throws a Chinese message naming the field. */
export function coerce(f: EntityField, raw: unknown, edge?: 'begin' | 'end'): unknown {
  const s = typeof raw === 'string' ? raw.trim() : raw;
  switch (f.type) {
    case 'integer':
    case 'bigint': {
      const n = typeof s === 'number' ? s : Number(s);
      if (s === '' || !Number.isInteger(n) || (f.type === 'integer' && Math.abs(n) > 2147483647)) throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的整数`);
      return n;
    }
    case 'number': {
      const n = typeof s === 'number' ? s : Number(s);
      if (s === '' || !Number.isFinite(n)) throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的数字`);
      return String(n);
    }
    case 'boolean':
      if (s === true || s === 'true' || s === '1' || s === 'Y' || s === '是' || s === 1) return true;
      if (s === false || s === 'false' || s === '0' || s === 'N' || s === '否' || s === 0) return false;
      throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的是/否`);
    case 'date':
      if (typeof s === 'string' && DATE_RE.test(s)) return s;
      if (typeof s === 'string' && DATETIME_RE.test(s)) return s.slice(0, 10);
      throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的日期（YYYY-MM-DD）`);
    case 'datetime':
      if (typeof s === 'string' && DATE_RE.test(s)) return `${s} ${edge === 'end' ? '23:59:59' : '00:00:00'}`;
      if (typeof s === 'string' && DATETIME_RE.test(s)) return s.replace('T', ' ').length === 16 ? `${s.replace('T', ' ')}:00` : s.replace('T', ' ');
      throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的时间（YYYY-MM-DD HH:mm:ss）`);
    case 'time':
      if (typeof s === 'string' && /^\d{2}:\d{2}(:\d{2})?$/.test(s)) return s;
      throw new BizError(`“${label(f)}”的值“${String(raw)}”不是有效的时间（HH:mm:ss）`);
    default:
      return typeof s === 'string' ? s : String(s);
  }
}

function typed(c: { field: EntityField; rule: QueryRule; value: string | string[] }, edge?: 'begin' | 'end'): Condition {
  const { field, rule, value } = c;
  if (rule === 'like' || rule === 'left_like' || rule === 'right_like' || rule === 'like_any') return { field, rule, value };
  if (Array.isArray(value)) return { field, rule, value: value.map((v) => coerce(field, v)) };
  return { field, rule, value: coerce(field, value, edge) };
}

/** Which fields accept plain query parameters: declared filterable ones (and the primary key). */
export function filterableFields(e: EntitySchema): Map<string, EntityField> {
  return new Map(allFields(e).filter((f) => (f.filterable || f.primary) && !f.secret).map((f) => [f.name, f]));
}

/** Plain parameters → conditions. Unknown parameters are ignored (like JeecgBoot). */
export function plainConditions(e: EntitySchema, q: Query): Condition[] {
  const out: Condition[] = [];
  const fields = filterableFields(e);
  for (const [k, raw] of Object.entries(q)) {
    if (raw === undefined || raw === null || raw === '') continue;
    const val = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (val === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^(.+)_(begin|end)$/.exec(k)) && fields.has(m[1]!)) {
      const f = fields.get(m[1]!)!;
      const edge = m[2] as 'begin' | 'end';
      out.push({ field: f, rule: edge === 'begin' ? 'ge' : 'le', value: coerce(f, val, edge) });
    } else if ((m = /^(.+)_MultiString$/.exec(k)) && fields.has(m[1]!)) {
      out.push(typed({ field: fields.get(m[1]!)!, rule: 'in', value: val.split(',').filter(Boolean) }));
    } else if (fields.has(k)) {
      out.push(typed({ field: fields.get(k)!, ...parsePlainValue(val) }));
    }
  }
  return out;
}

/** The advanced query: fields and rules allow-listed; anything else is refused with a message. */
export function superConditions(e: EntitySchema, q: Query): { conditions: Condition[]; match: 'and' | 'or' } {
  const rawParams = q.superQueryParams;
  const matchRaw = q.superQueryMatchType ?? 'and';
  if (matchRaw !== 'and' && matchRaw !== 'or') throw new BizError('高级查询的匹配方式只能是 and 或 or');
  if (rawParams === undefined || rawParams === '') return { conditions: [], match: matchRaw };
  if (typeof rawParams !== 'string') throw new BizError('高级查询参数格式不正确');
  let parsed: unknown;
  try {
    let text = rawParams;
    try {
      text = decodeURIComponent(rawParams);
    } catch {
      /* already decoded */
    }
    parsed = JSON.parse(text);
  } catch {
    throw new BizError('高级查询参数格式不正确，需要 JSON 数组');
  }
  if (!Array.isArray(parsed)) throw new BizError('高级查询参数格式不正确，需要 JSON 数组');
  if (parsed.length > 50) throw new BizError('高级查询条件最多50个');
  const fields = filterableFields(e);
  const conditions: Condition[] = [];
  for (const item of parsed) {
    if (!item || typeof item !== 'object') throw new BizError('高级查询条件格式不正确');
    const { field, rule, val } = item as Record<string, unknown>;
    if (field === undefined || field === '' || rule === undefined || rule === '' || val === undefined || val === null || val === '') continue;
    const f = typeof field === 'string' ? fields.get(field) : undefined;
    if (!f) throw new BizError(`高级查询不支持字段“${String(field)}”`);
    if (typeof rule !== 'string' || !SUPER_QUERY_RULES.includes(rule)) throw new BizError(`高级查询不支持规则“${String(rule)}”`);
    const sval = Array.isArray(val) ? val.map(String) : String(val);
    const value = rule === 'in' ? (Array.isArray(sval) ? sval : sval.split(',').filter(Boolean)) : Array.isArray(sval) ? sval.join(',') : sval;
    conditions.push(typed({ field: f, rule: rule as QueryRule, value }));
  }
  return { conditions, match: matchRaw };
}

export interface Sort {
  field: EntityField;
  order: 'asc' | 'desc';
}

/** `column`/`order` → sort on declared sortable fields only (`x_dictText` maps to `x`). */
export function parseSort(e: EntitySchema, q: Query): Sort[] {
  const fields = new Map(allFields(e).map((f) => [f.name, f]));
  const orderRaw = q.order === undefined || q.order === '' ? 'desc' : String(q.order).toLowerCase();
  if (orderRaw !== 'asc' && orderRaw !== 'desc') throw new BizError('排序方式只能是 asc 或 desc');
  const column = q.column === undefined || q.column === '' ? undefined : String(q.column);
  if (!column) {
    if (e.defaultSort) return [{ field: fields.get(e.defaultSort.field)!, order: e.defaultSort.order }];
    return [];
  }
  return column.split(',').map((c) => {
    const name = c.trim().replace(/_dictText$/, '');
    const f = fields.get(name);
    if (!f || !(f.sortable || f.primary) || f.secret) {
      // JeecgBoot's clients send column=createTime by default; tolerate it on entities without audit fields.
      if (name === 'createTime' && !f) return undefined;
      throw new BizError(`不支持按“${c.trim()}”排序`);
    }
    return { field: f, order: orderRaw as 'asc' | 'desc' };
  }).filter((s): s is Sort => !!s);
}

export const MAX_PAGE_SIZE = 1000;

export function parsePaging(q: Query, defaultSize = 10): { pageNo: number; pageSize: number } {
  const num = (v: unknown, name: string, dflt: number) => {
    if (v === undefined || v === '') return dflt;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new BizError(`${name}必须是整数`);
    return n;
  };
  const pageNo = num(q.pageNo, '页码 pageNo', 1);
  const pageSize = num(q.pageSize, '每页条数 pageSize', defaultSize);
  if (pageNo < 1) throw new BizError('页码 pageNo 必须大于0');
  if (pageSize < 1) throw new BizError('每页条数 pageSize 必须大于0');
  if (pageSize > MAX_PAGE_SIZE) throw new BizError(`每页条数 pageSize 不能超过${MAX_PAGE_SIZE}`);
  return { pageNo, pageSize };
}

/** Escapes % _ and \ so a like value matches literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

type EB = ExpressionBuilder<any, any>;

/** One condition as a boolean SQL expression over alias `t`. */
export function conditionSql(eb: EB, c: Condition, alias = 't'): Expression<SqlBool> {
  const ref = sql.ref(`${alias}.${columnOf(c.field)}`);
  const text = c.field.type === 'string' || c.field.type === 'text' ? ref : sql`cast(${ref} as text)`;
  const ops: Record<string, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };
  switch (c.rule) {
    case 'like':
      return sql<SqlBool>`${text} like ${'%' + escapeLike(String(c.value)) + '%'}`;
    case 'left_like':
      return sql<SqlBool>`${text} like ${'%' + escapeLike(String(c.value))}`;
    case 'right_like':
      return sql<SqlBool>`${text} like ${escapeLike(String(c.value)) + '%'}`;
    case 'like_any': {
      const vals = c.value as string[];
      if (!vals.length) return sql<SqlBool>`true`;
      return eb.or(vals.map((v) => sql<SqlBool>`${text} like ${'%' + escapeLike(v) + '%'}`));
    }
    case 'in': {
      const vals = c.value as unknown[];
      if (!vals.length) return sql<SqlBool>`false`;
      return sql<SqlBool>`${ref} in (${sql.join(vals.map((v) => sql`${v}`))})`;
    }
    case 'ne':
      return sql<SqlBool>`(${ref} <> ${c.value} or ${ref} is null)`;
    default:
      return sql<SqlBool>`${ref} ${sql.raw(ops[c.rule]!)} ${c.value}`;
  }
}
