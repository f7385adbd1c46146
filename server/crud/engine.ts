import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { cachedQuery, cachedRows } from '../db/read-cache.js';
import { BizError, page, type Page } from '../http/envelope.js';
import { allDictItems, type DictModel } from '../sys/dict-service.js';
import { newId, now } from '../util.js';
import { loadDataRules, dataRuleConditions } from './data-rules.js';
import { allFields, columnOf, primaryField, type EntityField, type EntitySchema } from './entity-types.js';
import { hooksOf, type EntityQuery, type HookContext, type ReadPurpose, type Row, type SaveMode } from './hooks.js';
import { coerce, conditionSql, parsePaging, parseSort, plainConditions, superConditions, type Condition, type Query } from './query.js';
import { checkValue } from './validate.js';
import { scopeOf, subtree } from '../domain/scope.js';

export function hookContext(ctx: ServerContext, req: FastifyRequest, entity: string | EntitySchema, db: DB = ctx.db): HookContext {
  if (!req.user) throw new BizError('Token失效，请重新登录!', 401, 401);
  const e = typeof entity === 'string' ? ctx.entities.get(entity) : entity;
  // A table whose schema change was refused at start (see sync.ts) is not served until fixed.
  const refused = ctx.entities.problems.find((p) => p.file === `entities/${e.name}`);
  if (refused) throw new BizError(`“${e.title}”暂不可用：${refused.reason}`);
  return { ctx, req, user: req.user, entity: e, db };
}

const label = (f: EntityField) => f.title ?? f.name;
const delFlagField = (e: EntitySchema) => e.fields.find((f) => f.name === 'delFlag');
const publicOf = new WeakMap<EntitySchema, EntityField[]>();
/** Fields that may leave the server (memoised per entity; do not mutate). */
export function publicFields(e: EntitySchema): EntityField[] {
  let list = publicOf.get(e);
  if (!list) publicOf.set(e, (list = allFields(e).filter((f) => !f.secret)));
  return list;
}

/** A database row (snake_case columns) → a wire row (camelCase, ids as strings, no secrets). */
export function toWire(e: EntitySchema, r: Record<string, unknown>): Row {
  const out: Row = {};
  for (const f of publicFields(e)) {
    let v = r[columnOf(f)];
    if (v === undefined) continue;
    if (typeof v === 'bigint') v = String(v);
    if (f.primary && v !== null) v = String(v);
    out[f.name] = v;
  }
  return out;
}

/**
 * The entity table (alias `t`) with every row-level restriction applied: logical delete, tenant,
 * the user's data rules for `<permission>:list` and the domain's listScope hooks.
 */
export async function scopedQuery(h: HookContext, db: DB = h.db): Promise<EntityQuery> {
  const e = h.entity;
  let qb: EntityQuery = db.selectFrom(`${e.table} as t`);
  const del = delFlagField(e);
  if (del) qb = qb.where(sql.ref(`t.${columnOf(del)}`), '=', del.type === 'string' ? '0' : 0);
  if (e.scope?.tenant) {
    const f = allFields(e).find((x) => x.name === e.scope!.tenant)!;
    qb = qb.where(sql.ref(`t.${columnOf(f)}`), '=', f.type === 'string' ? String(h.user.tenantId) : h.user.tenantId);
  }
  if (e.permission) {
    const rules = await loadDataRules(db, h.user.id, `${e.permission}:list`);
    if (rules.length) {
      const conds = dataRuleConditions(e, rules, h.user);
      if (conds.includes('deny')) {
        h.req.log.warn({ entity: e.name }, 'a data rule cannot be applied safely; access denied');
        qb = qb.where(sql<boolean>`false`);
      } else {
        for (const c of conds as Condition[]) qb = qb.where((eb) => conditionSql(eb, c));
      }
    }
  }
  for (const hk of hooksOf(e.name)) if (hk.listScope) qb = hk.listScope(h, qb);
  return qb;
}

/** A client-sent id converted to the primary key's type; undefined when it cannot be one (= not found). */
export function pkValue(e: EntitySchema, raw: unknown): string | number | undefined {
  const pk = primaryField(e);
  const v = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!v) return undefined;
  if (pk.type === 'string') return v.length <= (pk.length ?? 255) ? v : undefined;
  try {
    return coerce(pk, v) as string | number;
  } catch {
    return undefined;
  }
}
const pkValues = (e: EntitySchema, raw: string[]) => [...new Set(raw.map((x) => pkValue(e, x)).filter((x): x is string | number => x !== undefined))];

const selectPublic = (e: EntitySchema, qb: EntityQuery) => qb.select(publicFields(e).map((f) => sql.ref(`t.${columnOf(f)}`).as(columnOf(f))));

const LOOKUP_CACHE_MS = 60_000;

const texts = new WeakMap<DictModel[], Map<string, string>>();
/** value → text of one (cached) dictionary. */
function textsOf(items: DictModel[]): Map<string, string> {
  let m = texts.get(items);
  if (!m) texts.set(items, (m = new Map(items.map((d) => [d.value, d.text]))));
  return m;
}

/** Adds `<field>_dictText` for system and table dictionaries (comma-separated multi-values too). */
export async function addDictText(ctx: ServerContext, e: EntitySchema, rows: Row[]): Promise<Row[]> {
  const dictFields = publicFields(e).filter((f) => f.dict || f.dictTable);
  if (!dictFields.length || !rows.length) return rows;
  const sys = dictFields.some((f) => f.dict) ? await allDictItems(ctx.db) : {};
  for (const f of dictFields) {
    let map: Map<string, string>;
    if (f.dict) {
      map = textsOf(sys[f.dict] ?? []);
    } else {
      const { table, text, code } = f.dictTable!;
      const keys = [...new Set(rows.flatMap((r) => String(r[f.name] ?? '').split(',')).filter(Boolean))];
      map = new Map();
      if (keys.length) {
        const found = await cachedRows(ctx.db, ctx.db.selectFrom(table).select([sql.ref(code).as('c'), sql.ref(text).as('t')]).where(sql.ref(code), 'in', keys), LOOKUP_CACHE_MS);
        for (const x of found) map.set(String(x.c), String(x.t ?? ''));
      }
    }
    for (const r of rows) {
      const v = r[f.name];
      if (v === null || v === undefined || v === '') r[`${f.name}_dictText`] = '';
      else {
        const s = String(v); // one code, or several joined by commas
        r[`${f.name}_dictText`] = s.includes(',') ? s.split(',').map((k) => map.get(k) ?? k).join(',') : (map.get(s) ?? s);
      }
    }
  }
  return rows;
}

async function finish(h: HookContext, raw: Record<string, unknown>[], purpose: ReadPurpose): Promise<Row[]> {
  let rows = await addDictText(h.db === h.ctx.db ? h.ctx : { ...h.ctx, db: h.db }, h.entity, raw.map((r) => toWire(h.entity, r)));
  for (const hk of hooksOf(h.entity.name)) if (hk.decorateRows) rows = await hk.decorateRows(h, rows, purpose);
  return rows;
}

/** Filters (plain + super query) of a list request applied to a scoped query. */
export function applyFilters(e: EntitySchema, qb: EntityQuery, q: Query): EntityQuery {
  for (const c of plainConditions(e, q)) qb = qb.where((eb) => conditionSql(eb, c));
  const sq = superConditions(e, q);
  if (sq.conditions.length) {
    qb = qb.where((eb) => {
      const parts = sq.conditions.map((c) => conditionSql(eb, c));
      return sq.match === 'or' ? eb.or(parts) : eb.and(parts);
    });
  }
  return qb;
}

function applySort(e: EntitySchema, qb: EntityQuery, q: Query): EntityQuery {
  for (const s of parseSort(e, q)) qb = qb.orderBy(sql.ref(`t.${columnOf(s.field)}`), (ob) => (s.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()));
  return qb.orderBy(sql.ref(`t.${columnOf(primaryField(e))}`));
}

/** List totals are exact up to this many matching rows; beyond it they are the planner's estimate. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * The `total` of a list page: counts at most EXACT_COUNT_LIMIT + 1 matching rows, so a page costs
 * the same on a table of a million rows as on one of ten thousand. Past the limit the answer is
 * PostgreSQL's row estimate for the same query (never below the limit + 1): the pager only needs the
 * order of magnitude there, and nobody pages to row 500,000 — they narrow the search.
 */
/** One row per match of a list's scoped, filtered query (what its total counts). */
const matchingOf = (base: EntityQuery) => base.clearSelect().select(sql`1`.as('x'));

export async function countRows(db: DB, base: EntityQuery): Promise<number> {
  const matching = matchingOf(base);
  const bounded = await db.selectFrom(matching.limit(EXACT_COUNT_LIMIT + 1).as('c')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const n = Number(bounded.n);
  if (n <= EXACT_COUNT_LIMIT) return n;
  const plan = await sql<Record<string, unknown>>`explain (format json) ${matching}`.execute(db);
  const cell = Object.values(plan.rows[0] ?? {})[0];
  const json = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan?: { 'Plan Rows'?: number } }>;
  return Math.max(n, Math.round(Number(json?.[0]?.Plan?.['Plan Rows'] ?? 0)));
}

/** How long a list total may be reused while none of the tables it read is written (read-cache.ts). */
export const COUNT_CACHE_MS = 10_000;

/** countRows through the read cache: paging through a list counts its filter once, not per page. */
export function cachedCount(db: DB, base: EntityQuery): Promise<number> {
  return cachedQuery(db, 'count', matchingOf(base), COUNT_CACHE_MS, () => countRows(db, base));
}

export async function listRows(h: HookContext, q: Query): Promise<Page<Row>> {
  const e = h.entity;
  const { pageNo, pageSize } = parsePaging(q);
  const base = applyFilters(e, await scopedQuery(h), q);
  const sorted = applySort(e, base, q); // validates the sort before any query runs
  const total = await cachedCount(h.db, base);
  const offset = (pageNo - 1) * pageSize;
  // An exact total at or below the offset means an empty page: no need to scan for it.
  const raw = total <= EXACT_COUNT_LIMIT && offset >= total ? [] : await selectPublic(e, sorted).limit(pageSize).offset(offset).execute();
  return page(await finish(h, raw, 'list'), total, pageNo, pageSize);
}

/**
 * Rows for export: the list's filters and sort, or only `selections`, at most `cap`. With `refuseOver`
 * more matching rows are refused with a clear message before any row is read (an .xlsx export is
 * built in memory); without it the rows are cut at `cap`.
 */
export async function exportRows(h: HookContext, q: Query, cap: number, refuseOver = false): Promise<Row[]> {
  const e = h.entity;
  let qb = applyFilters(e, await scopedQuery(h), q);
  const rawSel = typeof q.selections === 'string' ? q.selections.split(',').filter(Boolean) : [];
  if (rawSel.length) {
    const sel = pkValues(e, rawSel);
    qb = sel.length ? qb.where(sql.ref(`t.${columnOf(primaryField(e))}`), 'in', sel) : qb.where(sql<boolean>`false`);
  }
  if (refuseOver && (await qb.select(sql`1`.as('x')).offset(cap).limit(1).executeTakeFirst()))
    throw new BizError(`导出的数据超过${cap}条，请缩小查询范围（如按学期、部门或日期筛选）后再导出`);
  const raw = await selectPublic(e, applySort(e, qb, q)).limit(cap).execute();
  return finish(h, raw, 'export');
}

export async function getRow(h: HookContext, rawId: unknown, db: DB = h.db): Promise<Row | undefined> {
  const e = h.entity;
  const id = pkValue(e, rawId);
  if (id === undefined) return undefined;
  const r = await selectPublic(e, (await scopedQuery(h, db)).where(sql.ref(`t.${columnOf(primaryField(e))}`), '=', id)).executeTakeFirst();
  if (!r) return undefined;
  return (await finish({ ...h, db }, [r], 'get'))[0];
}

/** University roles (data scope `all`: the quality office, supervisors, the administrator) write everything. */
const writesAll = (h: HookContext) => scopeOf(h.user) === 'all';

/**
 * The write scope of an entity (`scope.write`, issue 27 rule 2), checked on every add, edit (old and
 * new row), delete and import row: university-wide data only by university roles; department data
 * only within the caller's department subtree. Refuses the whole request (nothing is written).
 */
export async function assertWriteScope(h: HookContext, rows: Row[], db: DB = h.db): Promise<void> {
  const w = h.entity.scope?.write;
  if (!w || !rows.length || writesAll(h)) return;
  const title = h.entity.title;
  if (w === 'university') throw new BizError(`“${title}”是全校统一的数据，只有学校管理部门可以修改`);
  let departIds: string[];
  if ('departField' in w) departIds = rows.map((r) => (r[w.departField] === null || r[w.departField] === undefined ? '' : String(r[w.departField])));
  else {
    const refs = [...new Set(rows.map((r) => String(r[w.via] ?? '')).filter(Boolean))];
    const found = refs.length ? await db.selectFrom(w.table).select([sql.ref('id').as('id'), sql.ref(w.column).as('d')]).where('id', 'in', refs).execute() : [];
    const byId = new Map(found.map((f) => [String(f.id), f.d === null || f.d === undefined ? '' : String(f.d)]));
    departIds = rows.map((r) => byId.get(String(r[w.via] ?? '')) ?? '');
  }
  if (departIds.some((d) => !d)) throw new BizError(`不属于任何部门的${title}是全校公共数据，只有学校管理部门可以修改`);
  const ids = [...new Set(departIds)];
  const inside = await db.selectFrom('sys_depart').select('id').where('id', 'in', ids).where('org_code', 'like', subtree(h.user.orgCode)).execute();
  if (inside.length !== ids.length) throw new BizError(`只能新增、修改或删除本部门及下级部门的${title}`);
}

/** On add by a department role: the owning department defaults to the caller's current department. */
export async function defaultOwner(h: HookContext, row: Row, db: DB = h.db): Promise<void> {
  const w = h.entity.scope?.write;
  if (!w || w === 'university' || !('departField' in w) || writesAll(h)) return;
  if (row[w.departField] !== undefined && row[w.departField] !== null && row[w.departField] !== '') return;
  const d = await db.selectFrom('sys_depart').select('id').where('org_code', '=', h.user.orgCode).where('del_flag', '=', '0').executeTakeFirst();
  if (d) row[w.departField] = String(d.id);
}

/** Runs `fn` in the caller's transaction when there is one, else in a new one. */
export async function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

/**
 * Fields a client may set: not readonly, not secret, not audit, not tenant scope; the primary key
 * only when it is client-chosen (non-string keys such as tenant numbers; string ids are generated).
 */
export function writableFields(e: EntitySchema): EntityField[] {
  const scopeFields = new Set([e.scope?.tenant].filter(Boolean));
  return e.fields.filter((f) => (f.primary ? f.type !== 'string' : true) && !f.readonly && !f.secret && !scopeFields.has(f.name));
}

async function checkUnique(db: DB, e: EntitySchema, values: Row, id: string | number | undefined) {
  for (const f of e.fields) {
    // a client-chosen (non-string) primary key is checked on add like a unique field
    const pkOnAdd = f.primary && f.type !== 'string' && id === undefined;
    if (!(f.unique || pkOnAdd) || (f.primary && !pkOnAdd) || values[f.name] === null || values[f.name] === undefined) continue;
    let q = db.selectFrom(e.table).select(sql`1`.as('x')).where(sql.ref(columnOf(f)), '=', values[f.name]);
    if (id) q = q.where(sql.ref(columnOf(primaryField(e))), '<>', id);
    const del = delFlagField(e);
    if (del) q = q.where(sql.ref(columnOf(del)), '=', del.type === 'string' ? '0' : 0);
    if (await q.executeTakeFirst()) throw new BizError(`${label(f)}“${String(values[f.name])}”已存在，不能重复`);
  }
}

/** Validates a client body into the wire row to write (only writable fields; others ignored). */
export function validateInput(e: EntitySchema, input: Row, mode: SaveMode): Row {
  const row: Row = {};
  for (const f of writableFields(e)) {
    const present = Object.prototype.hasOwnProperty.call(input, f.name);
    if (!present) {
      if (mode === 'add' && f.required && f.default === undefined) throw new BizError(`${label(f)}不能为空`);
      continue;
    }
    row[f.name] = checkValue(f, input[f.name]);
  }
  return row;
}

function toColumns(e: EntitySchema, row: Row): Record<string, unknown> {
  const byName = new Map(allFields(e).map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    const f = byName.get(k);
    if (f) out[columnOf(f)] = f.type === 'json' && v !== null && typeof v !== 'string' ? JSON.stringify(v) : v;
  }
  return out;
}

function isUniqueViolation(err: unknown) {
  return !!err && typeof err === 'object' && 'code' in err && (err as { code?: string }).code === '23505';
}

/** add/edit through validation, scopes, audit fields and hooks, in one transaction. */
export async function saveRow(h: HookContext, input: Row, mode: SaveMode): Promise<Row> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new BizError('请求内容格式不正确');
  const e = h.entity;
  const pk = primaryField(e);
  const row = validateInput(e, input, mode);
  return inTransaction(h.db, async (trx) => {
    const th: HookContext = { ...h, db: trx };
    let old: Row | undefined;
    let id: string | number;
    if (mode === 'edit') {
      const given = pkValue(e, input[pk.name]);
      old = given === undefined ? undefined : await getRow(th, given, trx);
      if (!old || given === undefined) throw new BizError('未找到对应数据');
      await assertWriteScope(th, [old], trx);
      id = given;
      for (const f of e.fields) if (f.required && Object.prototype.hasOwnProperty.call(row, f.name) && row[f.name] === null) throw new BizError(`${label(f)}不能为空`);
    } else {
      if (pk.type === 'string') row[pk.name] = newId();
      else if (row[pk.name] === null || row[pk.name] === undefined) throw new BizError(`${label(pk)}不能为空`);
      id = row[pk.name] as string | number;
      if (e.scope?.tenant) row[e.scope.tenant] = h.user.tenantId;
      if (e.scope?.department && (row[e.scope.department] === undefined || row[e.scope.department] === null)) row[e.scope.department] = h.user.orgCode;
      await defaultOwner(th, row, trx);
    }
    if (e.audit !== false) {
      if (mode === 'add') Object.assign(row, { createBy: h.user.username, createTime: now() });
      else Object.assign(row, { updateBy: h.user.username, updateTime: now() });
    }
    for (const hk of hooksOf(e.name)) if (hk.beforeSave) await hk.beforeSave(th, row, mode, old, input);
    await checkUnique(trx, e, row, mode === 'edit' ? id : undefined);
    try {
      if (mode === 'add') await trx.insertInto(e.table).values(toColumns(e, row)).execute();
      else {
        delete row[pk.name];
        const cols = toColumns(e, row);
        if (Object.keys(cols).length) await trx.updateTable(e.table).set(cols).where(sql.ref(columnOf(pk)), '=', id).execute();
        row[pk.name] = id;
      }
    } catch (err) {
      if (isUniqueViolation(err)) throw new BizError('数据重复，已存在相同的记录');
      throw err;
    }
    for (const hk of hooksOf(e.name)) if (hk.afterSave) await hk.afterSave(th, row, mode, input);
    // Re-read through the scopes: a row saved outside the user's tenant, data rules or domain
    // scope (e.g. a department the user may not write to) is refused and rolled back.
    const saved = await getRow(th, id, trx);
    if (!saved) throw new BizError('保存后的数据超出了您的数据权限范围，已取消保存');
    await assertWriteScope(th, [saved], trx);
    return saved;
  });
}

/** delete/deleteBatch: all ids must be in scope, else nothing is deleted. Logical delete when the entity has delFlag. */
export async function deleteRows(h: HookContext, ids: string[]): Promise<number> {
  const e = h.entity;
  const pk = primaryField(e);
  const asked = [...new Set(ids.map((s) => s.trim()).filter(Boolean))];
  if (!asked.length) throw new BizError('请选择要删除的数据');
  const wanted = pkValues(e, asked);
  if (wanted.length !== asked.length) throw new BizError(asked.length === 1 ? '未找到对应数据' : '部分数据不存在或无权删除，未删除任何数据');
  if (wanted.length > 1000) throw new BizError('一次最多删除1000条数据');
  return inTransaction(h.db, async (trx) => {
    const th: HookContext = { ...h, db: trx };
    const found = await selectPublic(e, (await scopedQuery(th, trx)).where(sql.ref(`t.${columnOf(pk)}`), 'in', wanted)).execute();
    if (found.length !== wanted.length) throw new BizError(wanted.length === 1 ? '未找到对应数据' : '部分数据不存在或无权删除，未删除任何数据');
    const rows = found.map((r) => toWire(e, r));
    await assertWriteScope(th, rows, trx);
    for (const hk of hooksOf(e.name)) if (hk.beforeDelete) await hk.beforeDelete(th, rows);
    const del = delFlagField(e);
    if (del) await trx.updateTable(e.table).set({ [columnOf(del)]: del.type === 'string' ? '1' : 1 }).where(sql.ref(columnOf(pk)), 'in', wanted).execute();
    else await trx.deleteFrom(e.table).where(sql.ref(columnOf(pk)), 'in', wanted).execute();
    return wanted.length;
  });
}
