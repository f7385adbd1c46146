import { useCallback, useEffect, useMemo, useRef, useState, type Key } from 'react';
import { App } from 'antd';
import { useLocation } from 'react-router-dom';
import { http, type Envelope } from '@core/http/client';
import { dataProvider } from '@core/data';
import { firstList, firstListDone, knownFirstList } from '@core/session/prefetch';
import { useDicts } from '@core/dict';
import { preloadWidget } from '@widgets/registry';
import type { ActionSchema, PageSchema } from '@shared/page-schema';
import { firstListOf, queryParams } from '@shared/list-request';
import { condition } from '@shared/expr';
import { filterActions } from '../permissions';
import { startPolling } from '../polling';
import type { PageKindProps, Row } from '../registry';
import { urlsOf, useSessionScope } from '../scope';
import { useActionRunner } from '../useActions';
import type { SortOrder } from '../DataTable';

/**
 * The list controller (kinds list, tree-list, master-detail, and a list embedded as a region): the
 * query, paging and sort state, the list request — the first one started before the page renders, or
 * its answer drawn in the first render — polling, the bound parameters, the selection, tree expansion,
 * the actions and the form dialog. The views (renderer/list/*.tsx) draw what it holds; renderer/ListPage.tsx
 * composes them.
 */

/** A list answer; `filters`: what the server applied (a drill-down's 学期, 教师 …), shown above the rows. */
export type AppliedFilter = { label: string; text: string };
type ListResult = { records: Row[]; total: number | string; filters?: AppliedFilter[] } | Row[];
/** A list answer's rows and total (a plain array answers both). */
const listAnswer = (res: ListResult | undefined) =>
  Array.isArray(res)
    ? { records: res, count: res.length, filters: undefined }
    : { records: res?.records ?? [], count: Number(res?.total ?? 0), filters: Array.isArray(res?.filters) ? res.filters : undefined };
export type FormMode = 'add' | 'edit' | 'detail';
/** An action as the page shows it: `denied` when the user lacks its permission (drawn disabled). */
export type ShownAction = ActionSchema & { denied?: boolean };

/** The standard actions a list page gets when its schema lists none. */
export function defaultActions(s: PageSchema): NonNullable<PageSchema['actions']> {
  const p = s.permission ? `${s.permission}:` : undefined;
  const code = (c: string) => (p ? p + c : undefined);
  const hasForm = !!s.form;
  const urls = urlsOf(s);
  return {
    toolbar: [
      ...(hasForm && urls.add ? [{ key: 'add', label: '新增', type: 'add', permission: code('add'), primary: true }] : []),
      ...(urls.importExcel ? [{ key: 'import', label: '导入', type: 'import', permission: code('importExcel') }] : []),
      ...(urls.exportXls ? [{ key: 'export', label: '导出', type: 'export', permission: code('exportXls') }] : []),
    ],
    batch: urls.deleteBatch ? [{ key: 'batchDelete', label: '批量删除', type: 'batchDelete', permission: code('deleteBatch') }] : [],
    row: [
      ...(hasForm && urls.edit ? [{ key: 'edit', label: '编辑', type: 'edit', permission: code('edit') }] : []),
      ...(hasForm ? [{ key: 'detail', label: '详情', type: 'detail', dropdown: true }] : []),
      ...(urls.delete ? [{ key: 'delete', label: '删除', type: 'delete', permission: code('delete'), dropdown: true }] : []),
    ],
  };
}

function storedHidden(pageId: string): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(`schema-cols:${pageId}`) ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function useListController({ pageId, schema, params: bound }: Pick<PageKindProps, 'pageId' | 'schema' | 'params'>) {
  const { message, modal } = App.useApp();
  const urls = useMemo(() => urlsOf(schema), [schema]);
  const rowKey = schema.rowKey ?? 'id';
  const { scope, perms } = useSessionScope();
  const queryFields = useMemo(() => schema.query?.fields ?? [], [schema]);
  const dictCodes = useMemo(
    () => [...(schema.columns ?? []).map((c) => c.dict), ...queryFields.map((f) => (f.options ? undefined : f.dict))].filter((d): d is string => !!d),
    [schema, queryFields],
  );
  const dicts = useDicts(dictCodes);
  const pageSizes = schema.pageSizes ?? [10, 20, 30];

  // tree-list: rows with children get an empty `children` list (the expand icon); children load on expand.
  const tree = useMemo(() => {
    if (schema.kind !== 'tree-list') return undefined;
    const hasChild = schema.tree?.hasChildField ?? 'hasChild';
    const mark = (r: Row): Row => (r[hasChild] === '1' || r[hasChild] === true || r[hasChild] === 1 ? { ...r, children: [] } : r);
    return { mark, parentField: schema.tree?.parentField ?? 'pid', root: schema.tree?.root ?? '0', url: urls.children ?? urls.list };
  }, [schema, urls]);
  const { search: urlSearch } = useLocation();
  // The first page's answer when it is already known (it came with the route answer of a direct visit,
  // core/session/early-requests.ts): its rows are drawn in the page's first render. Not with a `header`
  // widget, whose code the rows wait for.
  const [known] = useState(() => {
    const req = schema.header ? undefined : firstListOf(schema, urlSearch);
    const r = req && (knownFirstList(pageId, urlSearch, req.url, req.params) as Envelope<ListResult> | undefined);
    return r?.success ? listAnswer(r.result) : undefined;
  });
  const [rows, setRows] = useState<Row[]>(() => (known && tree ? known.records.map(tree.mark) : (known?.records ?? [])));
  const [total, setTotal] = useState(known?.count ?? 0);
  const [applied, setApplied] = useState<AppliedFilter[] | undefined>(known?.filters);
  const [loading, setLoading] = useState(false);
  const [current, setCurrent] = useState(1);
  // `?pageSize=N` in the page's URL opens it at N rows when N is one of the schema's page sizes.
  const urlSize = Number(new URLSearchParams(urlSearch).get('pageSize'));
  const [pageSize, setPageSize] = useState(pageSizes.includes(urlSize) ? urlSize : (schema.pageSize ?? pageSizes[0] ?? 10));
  const [sort, setSort] = useState<{ column?: string; order?: 'asc' | 'desc' }>(schema.defaultSort ?? { column: 'createTime', order: 'desc' });
  const [query, setQuery] = useState<Record<string, unknown>>(() =>
    queryParams(queryFields, Object.fromEntries(queryFields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]))),
  );
  const [superQuery, setSuperQuery] = useState<{ superQueryParams?: string; superQueryMatchType?: string }>({});
  const [selected, setSelected] = useState<Key[]>([]);
  const [hidden, setHidden] = useState<string[]>(() => storedHidden(pageId));
  const [form, setForm] = useState<{ mode: FormMode; record?: Row } | null>(null);
  const seq = useRef(0);
  // New bound parameters (an aside tree's node, another parent record): back to the first page.
  const [shownBound, setShownBound] = useState(bound);
  if (shownBound !== bound) {
    setShownBound(bound);
    setCurrent(1);
    setSelected([]);
  }

  const expand = useCallback(
    async (open: boolean, record: Row) => {
      if (!open || !tree?.url || (Array.isArray(record.children) && record.children.length)) return;
      const r = await http.get<{ records: Row[] } | Row[]>(tree.url, { [tree.parentField]: record[rowKey], pageSize: 1000 });
      if (!r.success) {
        message.warning(r.message);
        return;
      }
      const kids = (Array.isArray(r.result) ? r.result : (r.result?.records ?? [])).map(tree.mark);
      const put = (list: Row[]): Row[] =>
        list.map((x) => (x[rowKey] === record[rowKey] ? { ...x, children: kids } : Array.isArray(x.children) ? { ...x, children: put(x.children as Row[]) } : x));
      setRows(put);
    },
    [tree, rowKey, message],
  );

  // `urlParams`: these parameters of the page URL go with every list call (a report's drill-down link).
  // A region's bound parameters (a record's sub-list, a tab) go with every call too.
  const fromUrl = useMemo(() => {
    const sp = new URLSearchParams(urlSearch);
    return { ...Object.fromEntries((schema.urlParams ?? []).flatMap((k) => (sp.get(k) ? [[k, sp.get(k)]] : []))), ...bound };
  }, [urlSearch, schema, bound]);
  const params = useCallback(
    (): Record<string, unknown> => ({ ...fromUrl, ...query, ...superQuery, column: sort.column, order: sort.order, field: ['id', '', ...(schema.columns ?? []).map((c) => c.dataIndex)].join(',') }),
    [fromUrl, query, superQuery, sort, schema],
  );

  /** The list request's parameters for the current state. */
  const listQuery = useCallback(() => {
    const base = params();
    // A tree list shows its roots; a search shows matching rows flat.
    const searching = Object.keys(query).length > 0 || !!superQuery.superQueryParams;
    if (tree && !searching) base[tree.parentField] = tree.root;
    return Object.fromEntries(Object.entries<unknown>({ ...base, pageNo: current, pageSize }).filter(([, v]) => v !== undefined && v !== ''));
  }, [params, query, superQuery, tree, current, pageSize]);
  // The first page is requested during the first render, not after it: the rows arrive sooner.
  const [first] = useState(() => {
    if (schema.data || !urls.list) return undefined;
    const q = listQuery();
    const list = urls.list;
    // The same request when it was started before the page rendered (core/session/prefetch.ts, renderer/warm.ts);
    // an early one that failed quietly resolves to undefined: then a normal request.
    const p = firstList(pageId, urlSearch, list, q, () => http.get<ListResult>(list, q)).then((r) => (r as Envelope<ListResult> | undefined) ?? http.get<ListResult>(list, q));
    p.catch(() => undefined); // awaited (and reported) by load()
    return { key: JSON.stringify(q), p, committed: () => firstListDone(pageId, urlSearch) };
  });
  useEffect(() => first?.committed(), [first]);
  const firstUsed = useRef(false);
  // `header` widgets start after the first list request has answered: the rows come first. Their code
  // downloads meanwhile, and the rows wait for it: header and rows appear together, so the rows never
  // move under the user's pointer when the header arrives.
  const [listed, setListed] = useState(!!known);
  const [headerCode] = useState(() => (schema.header ? preloadWidget(schema.header.widget) : undefined));
  const listParams = useMemo(() => ({ ...fromUrl, ...query }), [fromUrl, query]);

  // `quiet` (a poll): no spinner and no warning; the rows are replaced in place, the selection is kept.
  const load = useCallback(async (quiet = false) => {
    if (schema.data) {
      setRows(schema.data);
      setTotal(schema.data.length);
      setListed(true);
      return;
    }
    if (!urls.list) {
      message.error('请设置url.list属性!');
      return;
    }
    const p = listQuery();
    const early = !firstUsed.current && first?.key === JSON.stringify(p) ? first.p : undefined;
    firstUsed.current = true;
    if (early && known) return; // drawn in the first render
    const mine = ++seq.current;
    if (!quiet) setLoading(true);
    try {
      const r = await (early ?? http.get<ListResult>(urls.list, p));
      await headerCode;
      if (mine !== seq.current) return;
      if (!r.success) {
        if (!quiet) message.warning(r.message);
        return;
      }
      const { records, count, filters } = listAnswer(r.result);
      // The page no longer exists (e.g. after a delete emptied it): step back.
      if (!records.length && count > 0 && current > 1) {
        setCurrent(Math.max(1, Math.ceil(count / pageSize)));
        return;
      }
      setRows(tree ? records.map(tree.mark) : records);
      setTotal(count);
      setApplied(filters);
    } catch {
      // HTTP errors are reported by the client's interceptors (SPEC §8); the page stays usable.
    } finally {
      if (mine === seq.current) setLoading(false);
      setListed(true);
    }
  }, [schema, urls, listQuery, first, known, headerCode, pageSize, current, message, tree]);

  useEffect(() => {
    void load();
  }, [load]);
  // `poll`: the current page again every N seconds while the tab is visible (nothing without it).
  const loadNow = useRef(load);
  loadNow.current = load;
  useEffect(() => (schema.poll ? startPolling(() => loadNow.current(true), schema.poll * 1000) : undefined), [schema.poll]);

  // `form.prefill`: a link like /improvement/task?recordId=… opens 新增 pre-filled (once per URL).
  const prefill = schema.form?.prefill;
  // Every listed parameter the URL has goes to the prefill url (a lesson: scheduleId and lectureDate).
  const prefillKey = useMemo(() => {
    const sp = new URLSearchParams(urlSearch);
    const given = [prefill?.param ?? []].flat().filter((k) => sp.get(k));
    return given.length ? JSON.stringify(Object.fromEntries(given.map((k) => [k, sp.get(k)]))) : null;
  }, [prefill, urlSearch]);
  useEffect(() => {
    if (!prefill || !prefillKey) return;
    const given = JSON.parse(prefillKey) as Record<string, string>;
    let live = true;
    void (async () => {
      if (!prefill.url) return setForm({ mode: 'add', record: given });
      const r = await http.get<Row>(prefill.url, given);
      if (!live) return;
      if (r.success && r.result) setForm({ mode: 'add', record: r.result });
      else message.warning(r.message);
    })();
    return () => {
      live = false;
    };
  }, [prefill, prefillKey, message]);

  // `defaultFrom` query fields (the current term): read once and shown selected in the query form; a value
  // in the page URL (a drill-down's) wins. The first page was asked without it (the server's own default).
  const [fetched, setFetched] = useState<Record<string, unknown>>({});
  useEffect(() => {
    const from = queryFields.filter((f) => f.defaultFrom);
    if (!from.length) return;
    const sp = new URLSearchParams(urlSearch);
    let live = true;
    void Promise.all(
      from.map(async (f) => {
        if (sp.get(f.name)) return [f.name, sp.get(f.name)] as const;
        const r = await http.get<unknown>(f.defaultFrom!.url).catch(() => undefined);
        const v = (f.defaultFrom!.path ?? '').split('.').filter(Boolean).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Row)[k] : undefined), r?.success ? r.result : undefined);
        return [f.name, v] as const;
      }),
    ).then((list) => {
      const values = Object.fromEntries(list.filter(([, v]) => v !== undefined && v !== null && v !== ''));
      if (!live || !Object.keys(values).length) return;
      setFetched(values);
      setQuery((q) => ({ ...queryParams(queryFields, values), ...q }));
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per page
  }, [queryFields]);
  const shownQueryFields = useMemo(() => queryFields.map((f) => (f.name in fetched ? { ...f, default: fetched[f.name] } : f)), [queryFields, fetched]);

  const search = useCallback(
    (values: Record<string, unknown>) => {
      setQuery(queryParams(queryFields, values));
      setCurrent(1);
      setSelected([]);
    },
    [queryFields],
  );
  const reset = useCallback(() => {
    setQuery(queryParams(queryFields, Object.fromEntries(shownQueryFields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]))));
    setSuperQuery({});
    setCurrent(1);
    setSelected([]);
  }, [queryFields, shownQueryFields]);
  /** The advanced query's answer (JSuperQuery): its rows as the list's `superQueryParams`, from the first page. */
  const superSearch = (conditions: unknown[], matchType: string) => {
    setSuperQuery(conditions.length ? { superQueryParams: encodeURI(JSON.stringify(conditions)), superQueryMatchType: matchType } : {});
    setCurrent(1);
    setSelected([]);
  };

  const actions = schema.actions ?? defaultActions(schema);
  const cond = useCallback((v: unknown, extra?: Record<string, unknown>) => condition(v, { ...scope, ...extra }), [scope]);
  const toolbar = useMemo(() => filterActions(actions.toolbar ?? [], perms, { prefix: schema.permission, cond: (v) => cond(v) }), [actions, perms, schema, cond]);
  const batch = useMemo(() => filterActions(actions.batch ?? [], perms, { prefix: schema.permission, cond: (v) => cond(v) }), [actions, perms, schema, cond]);
  // Row conditions depend on the record: permission filtering once, conditions per row.
  const rowActions = useMemo(() => filterActions(actions.row ?? [], perms, { prefix: schema.permission, cond: () => true }), [actions, perms, schema]);

  const remove = useCallback(
    async (ids: string[], batchMode: boolean) => {
      let r;
      try {
        r = await dataProvider.delete(schema.api ? { ...schema.api, resource: schema.resource } : (schema.resource ?? ''), ids, batchMode);
      } catch (err) {
        message.error((err as Error).message);
        return;
      }
      if (r.success) {
        message.success(r.message);
        setSelected((s) => s.filter((k) => !ids.includes(String(k))));
        // Lower the page when the deletion empties it.
        const left = total - ids.length;
        const last = Math.max(1, Math.ceil(left / pageSize));
        if (current > last) setCurrent(last);
        else void load();
      } else message.warning(r.message);
    },
    [schema, total, pageSize, current, load, message],
  );

  // `run` is stable (useStableCallback): cells call actions through it, so selection changes don't rebuild every row.
  const { run, dialogs } = useActionRunner(() => ({
    pageId,
    schema,
    selected: selected.map(String),
    rowKey,
    // The URL's `urlParams` are bound parameters too (a sub-list opened by a link): actions fill `{field}` from them.
    params: fromUrl,
    listParams: params,
    reload: () => void load(),
    openForm: (mode, record) => setForm({ mode, record: mode === 'add' ? { ...bound, ...record } : record }),
    remove,
  }));
  // `?open=<id>` (a notice's 查看 button): the list opens that record's detail — its `detail` row action,
  // else the first of type detail or page — once per URL.
  const openId = useMemo(() => new URLSearchParams(urlSearch).get('open'), [urlSearch]);
  useEffect(() => {
    const a = rowActions.find((x) => x.key === 'detail') ?? rowActions.find((x) => x.type === 'detail' || x.type === 'page');
    if (!openId || !urls.queryById || !a) return;
    let live = true;
    void http.get<Row>(urls.queryById, { id: openId }).then((r) => {
      if (!live) return;
      if (r.success && r.result) void run(a, r.result);
      else message.warning(r.message || '未找到对应记录');
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per URL, not again when the actions' conditions change
  }, [openId]);
  /** A batch action from the 批量操作 menu: with `confirm` it asks first, like a row action does (batchDelete asks in its handler). */
  const runBatch = (a: ShownAction) => {
    if (a.confirm && a.type !== 'batchDelete') modal.confirm({ title: '确认操作', content: a.confirm, onOk: () => run(a) });
    else void run(a);
  };

  // A header's next order (none: the schema's default sort), from the first page.
  const onSort = (field: string, next: SortOrder) => {
    setSort(next ? { column: field, order: next === 'ascend' ? 'asc' : 'desc' } : (schema.defaultSort ?? { column: 'createTime', order: 'desc' }));
    setCurrent(1);
  };
  const onPage = (page: number, size: number) => {
    if (size !== pageSize) {
      setPageSize(size);
      setCurrent(1);
    } else setCurrent(page);
  };
  /** The columns the user hid (列设置), kept per page in the browser. */
  const hideColumns = (h: string[]) => {
    setHidden(h);
    localStorage.setItem(`schema-cols:${pageId}`, JSON.stringify(h));
  };

  return {
    pageId,
    schema,
    rowKey,
    queryFields: shownQueryFields,
    applied,
    dicts,
    pageSizes,
    tree,
    rows,
    total,
    loading,
    current,
    pageSize,
    sort,
    selected,
    setSelected,
    hidden,
    hideColumns,
    listed,
    listParams,
    toolbar,
    batch,
    rowActions,
    cond,
    search,
    reset,
    superSearch,
    onSort,
    onPage,
    expand,
    load,
    run,
    runBatch,
    dialogs,
    form,
    closeForm: () => setForm(null),
    /** The form dialog saved: it closes, the selection clears and the list reloads. */
    formSaved: () => {
      setForm(null);
      setSelected([]);
      void load();
    },
  };
}

export type ListController = ReturnType<typeof useListController>;
