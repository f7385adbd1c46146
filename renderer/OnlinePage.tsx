import { useEffect, useState } from 'react';
import { Result, Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { http } from '@core/http/client';
import { ListPage } from './ListPage';
import type { ActionSchema, ColumnSchema, FormFieldSchema, PageSchema, QueryFieldSchema, SubTableSchema } from '@shared/page-schema';

/**
 * Online forms (cgform) and online reports (cgreport) drawn by the same list renderer: their
 * column/query/form definitions come from the online APIs and are turned into a page schema. The
 * form or report code is the last segment of the route path (/online/cgformList/<code>).
 */
interface OnlineColumn {
  dataIndex: string;
  title: string;
  sorter?: boolean;
  customRender?: string;
  dictCode?: string;
  width?: number;
}
interface OnlineQuery {
  field: string;
  label: string;
  view?: string;
  mode?: string;
  dictCode?: string;
}
interface OnlineFormField {
  field: string;
  title: string;
  view?: string;
  required?: boolean;
  readonly?: boolean;
  dictCode?: string;
}
/** A sub-table of a main table: its rows are edited in the record's form and saved with it. */
interface OnlineSubTable {
  key: string;
  title: string;
  foreignKey: string;
  listUrl: string;
  columns: SubTableSchema['columns'];
}
interface OnlineColumnsAnswer {
  columns: OnlineColumn[];
  description: string;
  formFields?: OnlineFormField[];
  checkboxFlag?: string;
  dictOptions?: Record<string, Array<{ value: string; text: string }>>;
  subTables?: OnlineSubTable[];
  tree?: { parentField: string; hasChildField: string; nameField?: string };
}

const WIDGET: Record<string, { widget: string; props?: Record<string, unknown> }> = {
  text: { widget: 'Input' },
  textarea: { widget: 'Input.TextArea' },
  number: { widget: 'NumberPicker' },
  switch: { widget: 'Switch' },
  date: { widget: 'DatePicker' },
  datetime: { widget: 'DatePicker', props: { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' } },
  time: { widget: 'TimePicker' },
  list: { widget: 'Select' },
  radio: { widget: 'Radio.Group' },
  checkbox: { widget: 'Checkbox.Group' },
  password: { widget: 'Password' },
};

export function queryOf(q: OnlineQuery[]): QueryFieldSchema[] {
  return q.map((f) => {
    const group = f.mode === 'group';
    if (group && (f.view === 'date' || f.view === 'datetime')) return { name: f.field, label: f.label, widget: 'DateRange', rule: 'range' };
    if (group) return { name: f.field, label: f.label, widget: 'NumberRange', rule: 'range' };
    if (f.dictCode) return { name: f.field, label: f.label, widget: 'Select', dict: f.dictCode, rule: 'eq' };
    if (f.view === 'date') return { name: f.field, label: f.label, widget: 'DatePicker', rule: 'eq' };
    return { name: f.field, label: f.label, widget: 'Input', rule: 'like' };
  });
}

const columnsOf = (cols: OnlineColumn[]): ColumnSchema[] =>
  cols.map((c) => ({ dataIndex: c.dataIndex, title: c.title, sorter: !!c.sorter, ellipsis: true, ...(c.customRender ? { dict: c.dictCode && !c.dictCode.includes(',') ? c.dictCode : c.customRender } : {}) }));

/** A sample value of a field for 预览 (the first dictionary item, a number, today, or 示例<title>). */
function sampleOf(name: string, title: string, type: string | undefined, dict: Record<string, Array<{ value: string }>>): unknown {
  if (dict[name]?.[0]) return dict[name][0].value;
  if (type === 'number' || type === 'integer' || type === 'bigint') return 1;
  if (type === 'date') return new Date().toISOString().slice(0, 10);
  if (type === 'datetime') return `${new Date().toISOString().slice(0, 10)} 08:00:00`;
  return `示例${title}`;
}

/**
 * The generated screen of an online form: a list; with sub-tables a master-detail list whose record
 * form edits their rows (saved with the record); a tree form a tree list with 添加下级. `preview`:
 * the same screen over one sample row, nothing saved (表单开发's 预览, before publishing).
 */
async function formPage(code: string, preview = false): Promise<PageSchema> {
  const [cols, query] = await Promise.all([
    http.get<OnlineColumnsAnswer>(`/online/cgform/api/getColumns/${code}`, preview ? { preview: 1 } : undefined),
    http.get<OnlineQuery[]>(`/online/cgform/api/getQueryInfo/${code}`),
  ]);
  if (!cols.success) throw new Error(cols.message);
  const base = `/online/cgform/api/form/${code}`;
  const formFields = cols.result.formFields ?? [];
  const fields: FormFieldSchema[] = formFields.map((f) => {
    const w = WIDGET[f.view ?? 'text'] ?? WIDGET.text!;
    const dict = f.dictCode && !f.dictCode.includes(',') ? f.dictCode : undefined;
    return { name: f.field, label: f.title, widget: dict && w.widget === 'Input' ? 'Select' : w.widget, required: f.required, disabled: f.readonly || undefined, dict, props: w.props };
  });
  const subTables: SubTableSchema[] = (cols.result.subTables ?? []).map((t) => ({ key: t.key, title: t.title, field: t.key, foreignKey: t.foreignKey, ...(preview ? {} : { listUrl: t.listUrl }), columns: t.columns }));
  const tree = cols.result.tree;
  let columns = columnsOf(cols.result.columns);
  // a tree list shows the node's name first, beside the expand icon
  // (left-aligned, so a child's indent shows)
  if (tree?.nameField) columns = [...columns.filter((c) => c.dataIndex === tree.nameField).map((c) => ({ ...c, align: 'left' as const })), ...columns.filter((c) => c.dataIndex !== tree.nameField)];
  const p = 'online:cgform';
  const actions: PageSchema['actions'] | undefined = tree
    ? {
        toolbar: [
          { key: 'add', label: '新增', type: 'add', permission: `${p}:add`, primary: true },
          { key: 'export', label: '导出', type: 'export', permission: `${p}:exportXls` },
        ],
        row: [
          { key: 'addChild', label: '添加下级', type: 'add', permission: `${p}:add`, values: { [tree.parentField]: '{id}' } } as ActionSchema,
          { key: 'edit', label: '编辑', type: 'edit', permission: `${p}:edit` },
          { key: 'delete', label: '删除', type: 'delete', permission: `${p}:delete`, dropdown: true },
        ],
      }
    : undefined;
  const page: PageSchema = {
    kind: tree ? 'tree-list' : subTables.length ? 'master-detail' : 'list',
    title: cols.result.description || code,
    permission: p,
    api: { list: `/online/cgform/api/getData/${code}`, add: base, edit: base, delete: `${base}/{id}`, deleteBatch: `${base}/{ids}`, exportXls: `/online/cgform/api/exportXls/${code}`, importExcel: `/online/cgform/api/importXls/${code}` },
    columns,
    query: { fields: query.success ? queryOf(query.result) : [] },
    // beside sub-tables the record's fields take two columns (the rows get the height)
    form: { columns: fields.length > 6 || (subTables.length && fields.length > 3) ? 2 : 1, fields, ...(subTables.length ? { subTables, width: 1000 } : {}) },
    ...(tree ? { tree: { parentField: tree.parentField, hasChildField: tree.hasChildField, root: '0' } } : {}),
    ...(actions ? { actions } : {}),
  };
  if (!preview) return page;
  const dict = cols.result.dictOptions ?? {};
  const sample: Record<string, unknown> = { id: 'preview-1' };
  for (const f of formFields) sample[f.field] = sampleOf(f.field, f.title, f.view, dict);
  for (const c of cols.result.columns) sample[c.dataIndex] ??= sampleOf(c.dataIndex, c.title, undefined, dict);
  for (const t of subTables) sample[t.key] = [Object.fromEntries(t.columns.map((c) => [c.key, c.dict ? undefined : sampleOf(c.key, c.title, c.type, {})]))];
  // 新增 / 编辑 are checked by the server against the definition (and its sub-tables') and never saved
  const check = `/online/cgform/api/previewCheck/${code}`;
  return {
    ...page,
    api: { add: check, edit: check },
    hint: '预览：生成的页面和一条示例数据，在这里保存只校验、不写入数据库',
    data: [sample],
    actions: {
      toolbar: [{ key: 'add', label: '新增', type: 'add', primary: true }],
      row: [
        { key: 'edit', label: '编辑', type: 'edit' },
        { key: 'detail', label: '详情', type: 'detail' },
      ],
    },
  };
}

async function reportPage(code: string): Promise<PageSchema> {
  const cols = await http.get<{ columns: OnlineColumn[]; cgRpConfigId: string; cgRpConfigName: string }>(`/online/cgreport/api/getRpColumns/${code}`);
  if (!cols.success) throw new Error(cols.message);
  const id = cols.result.cgRpConfigId;
  const query = await http.get<OnlineQuery[]>(`/online/cgreport/api/getQueryInfo/${id}`);
  return {
    kind: 'report',
    title: cols.result.cgRpConfigName,
    api: { list: `/online/cgreport/api/getData/${id}` },
    columns: columnsOf(cols.result.columns),
    query: { fields: query.success ? queryOf(query.result) : [] },
    actions: { toolbar: [], row: [], batch: [] },
  };
}

export default function OnlinePage({ pageId, schema, params }: { pageId: string; schema: PageSchema; params?: Record<string, unknown> }) {
  const { pathname } = useLocation();
  // the code is the route's last segment, or the bound parameter `code` (a region: 预览 in 表单开发)
  const code = typeof params?.code === 'string' && params.code ? params.code : decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
  const preview = !!schema.online?.preview;
  const [state, setState] = useState<{ page?: PageSchema; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    (schema.online?.report ? reportPage(code) : formPage(code, preview)).then(
      (page) => live && setState({ page }),
      (e: Error) => live && setState({ error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [code, schema, preview]);
  if (state.error) return <Result status="error" title="在线配置加载失败" subTitle={state.error === 'NO_DB_SYNC' ? '表尚未同步到数据库' : state.error} />;
  if (!state.page) return <Spin />;
  return <ListPage key={`${pageId}:${code}`} pageId={`${pageId}/${code}`} schema={state.page} />;
}
