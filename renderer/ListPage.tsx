import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Checkbox, Col, Dropdown, Form, Input, InputNumber, Popconfirm, Row, Select, Space } from 'antd';
import { DeleteOutlined, DownloadOutlined, DownOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, SettingOutlined, UploadOutlined, UpOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { http, type Envelope } from '@core/http/client';
import { dataProvider } from '@core/data';
import { firstList, firstListDone, knownFirstList } from '@core/session/prefetch';
import { getWidget, preloadWidget } from '@widgets/registry';
import { condition } from './expr';
import { filterActions } from './permissions';
import { urlsOf, useSessionScope } from './scope';
import { dictText, useDicts, type DictOption } from '@core/dict';
import type { ActionSchema, ColumnSchema, PageSchema, QueryFieldSchema } from '@shared/page-schema';
import { ListQueryContext } from '@core/listQuery';
import { firstListOf, queryParams } from '@shared/list-request';
import { LazyDropdown, LazyPopconfirm, LazyPopover, LazyTooltip } from '@core/ui/LazyOverlay';
import './cells';
import { DataTable, declaredWidth, type DataColumn, type SortOrder } from './DataTable';
import { lazyWidget } from '@widgets/index';
import { JSuperQuery } from '@widgets/query/JSuperQuery';
import type { PageKindProps } from './registry';
import { useActionRunner } from './useActions';
import { startPolling } from './polling';

const FormModal = lazy(() => import('./FormModal'));

type Row = Record<string, unknown>;
type ListResult = { records: Row[]; total: number | string } | Row[];
/** A list answer's rows and total (a plain array answers both). */
const listAnswer = (res: ListResult | undefined) =>
  Array.isArray(res) ? { records: res, count: res.length } : { records: res?.records ?? [], count: Number(res?.total ?? 0) };
export type FormMode = 'add' | 'edit' | 'detail';

const DEFAULT_ELLIPSIS = 25;
const showTotal = (total: number, range: [number, number]) => `${range[0]}-${range[1]} 共${total}条`;

/** `header`: a registered widget above the table with `{...widgetProps, query}`. */
function ListHeader({ header, query }: { header: NonNullable<PageSchema['header']>; query: Record<string, unknown> }) {
  const W = getWidget(header.widget);
  return W ? <W {...header.widgetProps} query={query} /> : <Alert type="error" style={{ marginBottom: 16 }} message={`未注册的组件：${header.widget}`} />;
}

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

const QueryDate = lazyWidget(() => import('./QueryDate'), 'QueryDate');

function NumberRange({ value, onChange }: { value?: [number?, number?]; onChange?: (v: [number?, number?]) => void }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber style={{ width: '50%' }} value={value?.[0]} onChange={(v) => onChange?.([v ?? undefined, value?.[1]])} placeholder="最小值" />
      <InputNumber style={{ width: '50%' }} value={value?.[1]} onChange={(v) => onChange?.([value?.[0], v ?? undefined])} placeholder="最大值" />
    </Space.Compact>
  );
}

/** The input of a query field (also the dashboard's filters). */
export function queryControl(f: QueryFieldSchema, dicts: Record<string, DictOption[]>): ReactNode {
  const props = f.props ?? {};
  const options = f.options ?? (f.dict ? (dicts[f.dict] ?? []).map((d) => ({ label: d.text, value: d.value })) : undefined);
  switch (f.widget ?? (options ? 'Select' : 'Input')) {
    case 'Select':
      return <Select allowClear placeholder={`请选择${f.label}`} options={options} {...props} />;
    case 'MultiSelect':
      return <Select mode="multiple" allowClear placeholder={`请选择${f.label}`} options={options} {...props} />;
    case 'DatePicker':
      return <QueryDate kind="DatePicker" placeholder={`请选择${f.label}`} {...props} />;
    case 'DateRange':
    case 'DateTimeRange':
      return <QueryDate kind={f.widget} {...props} />;
    case 'NumberRange':
      return <NumberRange />;
    case 'InputNumber':
      return <InputNumber style={{ width: '100%' }} {...props} />;
    case 'Input':
      return <Input allowClear placeholder={`请输入${f.label}`} {...props} />;
    default: {
      const W = getWidget(f.widget!);
      return W ? <W {...props} dictCode={f.dict} /> : <Input allowClear placeholder={`请输入${f.label}`} {...props} />;
    }
  }
}

const QueryForm = memo(function QueryForm(props: {
  fields: QueryFieldSchema[];
  visibleCount: number;
  dicts: Record<string, DictOption[]>;
  onSearch: (v: Record<string, unknown>) => void;
  onReset: () => void;
}) {
  const [form] = Form.useForm();
  const [open, setOpen] = useState(false);
  const initial = useMemo(() => Object.fromEntries(props.fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])), [props.fields]);
  const shown = open ? props.fields : props.fields.slice(0, props.visibleCount);
  return (
    <Form form={form} initialValues={initial} onFinish={props.onSearch} className="schema-query" style={{ marginBottom: 16 }}>
      <Row gutter={24}>
        {shown.map((f) => (
          <Col key={f.name} xl={6} lg={8} md={12} xs={24}>
            <Form.Item name={f.name} label={f.label} style={{ marginBottom: 12 }}>
              {queryControl(f, props.dicts)}
            </Form.Item>
          </Col>
        ))}
        <Col xl={6} lg={8} md={12} xs={24}>
          <Space>
            {/* With their icons, as JeecgBoot's query bars have them (a button without one mounts its loading icon's motion); the buttons are named by their text. */}
            <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
              查询
            </Button>
            <Button
              icon={<ReloadOutlined aria-hidden />}
              onClick={() => {
                form.resetFields();
                props.onReset();
              }}
            >
              重置
            </Button>
            {props.fields.length > props.visibleCount && (
              <a onClick={() => setOpen(!open)}>
                {open ? '收起' : '展开'} {open ? <UpOutlined /> : <DownOutlined />}
              </a>
            )}
          </Space>
        </Col>
      </Row>
    </Form>
  );
});

function renderCell(c: ColumnSchema, dicts: Record<string, DictOption[]>): ((v: unknown, r: Row) => ReactNode) | undefined {
  const W = c.widget ? getWidget(c.widget) : undefined;
  if (W) return (v, r) => <W value={v} record={r} {...c.widgetProps} />;
  const limit = c.ellipsis === false ? 0 : typeof c.ellipsis === 'number' ? c.ellipsis : c.ellipsis ? DEFAULT_ELLIPSIS : 0;
  const text = c.dict
    ? (v: unknown, r: Row) => {
        const t = r[`${c.dataIndex}_dictText`];
        return t !== undefined && t !== null ? String(t) : dictText(dicts[c.dict!], v);
      }
    : (v: unknown) => (v === undefined || v === null ? '' : String(v));
  if (!limit) return c.dict ? text : undefined;
  return (v, r) => {
    const s = text(v, r);
    return s.length > limit ? (
      <LazyTooltip title={s}>
        <span>{s.slice(0, limit)}…</span>
      </LazyTooltip>
    ) : (
      s
    );
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

export function ListPage({ pageId, schema, params: bound, embedded }: PageKindProps) {
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
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [hidden, setHidden] = useState<string[]>(() => storedHidden(pageId));
  const [form, setForm] = useState<{ mode: FormMode; record?: Row } | null>(null);
  const [columnsOpen, setColumnsOpen] = useState(false);
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
      const { records, count } = listAnswer(r.result);
      // The page no longer exists (e.g. after a delete emptied it): step back.
      if (!records.length && count > 0 && current > 1) {
        setCurrent(Math.max(1, Math.ceil(count / pageSize)));
        return;
      }
      setRows(tree ? records.map(tree.mark) : records);
      setTotal(count);
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

  // `form.prefill`: a link like /improvement/task?recordId=… opens 新增 pre-filled (once per URL); with
  // several parameters the first one the URL has is used.
  const prefill = schema.form?.prefill;
  const [prefillParam, prefillKey] = useMemo(() => {
    const sp = new URLSearchParams(urlSearch);
    const p = [prefill?.param ?? []].flat().find((k) => sp.get(k));
    return p ? [p, sp.get(p)] : [undefined, null];
  }, [prefill, urlSearch]);
  useEffect(() => {
    if (!prefill || !prefillParam || !prefillKey) return;
    let live = true;
    void (async () => {
      if (!prefill.url) return setForm({ mode: 'add', record: { [prefillParam]: prefillKey } });
      const r = await http.get<Row>(prefill.url, { [prefillParam]: prefillKey });
      if (!live) return;
      if (r.success && r.result) setForm({ mode: 'add', record: r.result });
      else message.warning(r.message);
    })();
    return () => {
      live = false;
    };
  }, [prefill, prefillParam, prefillKey, message]);

  const search = useCallback(
    (values: Record<string, unknown>) => {
      setQuery(queryParams(queryFields, values));
      setCurrent(1);
      setSelected([]);
    },
    [queryFields],
  );
  const reset = useCallback(() => {
    setQuery(queryParams(queryFields, Object.fromEntries(queryFields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]))));
    setSuperQuery({});
    setCurrent(1);
    setSelected([]);
  }, [queryFields]);

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

  const { run: runAction, dialogs } = useActionRunner(() => ({
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

  // Cells call actions through a stable function, so selection changes don't rebuild every row.
  const runStable = runAction;

  // The row actions a record shows (their `visible` conditions), worked out once per record for its cell and the column's width.
  const shownActions = useMemo(() => {
    const seen = new WeakMap<Row, typeof rowActions>();
    return (r: Row) => {
      let list = seen.get(r);
      if (!list) seen.set(r, (list = rowActions.filter((a) => a.visible === undefined || cond(a.visible, { $record: r }))));
      return list;
    };
  }, [rowActions, cond]);
  const actionWidth = useMemo(() => actionColumnWidth(rowActions, rows, shownActions), [rowActions, rows, shownActions]);
  const columns = useMemo<DataColumn[]>(() => {
    const cols: DataColumn[] = (schema.columns ?? [])
      .filter((c) => !c.hidden && !hidden.includes(c.dataIndex))
      .map((c) => ({
        key: c.dataIndex,
        dataIndex: c.dataIndex,
        title: c.title,
        width: c.width,
        fixed: c.fixed,
        align: c.align ?? 'center',
        sorter: !!c.sorter,
        sortOrder: sort.column === c.dataIndex ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
        render: renderCell(c, dicts),
      }));
    if (rowActions.length) {
      cols.push({
        key: 'action',
        title: '操作',
        align: 'center',
        width: actionWidth,
        // Pinned only when the columns, its own included, are wider than a typical content area (a table that fits would have its last column drawn under it).
        fixed: cols.reduce((w, c) => w + declaredWidth(c), actionWidth) > 1000 ? 'right' : undefined,
        render: (_: unknown, r: Row) => <RowActions actions={shownActions(r)} record={r} cond={cond} run={runStable} />,
      });
    }
    return cols;
  }, [schema, hidden, sort, dicts, rowActions, shownActions, actionWidth, cond, runStable]);

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

  const superFields = useMemo(
    () => (schema.columns ?? []).filter((c) => !c.widget).map((c) => ({ value: c.dataIndex, text: c.title, type: c.dict ? 'list' : 'string', dictCode: c.dict })),
    [schema],
  );
  const toolbarButton = (a: ActionSchema & { denied?: boolean }) => (
    <Button
      key={a.key}
      type={a.primary ? 'primary' : 'default'}
      danger={a.danger}
      disabled={a.denied}
      icon={a.type === 'add' ? <PlusOutlined /> : a.type === 'export' ? <DownloadOutlined /> : a.type === 'import' ? <UploadOutlined /> : undefined}
      onClick={() => void runAction(a)}
    >
      {a.label}
    </Button>
  );

  return (
    <Card bordered={false} title={embedded ? undefined : schema.title} size={embedded ? 'small' : undefined} styles={embedded ? { body: { padding: 0 } } : undefined}>
      {schema.hint && <Alert className="schema-hint" type="info" showIcon style={{ marginBottom: 16 }} message={schema.hint} />}
      {queryFields.length > 0 && <QueryForm fields={queryFields} visibleCount={schema.query?.visibleCount ?? 3} dicts={dicts} onSearch={search} onReset={reset} />}
      {schema.header && listed && <ListHeader header={schema.header} query={listParams} />}
      {/* A plain sub-list (a region without query fields or toolbar actions) is just its table. */}
      {!(embedded && !queryFields.length && !toolbar.length) && (
        <div className="schema-toolbar" style={{ marginBottom: 16, display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
          {toolbar.map(toolbarButton)}
          {superFields.length > 0 && (
            // The widget library's advanced query: its button is drawn with the toolbar (no lazy swap
            // after the rows: that re-laid out the whole table); its builder loads when first used.
            <JSuperQuery
              fieldList={superFields}
              saveCode={`schema:${pageId}`}
              onSearch={(rows: unknown[], matchType: string) => {
                setSuperQuery(rows.length ? { superQueryParams: encodeURI(JSON.stringify(rows)), superQueryMatchType: matchType } : {});
                setCurrent(1);
                setSelected([]);
              }}
            />
          )}
          {selected.length > 0 && batch.length > 0 && (
            <Dropdown
              menu={{
                items: batch.map((a) => ({ key: a.key, label: a.label, disabled: a.denied, icon: a.type === 'batchDelete' ? <DeleteOutlined /> : undefined })),
                onClick: ({ key }) => {
                    const a = batch.find((x) => x.key === key)!;
                    // A batch action with `confirm` asks first, like a row action does (batchDelete asks in runAction).
                    if (a.confirm && a.type !== 'batchDelete') modal.confirm({ title: '确认操作', content: a.confirm, onOk: () => runAction(a) });
                    else void runAction(a);
                  },
              }}
            >
              <Button>
                批量操作 <DownOutlined />
              </Button>
            </Dropdown>
          )}
          <span style={{ flex: 1 }} />
          <LazyPopover
            open={columnsOpen}
            onOpenChange={setColumnsOpen}
            placement="bottomRight"
            title="列设置"
            content={
              <Checkbox.Group
                style={{ display: 'flex', flexDirection: 'column' }}
                value={(schema.columns ?? []).filter((c) => !c.hidden && !hidden.includes(c.dataIndex)).map((c) => c.dataIndex)}
                options={(schema.columns ?? []).filter((c) => !c.hidden).map((c) => ({ label: c.title, value: c.dataIndex }))}
                onChange={(v) => {
                  const h = (schema.columns ?? []).map((c) => c.dataIndex).filter((d) => !v.includes(d));
                  setHidden(h);
                  localStorage.setItem(`schema-cols:${pageId}`, JSON.stringify(h));
                }}
              />
            }
          >
            <Button icon={<SettingOutlined />} aria-label="列设置" />
          </LazyPopover>
        </div>
      )}
      {(batch.length > 0 || schema.selection) && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={
            <span>
              已选择 <a style={{ fontWeight: 600 }}>{selected.length}</a> 项 <a style={{ marginLeft: 24 }} onClick={() => setSelected([])}>清空</a>
            </span>
          }
        />
      )}
      <ListQueryContext.Provider value={listParams}>
        <DataTable
          rowKey={rowKey}
          columns={columns}
          dataSource={rows}
          loading={loading}
          onSort={onSort}
          onExpand={tree ? (open, r) => void expand(open, r) : undefined}
          selection={batch.length > 0 || schema.selection ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
          pagination={
            schema.data
              ? { pageSizeOptions: pageSizes.map(String), showQuickJumper: true, showSizeChanger: true, showTotal }
              : { current, pageSize, total, pageSizeOptions: pageSizes.map(String), showQuickJumper: true, showSizeChanger: true, showTotal, onChange: onPage }
          }
        />
      </ListQueryContext.Provider>
      <Suspense fallback={null}>
        {form && (
          <FormModal
            schema={schema}
            mode={form.mode}
            record={form.record}
            onClose={() => setForm(null)}
            onSaved={() => {
              setForm(null);
              setSelected([]);
              void load();
            }}
          />
        )}
        {dialogs}
      </Suspense>
    </Card>
  );
}

/**
 * The action column's width: its links (and 更多) on one line as the widest row of the page shows them
 * (14 px per character, 21 px per separator, cell padding), at least 150 px. Actions with a `visible`
 * condition (a workflow's per-status steps) count only on the rows they appear on; before any row, the
 * unconditional ones.
 */
export function actionColumnWidth(actions: ActionSchema[], rows: Row[], shown: (r: Row) => ActionSchema[]): number {
  const width = (list: ActionSchema[]) => {
    const inline = list.filter((a) => !a.dropdown).map((a) => a.label.length);
    if (list.some((a) => a.dropdown)) inline.push(3); // 更多 and its arrow
    return Math.max(150, inline.reduce((w, n) => w + n * 14, 0) + (inline.length - 1) * 21 + 34);
  };
  if (!actions.some((a) => a.visible !== undefined)) return width(actions);
  if (!rows.length) return width(actions.filter((a) => a.visible === undefined));
  return Math.max(...rows.map((r) => width(shown(r))));
}

const ROW_ACTIONS_STYLE = { display: 'inline-flex', alignItems: 'center', gap: 8 } as const;
const SPLIT_STYLE = { color: '#e8e8e8' } as const;

const RowActions = memo(function RowActions(props: {
  actions: Array<ActionSchema & { denied?: boolean }>;
  record: Row;
  cond: (v: unknown, extra?: Record<string, unknown>) => boolean;
  run: (a: ActionSchema, r?: Row) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ActionSchema | null>(null);
  const extra = { $record: props.record };
  const list = props.actions; // those this record shows
  const disabled = (a: ActionSchema & { denied?: boolean }) => a.denied || (a.disabled !== undefined && props.cond(a.disabled, extra));
  const inline = list.filter((a) => !a.dropdown);
  const more = list.filter((a) => a.dropdown);
  const asks = (a: ActionSchema) => a.type === 'delete' || !!a.confirm;
  const question = (a: ActionSchema) => a.confirm ?? '确定删除吗?';
  const link = (a: ActionSchema & { denied?: boolean }) => {
    if (disabled(a)) return <span key={a.key} style={{ color: 'rgba(0,0,0,.25)', cursor: 'not-allowed' }}>{a.label}</span>;
    if (asks(a))
      return (
        <LazyPopconfirm key={a.key} title={question(a)} onConfirm={() => void props.run(a, props.record)}>
          <a>{a.label}</a>
        </LazyPopconfirm>
      );
    return (
      <a key={a.key} onClick={() => void props.run(a, props.record)}>
        {a.label}
      </a>
    );
  };
  const items = inline.map(link);
  if (more.length > 0) {
    // A confirmation asked from the 更多 menu opens at 更多 itself: the menu item it came from is gone
    // as soon as the menu closes (at once, without animations), and a popup anchored there would be lost.
    const trigger = (
      <a>
        更多 <DownOutlined />
      </a>
    );
    const ask = confirming && (
      <Popconfirm key="more" open title={question(confirming)} onOpenChange={(o) => !o && setConfirming(null)} onConfirm={() => (setConfirming(null), void props.run(confirming, props.record))}>
        {trigger}
      </Popconfirm>
    );
    items.push(
      ask || (
        <LazyDropdown
          key="more"
          menu={{ items: more.map((a) => ({ key: a.key, label: !disabled(a) && asks(a) ? <a onClick={() => setConfirming(a)}>{a.label}</a> : link(a) })) }}
        >
          {trigger}
        </LazyDropdown>
      ),
    );
  }
  // Plain markup, not antd Space: one Space per row costs a style-token lookup per row.
  return (
    <span className="schema-row-actions" style={ROW_ACTIONS_STYLE}>
      {items.flatMap((el, i) => (i ? [<span key={`split${i}`} style={SPLIT_STYLE}>|</span>, el] : [el]))}
    </span>
  );
});
