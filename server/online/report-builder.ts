import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { addDictText, hookContext, scopedQuery, toWire } from '../crud/engine.js';
import type { EntityQuery } from '../crud/hooks.js';
import { allFields, columnOf, primaryField, type EntityField, type EntityRelation, type EntitySchema } from '../crud/entity-types.js';
import { seesEverything } from '../sys/permission-tree.js';
import type { ReportColumnSpec, ReportOutput, ReportSpec } from '../../shared/report-spec.js';

/**
 * 报表配置's query builder (issue 31), server half: a report is a stored structure — never SQL text — that
 * is compiled here with Kysely over an allow-listed entity and its non-secret fields, on the entity's
 * scoped query (logical delete, tenant, the user's data rules and the domain's list scope: the same rows
 * the user's list shows). Joins only along the relations the entity schema declares (many-to-one), group
 * by, aggregates, filters with bound parameters, order, a row limit.
 *
 * A field is `name` (the base entity) or `<relation>.<name>` (a joined entity); its output key is the
 * name with the dot replaced by `_` (`teacherDepart_departName`).
 */
export type { ReportColumnSpec, ReportOutput, ReportParamSpec, ReportSpec } from '../../shared/report-spec.js';

const OPS = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=', like: 'like' } as const;
const FNS = new Set(['count', 'sum', 'avg', 'min', 'max']);
const FN_TEXT: Record<string, string> = { count: '计数', sum: '合计', avg: '平均', min: '最小', max: '最大' };
const NUMERIC = new Set(['integer', 'bigint', 'number']);
const ALIAS = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const MAX_LIMIT = 5000;
const DETAIL_LIMIT = 200;

const mayList = (req: FastifyRequest, e: EntitySchema) => seesEverything(req.user!) || (!!e.permission && req.user!.perms.has(`${e.permission}:list`));
const usable = (e: EntitySchema) => allFields(e).filter((f) => !f.secret);

/** The base entity for this user; refuses anything not allow-listed. */
export function baseEntity(ctx: ServerContext, req: FastifyRequest, name: unknown): EntitySchema {
  const e = typeof name === 'string' ? ctx.entities.byName.get(name) : undefined;
  if (!e || e.name.startsWith('sys_') || e.name.startsWith('onl_') || !e.permission) throw new BizError(`报表不能使用实体“${String(name ?? '').slice(0, 60)}”`);
  if (!mayList(req, e)) throw new BizError(`无权使用实体“${e.title}”`);
  return e;
}

/** The fields a report may read of a relation's target: its listed ones, else (the author may list it) every non-secret one. */
function relationFields(ctx: ServerContext, req: FastifyRequest, base: EntitySchema, r: EntityRelation): { t: EntitySchema; fields: EntityField[] } {
  const t = ctx.entities.byName.get(r.entity);
  if (!t) throw new BizError(`关联“${r.title}”的实体不存在`);
  if (r.fields?.length) return { t, fields: usable(t).filter((f) => r.fields!.includes(f.name)) };
  if (t.name.startsWith('sys_') || !t.permission) return { t, fields: [] };
  if (!mayList(req, t)) throw new BizError(`无权使用关联“${r.title}”（${t.title}）`);
  return { t, fields: usable(t) };
}

/** The entities an author may start a report from, with their fields and relations (the builder's choices). */
export function reportModel(ctx: ServerContext, req: FastifyRequest) {
  const out = [];
  for (const e of ctx.entities.byName.values()) {
    if (e.name.startsWith('sys_') || e.name.startsWith('onl_') || !e.permission || !mayList(req, e)) continue;
    const field = (f: EntityField) => ({ name: f.name, title: f.title ?? f.name, type: f.type, dict: f.dict });
    const relations = [];
    for (const r of e.relations ?? []) {
      try {
        const { t, fields } = relationFields(ctx, req, e, r);
        relations.push({ name: r.name, title: r.title, entity: t.name, entityTitle: t.title, fields: fields.map(field) });
      } catch {
        /* a relation the author may not read is not offered */
      }
    }
    out.push({ name: e.name, title: e.title, fields: usable(e).filter((f) => !f.primary).map(field), relations });
  }
  return out.sort((a, b) => a.title.localeCompare(b.title, 'zh-CN'));
}

interface Resolved {
  f: EntityField;
  key: string;
  ref: ReturnType<typeof sql.ref>;
  title: string;
}

/** Compiles a spec: the query (not yet limited) and what its rows hold. */
export async function compileReport(ctx: ServerContext, req: FastifyRequest, spec: ReportSpec, params: Record<string, unknown>, drill?: Record<string, unknown>) {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new BizError('报表定义不正确');
  const e = baseEntity(ctx, req, spec.entity);
  let qb: EntityQuery = await scopedQuery(hookContext(ctx, req, e));
  const baseFields = new Map(usable(e).map((f) => [f.name, f]));
  const joined = new Map<string, { r: EntityRelation; t: EntitySchema; fields: Map<string, EntityField> }>();
  if (spec.joins !== undefined && !Array.isArray(spec.joins)) throw new BizError('/joins：应为关联名称的列表');
  (spec.joins ?? []).forEach((name, i) => {
    const r = (e.relations ?? []).find((x) => x.name === name);
    if (!r) throw new BizError(`/joins/${i}：实体“${e.title}”没有关联“${String(name).slice(0, 60)}”`);
    if (joined.has(r.name)) return;
    const { t, fields } = relationFields(ctx, req, e, r);
    const key = r.key ? allFields(t).find((f) => f.name === r.key)! : primaryField(t);
    const from = baseFields.get(r.field)!;
    const alias = `j_${r.name}`;
    qb = qb.leftJoin(`${t.table} as ${alias}`, (jn) => {
      let on = jn.onRef(`${alias}.${columnOf(key)}`, '=', `t.${columnOf(from)}`);
      const del = allFields(t).find((f) => f.name === 'delFlag');
      if (del) on = on.on(sql.ref(`${alias}.${columnOf(del)}`), '=', del.type === 'string' ? '0' : 0);
      const tenant = allFields(t).find((f) => f.name === (t.scope?.tenant ?? 'tenantId'));
      if (tenant && req.user!.tenantId !== undefined && req.user!.tenantId !== null)
        on = on.on((eb) => eb.or([eb(sql.ref(`${alias}.${columnOf(tenant)}`), '=', tenant.type === 'string' ? String(req.user!.tenantId) : req.user!.tenantId), eb(sql.ref(`${alias}.${columnOf(tenant)}`), 'is', null)]));
      return on;
    });
    joined.set(r.name, { r, t, fields: new Map(fields.map((f) => [f.name, f])) });
  });
  const resolve = (n: unknown, at: string): Resolved => {
    if (typeof n !== 'string' || n.length > 80) throw new BizError(`${at}：字段不正确`);
    const dot = n.indexOf('.');
    if (dot < 0) {
      const f = baseFields.get(n);
      if (!f) throw new BizError(`${at}：实体“${e.title}”没有字段“${n}”`);
      return { f, key: n, ref: sql.ref(`t.${columnOf(f)}`), title: f.title ?? n };
    }
    const rel = n.slice(0, dot);
    const j = joined.get(rel);
    if (!j) throw new BizError(`${at}：“${rel}”不是已添加的关联`);
    const f = j.fields.get(n.slice(dot + 1));
    if (!f) throw new BizError(`${at}：关联“${j.r.title}”没有可用字段“${n.slice(dot + 1)}”`);
    return { f, key: `${rel}_${f.name}`, ref: sql.ref(`j_${rel}.${columnOf(f)}`), title: `${j.r.title}·${f.title ?? f.name}` };
  };
  const colSpec = (c: unknown, at: string): ReportColumnSpec => {
    if (typeof c === 'string') return { field: c };
    if (!c || typeof c !== 'object') throw new BizError(`${at}：列定义不正确`);
    return c as ReportColumnSpec;
  };
  const outOf = (r: Resolved, c: ReportColumnSpec): ReportOutput => ({
    key: r.key,
    label: typeof c.label === 'string' && c.label.trim() ? c.label.trim().slice(0, 40) : r.title,
    type: r.f.type,
    dict: typeof c.dict === 'string' && c.dict ? c.dict : r.f.dict,
    format: typeof c.format === 'string' ? c.format : undefined,
    link: c.link === true || undefined,
  });
  const outputs: ReportOutput[] = [];
  const aggregates = spec.aggregates ?? [];
  if (!Array.isArray(aggregates)) throw new BizError('/aggregates：应为列表');
  const columns = (spec.columns ?? []).map((c, i) => colSpec(c, `/columns/${i}`));
  const grouped = !!aggregates.length || !!spec.groupBy?.length;
  const pk = primaryField(e);
  const idRef = sql.ref(`t.${columnOf(pk)}`);

  if (drill && grouped) {
    // A grouped row's records: the dimensions equal to the row's values, the detail columns, the record id.
    const dims = (spec.groupBy?.length ? spec.groupBy : columns.map((c) => c.field)).map((n, i) => resolve(n, `/groupBy/${i}`));
    for (const d of dims) {
      const v = drill[d.key];
      if (v !== null && typeof v === 'object') throw new BizError('明细条件不正确');
      qb = v === null || v === undefined ? qb.where(d.ref, 'is', null) : qb.where(d.ref, '=', v as string | number);
    }
    const detail = (spec.detail?.length ? spec.detail : columns).map((c, i) => colSpec(c, `/detail/${i}`));
    const res = detail.map((c, i) => [resolve(c.field, `/detail/${i}/field`), c] as const);
    qb = qb.select([idRef.as('__id'), ...res.map(([r]) => sql`${r.ref}`.as(r.key))]);
    outputs.push(...res.map(([r, c]) => outOf(r, c)));
  } else if (!grouped) {
    const cols = columns.length ? columns : [{ field: pk.name }];
    const res = cols.map((c, i) => [resolve(c.field, `/columns/${i}/field`), c] as const);
    qb = qb.select([...res.map(([r]) => sql`${r.ref}`.as(r.key)), idRef.as('__id')]);
    outputs.push(...res.map(([r, c]) => outOf(r, c)));
  } else {
    const names = spec.groupBy?.length ? spec.groupBy : columns.map((c) => c.field);
    const dims = names.map((n, i) => resolve(n, `/groupBy/${i}`));
    columns.forEach((c, i) => {
      if (!names.includes(c.field)) throw new BizError(`/columns/${i}：分组统计时列“${c.field}”必须是分组字段`);
    });
    qb = qb.select(dims.map((d) => sql`${d.ref}`.as(d.key)));
    dims.forEach((d) => outputs.push(outOf(d, columns.find((c) => c.field === names[dims.indexOf(d)]) ?? { field: d.key })));
    aggregates.forEach((a, i) => {
      if (!a || typeof a !== 'object' || !FNS.has(a.fn)) throw new BizError(`/aggregates/${i}/fn：不支持的统计“${String(a?.fn).slice(0, 40)}”`);
      if (!ALIAS.test(a.as ?? '')) throw new BizError(`/aggregates/${i}/as：名称只允许字母、数字、下划线`);
      if (outputs.some((o) => o.key === a.as)) throw new BizError(`/aggregates/${i}/as：名称“${a.as}”重复`);
      const label = typeof a.label === 'string' && a.label.trim() ? a.label.trim().slice(0, 40) : undefined;
      if (a.fn === 'count' && !a.field) {
        qb = qb.select(sql<number>`count(*)::int`.as(a.as));
        outputs.push({ key: a.as, label: label ?? '记录数', type: 'integer' });
        return;
      }
      const r = resolve(a.field, `/aggregates/${i}/field`);
      if ((a.fn === 'sum' || a.fn === 'avg') && !NUMERIC.has(r.f.type)) throw new BizError(`/aggregates/${i}/field：“${r.title}”不是数值字段`);
      const expr = { count: sql`count(${r.ref})::int`, sum: sql`sum(${r.ref})`, avg: sql`round(avg(${r.ref}), 2)`, min: sql`min(${r.ref})`, max: sql`max(${r.ref})` }[a.fn];
      qb = qb.select(expr.as(a.as));
      outputs.push({ key: a.as, label: label ?? `${r.title}${FN_TEXT[a.fn]}`, type: a.fn === 'count' ? 'integer' : a.fn === 'min' || a.fn === 'max' ? r.f.type : 'number' });
    });
    if (dims.length) qb = qb.groupBy(dims.map((d) => d.ref));
  }

  const declared = new Map((Array.isArray(spec.params) ? spec.params : []).map((p) => [p?.name, p]));
  if (!Array.isArray(spec.filters ?? [])) throw new BizError('/filters：应为列表');
  (spec.filters ?? []).forEach((c, i) => {
    const r = resolve(c?.field, `/filters/${i}/field`);
    const op = OPS[c.op];
    if (!op) throw new BizError(`/filters/${i}/op：不支持的条件“${String(c.op).slice(0, 20)}”`);
    if (c.param !== undefined && declared.size && !declared.has(c.param)) throw new BizError(`/filters/${i}/param：参数“${String(c.param).slice(0, 40)}”未定义`);
    const value = c.param !== undefined ? params[c.param] : c.value;
    if (value === undefined || value === '' || value === null) return; // an empty parameter filters nothing
    if (typeof value === 'object') throw new BizError(`/filters/${i}：条件值不正确`);
    if (String(value).length > 200) throw new BizError(`/filters/${i}：条件值太长`);
    qb = qb.where(r.ref, op, op === 'like' ? `%${String(value).replace(/[%_\\]/g, '\\$&')}%` : value);
  });
  if (!drill || !grouped) {
    const keys = new Set(outputs.map((o) => o.key));
    (spec.orderBy ?? []).forEach((o, i) => {
      const key = typeof o?.field === 'string' ? o.field.replace('.', '_') : '';
      if (!keys.has(key)) throw new BizError(`/orderBy/${i}/field：只能按报表的列排序`);
      qb = qb.orderBy(sql.id(key), o.desc ? 'desc' : 'asc');
    });
  }
  if (spec.limit !== undefined && spec.limit !== null && (!Number.isInteger(spec.limit) || spec.limit < 1 || spec.limit > MAX_LIMIT)) throw new BizError(`/limit：行数上限应为 1 到 ${MAX_LIMIT} 的整数`);
  const limit = drill && grouped ? DETAIL_LIMIT : (spec.limit ?? 1000);
  const dims = grouped ? outputs.filter((o) => !aggregates.some((a) => a?.as === o.key)).map((o) => o.key) : [];
  return { e, qb: qb.limit(limit), outputs, grouped, dims };
}

/** The outputs as an entity, so dictionary texts and Excel reuse the CRUD engine. */
export function outputEntity(name: string, outputs: ReportOutput[]): EntitySchema {
  return { name: 'rpt_builder', table: 'rpt_builder', title: name, audit: false, fields: outputs.map((o) => ({ name: o.key, column: o.key, type: o.type, title: o.label, dict: o.dict, excel: o.label })) };
}

export async function runReport(ctx: ServerContext, req: FastifyRequest, spec: ReportSpec, params: Record<string, unknown> = {}, drill?: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  return (await runReportWithMeta(ctx, req, spec, params, drill)).rows;
}

export async function runReportWithMeta(ctx: ServerContext, req: FastifyRequest, spec: ReportSpec, params: Record<string, unknown> = {}, drill?: Record<string, unknown>) {
  const { e, qb, outputs, grouped, dims } = await compileReport(ctx, req, spec, params ?? {}, drill);
  const raw = (await qb.execute()) as Array<Record<string, unknown>>;
  const pseudo = outputEntity(e.title, outputs);
  const rows = await addDictText(ctx, pseudo, raw.map((r) => (r.__id === undefined ? toWire(pseudo, r) : { ...toWire(pseudo, r), __id: String(r.__id) })));
  return { e, rows, outputs, grouped, dims, pseudo };
}

export async function registerReportBuilder(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const design = { config: { auth: 'online:cgreport:design' } };
  // The entities, fields and relations the author may build on.
  api.get('/online/cgreport/design/model', design, async (req) => ok(reportModel(ctx, req)));
  // Preview of a report structure with parameters (报表配置's designer; the structure, never SQL).
  api.post('/online/cgreport/design/preview', design, async (req) => {
    const body = (req.body ?? {}) as { spec?: ReportSpec; params?: Record<string, unknown> };
    return ok(await runReport(ctx, req, body.spec as ReportSpec, body.params ?? {}));
  });
}
