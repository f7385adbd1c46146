import { http, type Envelope } from '@core/http/client';
import { urlsOf } from '@shared/urls';
import type { ApiBinding } from '@shared/page-schema';

/**
 * The data provider: the JeecgBoot 3.4 REST contract (DESIGN §3) in one place. Screens, widgets and the
 * renderer name a resource — its base path (`/sys/user`) or a page's api binding — and an operation;
 * the provider knows the urls (`list`, `queryById`, `add`, `edit`, `delete`, `deleteBatch`), the paging
 * and sort parameters, the `ids` format of batch deletes and the two shapes of a list answer. Every call
 * resolves to the server's envelope, so callers show the server's own (Chinese) message.
 */

type Row = Record<string, unknown>;
/** A resource: its base path, or explicit urls (a page schema's `api`, possibly with `resource`). */
export type Resource = string | ApiBinding & { resource?: string };

export interface ListParams {
  page?: number;
  pageSize?: number;
  sort?: { column: string; order: 'asc' | 'desc' };
  /** Query parameters as the contract spells them (field rules, `_begin`/`_end`, superQueryParams …). */
  filter?: Record<string, unknown>;
}

export interface ListAnswer {
  records: Row[];
  total: number;
}

const urls = (r: Resource): ApiBinding => (typeof r === 'string' ? urlsOf({ kind: 'list', title: '', resource: r }) : urlsOf({ kind: 'list', title: '', resource: r.resource, api: r }));

const need = (url: string | undefined, op: string): string => {
  if (!url) throw new Error(`请设置url.${op}属性!`);
  return url;
};

/** A list answer's rows and total: a page `{records, total}`, or a plain array (tree and small lists). */
export function listAnswer(res: unknown): ListAnswer {
  if (Array.isArray(res)) return { records: res as Row[], total: res.length };
  const p = (res ?? {}) as { records?: Row[]; total?: number | string };
  return { records: p.records ?? [], total: Number(p.total ?? 0) };
}

/** `{ids}` / `{id}` in a url carries the ids in its path (online forms: /online/cgform/api/form/{code}/{ids}). */
const inPath = (url: string, ids: string[]) => url.replace(/\{ids?\}/, encodeURIComponent(ids.join(',')));

export const dataProvider = {
  /** A page of rows: `pageNo`, `pageSize`, `column`, `order` and the filters. */
  async getList(resource: Resource, p: ListParams = {}): Promise<Envelope<ListAnswer>> {
    const params: Record<string, unknown> = { ...p.filter };
    if (p.page !== undefined) params.pageNo = p.page;
    if (p.pageSize !== undefined) params.pageSize = p.pageSize;
    if (p.sort) Object.assign(params, p.sort);
    const r = await http.get(need(urls(resource).list, 'list'), params);
    return { ...r, result: r.success ? listAnswer(r.result) : { records: [], total: 0 } };
  },
  /** One record by id (`queryById`). */
  getOne<T = Row>(resource: Resource, id: string): Promise<Envelope<T>> {
    return http.get<T>(need(urls(resource).queryById, 'queryById'), { id });
  },
  /** The rows of `resource` whose `target` field is `id` (a record's children), up to 1,000. */
  async getManyReference(resource: Resource, target: string, id: string, p: ListParams = {}): Promise<Envelope<ListAnswer>> {
    return dataProvider.getList(resource, { pageSize: 1000, ...p, filter: { ...p.filter, [target]: id } });
  },
  create<T = unknown>(resource: Resource, data: Row): Promise<Envelope<T>> {
    return http.post<T>(need(urls(resource).add, 'add'), data);
  },
  update<T = unknown>(resource: Resource, data: Row): Promise<Envelope<T>> {
    return http.put<T>(need(urls(resource).edit, 'edit'), data);
  },
  /** Deletes one row (`delete?id=`) or several (`deleteBatch?ids=a,b,`; `batch` also for one selected row). */
  delete(resource: Resource, ids: string[], batch = ids.length > 1): Promise<Envelope> {
    const u = urls(resource);
    const url = batch ? need(u.deleteBatch, 'deleteBatch') : need(u.delete, 'delete');
    if (/\{ids?\}/.test(url)) return http.delete(inPath(url, ids));
    return url === u.deleteBatch ? http.delete(url, { ids: ids.join(',') + ',' }) : http.delete(url, { id: ids[0] });
  },
  /** Any other call of the contract (a domain action such as `/improvement/task/issue`). */
  custom<T = unknown>(method: 'get' | 'post' | 'put' | 'delete', url: string, data?: Row): Promise<Envelope<T>> {
    return method === 'get' || method === 'delete' ? http[method]<T>(url, data) : http[method]<T>(url, data);
  },
};
export type DataProvider = typeof dataProvider;
