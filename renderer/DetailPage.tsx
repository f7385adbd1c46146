import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Space, Spin } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import type { PageSchema } from '@shared/page-schema';
import { condition } from '@shared/expr';
import { filterActions } from './permissions';
import type { PageKindProps, Row } from './registry';
import { urlsOf, useSessionScope } from './scope';
import { Sections } from './Sections';
import { useActionRunner } from './useActions';

const FormModal = lazy(() => import('./FormModal'));
const NO_RECORD: Row = {};

/**
 * The record a detail page (or a tabs page with sections) shows: `data[0]` (static pages), else
 * `api.queryById` with the id of the bound parameters or of the page URL (`?id=`), else the parent record.
 */
export function useRecord(schema: PageSchema, params: Record<string, unknown> | undefined, parent: Row | undefined) {
  const { search } = useLocation();
  const url = urlsOf(schema).queryById;
  const id = String(params?.id ?? new URLSearchParams(search).get('id') ?? '');
  const fetches = !schema.data?.[0] && !!url && !!id;
  const fixed = fetches ? undefined : (schema.data?.[0] ?? parent ?? NO_RECORD);
  const [state, setState] = useState<{ record?: Row; error?: string }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!fetches || !url) return;
    let live = true;
    void http.get<Row>(url, { id }).then(
      (r) => live && setState(r.success && r.result ? { record: r.result } : { error: r.message || '未找到对应数据' }),
      () => live && setState({ error: '加载失败' }),
    );
    return () => {
      live = false;
    };
  }, [fetches, url, id, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { record: fixed ?? state.record, error: fixed ? undefined : state.error, reload };
}

/** detail: one record — its sections (descriptions, bound sub-lists, a timeline of its log) and its actions (`actions.row`, run on the record). */
export default function DetailPage({ pageId, schema, params, parent, embedded }: PageKindProps) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { record, error, reload } = useRecord(schema, params, parent);
  const { scope, perms } = useSessionScope();
  const [form, setForm] = useState<{ mode: 'add' | 'edit' | 'detail'; record?: Row } | null>(null);
  const actions = useMemo(
    () => (record ? filterActions(schema.actions?.row ?? [], perms, { prefix: schema.permission, cond: (v) => condition(v, { ...scope, $record: record }) }) : []),
    [schema, perms, scope, record],
  );
  const rowKey = schema.rowKey ?? 'id';
  const { run, dialogs } = useActionRunner(() => ({
    pageId,
    schema,
    selected: record ? [String(record[rowKey])] : [],
    rowKey,
    params: params ?? {},
    listParams: () => ({ ...params }),
    reload,
    openForm: (mode, r) => setForm({ mode, record: r ?? record }),
    remove: async (ids) => {
      const url = urlsOf(schema).delete;
      if (!url) return void message.error('请设置url.delete属性!');
      const r = await http.delete(url, { id: ids[0] });
      if (!r.success) return void message.warning(r.message);
      message.success(r.message);
      if (!embedded) navigate(-1);
    },
  }));
  const start = (a: (typeof actions)[number]) => {
    if (a.type === 'delete' || a.confirm) modal.confirm({ title: '确认操作', content: a.confirm ?? '确定删除吗?', onOk: () => run(a, record) });
    else void run(a, record);
  };
  const buttons = actions.length > 0 && (
    <Space wrap className="schema-detail-actions">
      {actions.map((a) => (
        <Button key={a.key} type={a.primary ? 'primary' : 'default'} danger={a.danger} disabled={a.denied} onClick={() => start(a)}>
          {a.label}
        </Button>
      ))}
    </Space>
  );
  const body = error ? (
    <Alert type="warning" showIcon message={error} />
  ) : !record ? (
    <div style={{ padding: 32, textAlign: 'center' }}>
      <Spin />
    </div>
  ) : (
    <Sections sections={schema.sections ?? []} record={record} />
  );
  const extras = (
    <Suspense fallback={null}>
      {form && <FormModal schema={schema} mode={form.mode} record={form.record} onClose={() => setForm(null)} onSaved={() => (setForm(null), reload())} />}
      {dialogs}
    </Suspense>
  );
  if (embedded)
    return (
      <div className="schema-detail">
        {buttons && <div style={{ marginBottom: 16 }}>{buttons}</div>}
        {body}
        {extras}
      </div>
    );
  return (
    <Card className="schema-detail" variant="borderless" title={schema.title} extra={buttons || undefined}>
      {body}
      {extras}
    </Card>
  );
}
