import { useEffect, useState } from 'react';
import { Result, Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { http } from '@core/http/client';
import { ListPage } from './ListPage';
import type { ColumnSchema, FormFieldSchema, PageSchema, QueryFieldSchema } from '@shared/page-schema';

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
  cols.map((c) => ({ dataIndex: c.dataIndex, title: c.title, sorter: !!c.sorter, ellipsis: true, ...(c.customRender ? { dict: c.customRender } : {}) }));

async function formPage(code: string): Promise<PageSchema> {
  const [cols, query] = await Promise.all([
    http.get<{ columns: OnlineColumn[]; description: string; formFields?: OnlineFormField[]; checkboxFlag?: string }>(`/online/cgform/api/getColumns/${code}`),
    http.get<OnlineQuery[]>(`/online/cgform/api/getQueryInfo/${code}`),
  ]);
  if (!cols.success) throw new Error(cols.message);
  const base = `/online/cgform/api/form/${code}`;
  const fields: FormFieldSchema[] = (cols.result.formFields ?? []).map((f) => {
    const w = WIDGET[f.view ?? 'text'] ?? WIDGET.text!;
    const dict = f.dictCode && !f.dictCode.includes(',') ? f.dictCode : undefined;
    return { name: f.field, label: f.title, widget: dict && w.widget === 'Input' ? 'Select' : w.widget, required: f.required, disabled: f.readonly || undefined, dict, props: w.props };
  });
  return {
    kind: 'list',
    title: cols.result.description || code,
    permission: 'online:cgform',
    api: { list: `/online/cgform/api/getData/${code}`, add: base, edit: base, delete: `${base}/{id}`, deleteBatch: `${base}/{ids}` },
    columns: columnsOf(cols.result.columns),
    query: { fields: query.success ? queryOf(query.result) : [] },
    form: { columns: fields.length > 6 ? 2 : 1, fields },
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

export default function OnlinePage({ pageId, schema }: { pageId: string; schema: PageSchema }) {
  const { pathname } = useLocation();
  const code = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
  const [state, setState] = useState<{ page?: PageSchema; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    (schema.online?.report ? reportPage(code) : formPage(code)).then(
      (page) => live && setState({ page }),
      (e: Error) => live && setState({ error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [code, schema]);
  if (state.error) return <Result status="error" title="在线配置加载失败" subTitle={state.error === 'NO_DB_SYNC' ? '表尚未同步到数据库' : state.error} />;
  if (!state.page) return <Spin />;
  return <ListPage key={`${pageId}:${code}`} pageId={`${pageId}/${code}`} schema={state.page} />;
}
