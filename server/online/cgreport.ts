import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, Forbidden, ok, page } from '../http/envelope.js';
import { allows } from '../http/guard.js';
import type { EntitySchema } from '../crud/entity-types.js';
import { addDictText, applyFilters, toWire } from '../crud/engine.js';
import type { EntityQuery } from '../crud/hooks.js';
import { buildXlsx, XLSX_TYPE } from '../crud/excel.js';
import { attachment } from '../crud/routes.js';
import { coerce, parsePaging, parseSort, type Query } from '../crud/query.js';
import { allDictItems, type DictModel } from '../sys/dict-service.js';
import { allReports, reportOf } from './reports/index.js';
import type { ReportDef } from './reports/types.js';
import { storedReports } from './report-store.js';

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** The report's columns as an entity, so filters, sort and dictionary texts reuse the CRUD engine. */
export function reportEntity(def: ReportDef): EntitySchema {
  return {
    name: `rpt_${def.code}`,
    table: def.code,
    title: def.name,
    audit: false,
    fields: def.columns.map((c) => ({ name: c.field, column: c.field, type: c.type ?? 'string', title: c.title, dict: c.dict, sortable: c.sortable, filterable: c.search, excel: c.title })),
    defaultSort: def.defaultSort,
  };
}

function reportFor(req: FastifyRequest, code: string): ReportDef {
  const def = reportOf(code);
  if (!def) throw new BizError('报表不存在');
  if (!allows(req.user!, def.auth)) throw Forbidden();
  return def;
}

/** `self_<name>` parameters, typed and bound; unknown self_ parameters are refused. */
export function reportParams(def: ReportDef, q: Query): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  const known = new Set(def.params.map((p) => p.name));
  for (const k of Object.keys(q)) if (k.startsWith('self_') && !known.has(k.slice(5))) throw new BizError(`报表不支持参数“${k}”`);
  for (const p of def.params) {
    const raw = q[`self_${p.name}`];
    if (raw === undefined || raw === '') {
      if (p.required) throw new BizError(`请填写报表参数“${p.label}”`);
      continue;
    }
    out[p.name] = coerce({ name: p.name, title: p.label, type: p.type }, str(raw)) as string | number;
  }
  return out;
}

export async function registerOnlineReports(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const user = { config: { auth: 'user' } };

  api.get('/online/cgreport/head/list', { config: { auth: 'online:cgreport:list' } }, async (req) => {
    const { pageNo, pageSize } = parsePaging(req.query as Query);
    // JeecgBoot's row (OnlCgreportHead) beside ours. `cgrSql` is the registered query's description: reports are
    // defined in server code, and SQL text from a client is never stored or run (DESIGN §6, docs/jeecg-compat.md).
    const stored = (await storedReports(ctx)).map((r) => ({
      id: r.id, code: r.code, name: r.name, params: (r.spec.params ?? []).map((p) => p.name).join(','), columns: (r.spec.columns ?? []).length + (r.spec.aggregates ?? []).length,
      cgrSql: '-- 查询结构（报表配置设计，不是SQL）', dbSource: '', dbSource_dictText: '本系统数据库', content: ctx.entities.byName.get(r.spec.entity)?.title ?? r.spec.entity, stored: 1, menu: r.menuId ? 1 : 0,
      returnValField: null, returnTxtField: null, returnType: '1', delFlag: 0, createBy: null, createTime: null, updateBy: null, updateTime: null,
    }));
    const registered = allReports().map((r) => ({
      id: r.code, code: r.code, name: r.name, params: r.params.map((p) => p.name).join(','), columns: r.columns.length,
      cgrSql: `-- 已注册查询（服务端定义，不可编辑）：${r.description ?? r.name}`, dbSource: '', dbSource_dictText: '本系统数据库', content: r.description ?? '',
      returnValField: null, returnTxtField: null, returnType: '1', delFlag: 0, createBy: 'system', createTime: null, updateBy: null, updateTime: null,
    }));
    const all = [...stored, ...registered];
    return ok(page(all.slice((pageNo - 1) * pageSize, pageNo * pageSize), all.length, pageNo, pageSize));
  });

  api.get('/online/cgreport/api/getRpColumns/:code', user, async (req) => {
    const def = reportFor(req, (req.params as { code: string }).code);
    const dicts = await allDictItems(ctx.db);
    const dictOptions: Record<string, DictModel[]> = {};
    for (const c of def.columns) if (c.dict) dictOptions[c.dict] = dicts[c.dict] ?? [];
    return ok({
      columns: def.columns.map((c) => ({
        dataIndex: c.field, title: c.title, fieldType: c.type ?? 'string', dbType: c.type ?? 'string', sorter: !!c.sortable, isTotal: '0', groupTitle: null,
        hrefSlotName: '', showLength: 0, align: 'center', ...(c.dict ? { customRender: c.dict } : {}), scopedSlots: {},
      })),
      cgRpConfigId: def.code,
      cgRpConfigName: def.name,
      dictOptions,
    });
  });

  api.get('/online/cgreport/api/getQueryInfo/:code', user, async (req) => {
    const def = reportFor(req, (req.params as { code: string }).code);
    return ok(def.columns.filter((c) => c.search).map((c) => ({
      field: c.field, label: c.title, view: c.dict ? 'list' : c.type === 'date' ? 'date' : 'string', mode: c.searchMode ?? 'single', dictCode: c.dict ?? '', defValue: '', fuzzyQueryFlag: 0,
    })));
  });

  api.get('/online/cgreport/api/getParamsInfo/:code', user, async (req) => {
    const def = reportFor(req, (req.params as { code: string }).code);
    return ok(def.params.map((p) => ({ paramName: p.name, paramTxt: p.label, paramValue: '', type: p.type, required: !!p.required })));
  });

  /** The report's query wrapped as `t`, with list filters; and its sorted form. */
  const prepare = (req: FastifyRequest, def: ReportDef, q: Query) => {
    const e = reportEntity(def);
    const inner = def.query(ctx.db, reportParams(def, q), req.user!);
    const base = applyFilters(e, ctx.db.selectFrom(inner.as('t')) as EntityQuery, q);
    let sorted = base;
    for (const s of parseSort(e, q)) sorted = sorted.orderBy(sql.ref(`t.${s.field.name}`), (ob) => (s.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()));
    return { e, base, sorted };
  };

  api.get('/online/cgreport/api/getData/:code', user, async (req) => {
    const def = reportFor(req, (req.params as { code: string }).code);
    const q = req.query as Query;
    const { pageNo, pageSize } = parsePaging(q);
    const { e, base, sorted } = prepare(req, def, q);
    const [{ n }] = (await base.select(sql<string>`count(*)`.as('n')).execute()) as [{ n: string }];
    const raw = await sorted.selectAll('t').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    const records = await addDictText(ctx, e, raw.map((r) => toWire(e, r)));
    return ok(page(records, Number(n), pageNo, pageSize));
  });

  api.get('/online/cgreport/api/exportXls/:code', user, async (req, reply) => {
    const def = reportFor(req, (req.params as { code: string }).code);
    const { e, sorted } = prepare(req, def, req.query as Query);
    const raw = await sorted.selectAll('t').limit(100_000).execute();
    const buf = await buildXlsx(e, await addDictText(ctx, e, raw.map((r) => toWire(e, r))));
    attachment(reply, `${def.name}.xlsx`, XLSX_TYPE);
    return reply.send(buf);
  });
}
