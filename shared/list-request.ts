import type { Dayjs } from 'dayjs';
import { urlsOf } from './urls';
import type { PageSchema, QueryFieldSchema } from './page-schema';

/*
 * A list page's request parameters, apart from the page itself: renderer/warm.ts starts the first
 * list request from here before the page (and antd's heavier parts) have loaded.
 */

/** Query values → JeecgBoot list parameters (SPEC §7, jeecg-contract §4). */
export function queryParams(fields: QueryFieldSchema[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) continue;
    const fmt = (x: unknown) => (x && typeof x === 'object' && 'format' in x ? (x as Dayjs).format(f.widget === 'DateTimeRange' ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD') : x);
    const rule = f.rule ?? (isRange(f) ? 'range' : !f.widget || f.widget === 'Input' ? 'like' : 'eq');
    if (rule === 'range' && Array.isArray(v)) {
      if (v[0] !== undefined && v[0] !== null && v[0] !== '') out[`${f.name}_begin`] = fmt(v[0]);
      if (v[1] !== undefined && v[1] !== null && v[1] !== '') out[`${f.name}_end`] = fmt(v[1]);
    } else if (rule === 'like') out[f.name] = `*${String(v).trim()}*`;
    else if (rule === 'begin') out[f.name] = `${String(v).trim()}*`;
    else if (Array.isArray(v)) out[f.name] = v.map(fmt).join(',');
    else out[f.name] = typeof v === 'string' ? v.trim() : fmt(v);
  }
  return out;
}

/**
 * The first list request a list page makes for `schema` opened at URL `search` (initial page, page
 * size, sort, query defaults, urlParams, tree roots), so it can start before the page renders
 * (renderer/warm.ts). Must equal the list page's first request (renderer/list/useListController.ts) (tests/unit/renderer-first-list.test.tsx).
 */
export function firstListRequest(schema: PageSchema, search: string): { url: string; params: Record<string, unknown> } | undefined {
  const url = urlsOf(schema).list;
  if (schema.data || !url) return undefined;
  const sp = new URLSearchParams(search);
  const pageSizes = schema.pageSizes ?? [10, 20, 30];
  const urlSize = Number(sp.get('pageSize'));
  const pageSize = pageSizes.includes(urlSize) ? urlSize : (schema.pageSize ?? pageSizes[0] ?? 10);
  const sort = schema.defaultSort ?? { column: 'createTime', order: 'desc' };
  const fields = schema.query?.fields ?? [];
  const query = queryParams(fields, Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])));
  const fromUrl = Object.fromEntries((schema.urlParams ?? []).flatMap((k) => (sp.get(k) ? [[k, sp.get(k)]] : [])));
  const base: Record<string, unknown> = { ...fromUrl, ...query, column: sort.column, order: sort.order, field: ['id', '', ...(schema.columns ?? []).map((c) => c.dataIndex)].join(',') };
  if (schema.kind === 'tree-list' && Object.keys(query).length === 0) base[schema.tree?.parentField ?? 'pid'] = schema.tree?.root ?? '0';
  return { url, params: Object.fromEntries(Object.entries<unknown>({ ...base, pageNo: 1, pageSize }).filter(([, v]) => v !== undefined && v !== '')) };
}

const LIST_KINDS = ['list', 'master-detail', 'tree-list'];

/**
 * The first list request of the page `schema` describes, opened at URL `search`, when it is a list
 * page of the renderer's (not an online form's list, not a page of static rows). The page warmer
 * (renderer/warm.ts) starts it before the page renders; the server runs it with the page's route
 * (GET /schema/route, server/pages/index.ts), so a first visit has its rows with its schema.
 */
export function firstListOf(schema: PageSchema, search: string): { url: string; params: Record<string, unknown> } | undefined {
  if (schema.kind === 'dashboard' && schema.widgetLoad && !schema.panels) return widgetLoadOf(schema.widgetLoad, search);
  if (schema.online || !LIST_KINDS.includes(schema.kind)) return undefined;
  return firstListRequest(schema, search);
}

const isRange = (f: QueryFieldSchema) => f.widget === 'DateRange' || f.widget === 'DateTimeRange' || f.widget === 'NumberRange';


/** A one-widget dashboard's first GET (`widgetLoad`): its url with the named parameters the page's URL has. */
export function widgetLoadOf(load: NonNullable<PageSchema['widgetLoad']>, search: string): { url: string; params: Record<string, unknown> } {
  const sp = new URLSearchParams(search);
  return { url: load.url, params: Object.fromEntries((load.params ?? []).flatMap((k) => (sp.get(k) ? [[k, sp.get(k)]] : []))) };
}
