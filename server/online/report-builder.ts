import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { hookContext, scopedQuery } from '../crud/engine.js';
import { allFields, columnOf, type EntityField, type EntitySchema } from '../crud/entity-types.js';
import { seesEverything } from '../sys/permission-tree.js';

/**
 * 报表配置's query builder (issue 31), server half: a report is a stored structure — never SQL text — that
 * is compiled here with Kysely over an allow-listed entity and its non-secret fields, on the entity's
 * scoped query (logical delete, tenant, the user's data rules and the domain's list scope: the same rows
 * the user's list shows). Group by, aggregates, filters with bound parameters, order, a row limit.
 * Not yet: joins along declared relations (entity schemas declare none so far).
 */
export interface ReportSpec {
  entity: string;
  groupBy?: string[];
  aggregates?: Array<{ fn: 'count' | 'sum' | 'avg' | 'min' | 'max'; field?: string; as: string }>;
  /** Plain columns when there is no group by. */
  columns?: string[];
  filters?: Array<{ field: string; op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like'; value?: unknown; param?: string }>;
  orderBy?: Array<{ field: string; desc?: boolean }>;
  limit?: number;
}

const OPS = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=', like: 'like' } as const;
const FNS = new Set(['count', 'sum', 'avg', 'min', 'max']);
const NUMERIC = new Set(['integer', 'bigint', 'number']);
const ALIAS = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** The entity and its usable fields for this user; refuses anything not allow-listed. */
export function reportEntity(ctx: ServerContext, req: FastifyRequest, name: unknown): { e: EntitySchema; field: (n: unknown, at: string) => EntityField } {
  const e = typeof name === 'string' ? ctx.entities.byName.get(name) : undefined;
  if (!e || e.name.startsWith('sys_') || !e.permission) throw new BizError(`报表不能使用实体“${String(name ?? '')}”`);
  if (!seesEverything(req.user!) && !req.user!.perms.has(`${e.permission}:list`)) throw new BizError(`无权使用实体“${e.name}”`);
  const fields = new Map(allFields(e).filter((f) => !f.secret).map((f) => [f.name, f]));
  return {
    e,
    field: (n, at) => {
      const f = typeof n === 'string' ? fields.get(n) : undefined;
      if (!f) throw new BizError(`${at}：实体“${e.name}”没有字段“${String(n ?? '')}”`);
      return f;
    },
  };
}

export async function runReport(ctx: ServerContext, req: FastifyRequest, spec: ReportSpec, params: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> {
  if (!spec || typeof spec !== 'object') throw new BizError('报表定义不正确');
  const { e, field } = reportEntity(ctx, req, spec.entity);
  const ref = (f: EntityField) => sql.ref(`t.${columnOf(f)}`);
  let qb = await scopedQuery(hookContext(ctx, req, e));
  const groupBy = (spec.groupBy ?? []).map((n, i) => field(n, `/groupBy/${i}`));
  const aggregates = spec.aggregates ?? [];
  if (!groupBy.length && !aggregates.length) {
    const cols = (spec.columns?.length ? spec.columns : ['id']).map((n, i) => field(n, `/columns/${i}`));
    qb = qb.select(cols.map((f) => sql`${ref(f)}`.as(f.name)));
  } else {
    qb = qb.select(groupBy.map((f) => sql`${ref(f)}`.as(f.name)));
    aggregates.forEach((a, i) => {
      if (!FNS.has(a.fn)) throw new BizError(`/aggregates/${i}/fn：不支持的统计“${String(a.fn)}”`);
      if (!ALIAS.test(a.as ?? '')) throw new BizError(`/aggregates/${i}/as：名称只允许字母、数字、下划线`);
      if (a.fn === 'count' && !a.field) {
        qb = qb.select(sql<number>`count(*)::int`.as(a.as));
        return;
      }
      const f = field(a.field, `/aggregates/${i}/field`);
      if ((a.fn === 'sum' || a.fn === 'avg') && !NUMERIC.has(f.type)) throw new BizError(`/aggregates/${i}/field：“${f.name}”不是数值字段`);
      const expr = { count: sql`count(${ref(f)})::int`, sum: sql`sum(${ref(f)})`, avg: sql`round(avg(${ref(f)}), 2)`, min: sql`min(${ref(f)})`, max: sql`max(${ref(f)})` }[a.fn];
      qb = qb.select(expr.as(a.as));
    });
    if (groupBy.length) qb = qb.groupBy(groupBy.map((f) => ref(f)));
  }
  (spec.filters ?? []).forEach((c, i) => {
    const f = field(c.field, `/filters/${i}/field`);
    const op = OPS[c.op];
    if (!op) throw new BizError(`/filters/${i}/op：不支持的条件“${String(c.op)}”`);
    const value = c.param !== undefined ? params[c.param] : c.value;
    if (value === undefined || value === '' || value === null) return; // an empty parameter filters nothing
    if (typeof value === 'object') throw new BizError(`/filters/${i}：条件值不正确`);
    qb = qb.where(ref(f), op, op === 'like' ? `%${String(value).replace(/[%_\\]/g, '\\$&')}%` : value);
  });
  const outputs = new Set([...groupBy.map((f) => f.name), ...aggregates.map((a) => a.as), ...(spec.columns ?? [])]);
  (spec.orderBy ?? []).forEach((o, i) => {
    if (!outputs.has(o.field)) throw new BizError(`/orderBy/${i}/field：只能按报表的列排序`);
    qb = qb.orderBy(sql.ref(o.field), o.desc ? 'desc' : 'asc');
  });
  qb = qb.limit(Math.min(Math.max(Number(spec.limit) || 1000, 1), 5000));
  return (await qb.execute()) as Array<Record<string, unknown>>;
}

export async function registerReportBuilder(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  // Preview of a report structure with parameters (报表配置's designer; the structure, never SQL).
  api.post('/online/cgreport/design/preview', { config: { auth: 'online:cgreport:list' } }, async (req) => {
    const body = (req.body ?? {}) as { spec?: ReportSpec; params?: Record<string, unknown> };
    return ok(await runReport(ctx, req, body.spec as ReportSpec, body.params ?? {}));
  });
}
