import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Grid, Menu, Result, Space, Spin, Typography } from 'antd';
import { createForm, onFieldInputValueChange, type Form } from '@formily/core';
import { toJS } from '@formily/reactive';
import { useSetAtom } from 'jotai';
import { useLocation } from 'react-router-dom';
import { http } from '@core/http/client';
import { userInfoAtom } from '@core/session/store';
import { getWidget } from '@widgets/registry';
import type { FormSectionSchema, FormSubmitSchema, PageSchema } from '@shared/page-schema';
import type { PageKindProps } from './registry';
import { PageActions } from './PageActions';
import { initialValuesOf, SchemaFormBody } from './SchemaForm';
import { fillTemplate, fillUrl, pathOf } from './template';
import { urlsOf } from './scope';

type Row = Record<string, unknown>;

/** The sections of a form page: `form.sections`, else one untitled section of `form.fields`. */
export function sectionsOf(schema: PageSchema): FormSectionSchema[] {
  const f = schema.form ?? {};
  return f.sections?.length ? f.sections : [{ key: 'form', title: '', fields: f.fields ?? [], schema: f.schema, columns: f.columns, submitText: f.submitText }];
}

/** One section: its fields over its part of the record, saved on its button (or on every change). */
function Section({ pageId, schema, section: s, record, data, single, onSaved }: {
  pageId: string;
  schema: PageSchema;
  section: FormSectionSchema;
  record: Row;
  data: Row;
  single: boolean;
  /** The saved values, for the page's copy of the record (other sections show the same fields). */
  onSaved: (path: string | undefined, values: Row) => void;
}) {
  const { message } = App.useApp();
  const setUser = useSetAtom(userInfoAtom);
  const [saving, setSaving] = useState(false);
  const values = useMemo(() => ((s.path ? pathOf(record, s.path) : record) ?? {}) as Row, [record, s.path]);
  const addUrl = urlsOf(schema).add;
  const submit = useMemo<FormSubmitSchema | undefined>(
    () => s.submit ?? (single || !s.path ? (schema.submit ?? (addUrl ? { url: addUrl } : undefined)) : undefined),
    [s.submit, s.path, single, schema.submit, addUrl],
  );
  // A single form with nowhere to save (a demo or a check-only form) still validates on 提交.
  const checkOnly = !submit && single && ((s.fields?.length ?? 0) > 0 || !!s.schema);
  const fields = useMemo(() => ({ fields: s.fields ?? [], schema: s.schema, columns: s.columns }), [s]);
  const hasFields = (s.fields?.length ?? 0) > 0 || !!s.schema;

  const save = useCallback(
    async (form: Form) => {
      if (!submit && !checkOnly) return;
      try {
        await form.validate();
      } catch {
        return;
      }
      if (!submit) return void message.success('提交成功');
      const typed = toJS(form.values) as Row;
      const body = { ...(submit.merge ? values : {}), ...(submit.body ? (fillTemplate(submit.body, { ...data, ...values }) as Row) : {}), ...typed };
      setSaving(true);
      try {
        const url = fillUrl(submit.url, { ...data, ...values });
        const r = submit.method === 'put' ? await http.put<Row>(url, body) : await http.post<Row>(url, body);
        // A refused save keeps what was typed (the form is not reset) and shows the server's message.
        if (!r.success) return void message.warning(r.message);
        message.success(submit.successMessage ?? (r.message || '保存成功！'));
        onSaved(s.path, typed);
        const u = r.result;
        if (submit.refreshUser && u && typeof u === 'object') setUser((old) => (old ? { ...old, realname: String(u.realname ?? old.realname ?? ''), avatar: String(u.avatar ?? '') } : old));
      } finally {
        setSaving(false);
      }
    },
    [submit, checkOnly, values, data, message, setUser, s.path, onSaved],
  );

  const form = useMemo(
    () =>
      createForm({
        initialValues: initialValuesOf(fields, values),
        effects: () => {
          if (s.autoSubmit) onFieldInputValueChange('*', (_f, f) => void save(f as Form));
        },
      }),
    // The form is made once per loaded record (a save does not reset it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fields, values, s.autoSubmit],
  );
  const W = s.widget ? getWidget(s.widget) : undefined;
  return (
    <div data-testid={s.testId} className="form-page-section" style={{ maxWidth: (s.columns ?? 1) > 1 ? undefined : 560 }}>
      {s.description && <Typography.Paragraph type="secondary">{s.description}</Typography.Paragraph>}
      {s.widget && (W ? <W {...s.widgetProps} record={values} /> : <Alert type="error" message={`未注册的组件：${s.widget}`} />)}
      {hasFields && <SchemaFormBody form={form} schema={fields} mode="edit" record={values} layout="vertical" />}
      {(s.actions?.length || ((submit || checkOnly) && !s.autoSubmit)) && (
        <Space wrap style={{ marginTop: 8 }}>
          {(submit || checkOnly) && !s.autoSubmit && (
            <Button type="primary" loading={saving} onClick={() => void save(form)}>
              {s.submitText ?? schema.form?.submitText ?? (checkOnly ? '提交' : '保存')}
            </Button>
          )}
          {s.actions?.length ? <PageActions pageId={pageId} schema={schema} actions={s.actions} record={values} params={data} /> : null}
        </Space>
      )}
    </div>
  );
}

/**
 * A form page (kind "form"): `load` the record (e.g. the signed-in user's own profile), edit it in one
 * or more sections (`form.sections`, stacked or — `layout: "nav"` — as panels of a side menu chosen by
 * the URL's last segment), each saved by `submit` (page-wide or its own). A refused save keeps what was
 * typed and shows the server's message.
 */
export default function FormPage({ pageId, schema, params, embedded }: PageKindProps) {
  const { pathname, search } = useLocation();
  const screens = Grid.useBreakpoint();
  const data = useMemo(() => ({ ...Object.fromEntries(new URLSearchParams(search)), ...params }) as Row, [search, params]);
  const [state, setState] = useState<{ record?: Row; error?: string }>(() => (schema.load ? {} : { record: {} }));
  const sections = useMemo(() => sectionsOf(schema), [schema]);
  const last = pathname.split('/').pop() ?? '';
  const [panel, setPanel] = useState(() => (sections.find((s) => s.key === last) ?? sections[0])?.key);

  useEffect(() => {
    if (!schema.load) return;
    let live = true;
    const { url, path } = schema.load;
    void http.get(fillUrl(url, data)).then(
      (r) => live && setState(r.success ? { record: ((path ? pathOf(r.result, path) : r.result) ?? {}) as Row } : { error: r.message }),
      (e: Error) => live && setState({ error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [schema.load, data]);

  const onSaved = useCallback(
    (path: string | undefined, v: Row) =>
      setState((st) => {
        const rec = st.record ?? {};
        if (!path) return { record: { ...rec, ...v } };
        // The saved part of the record (a dotted path) takes the saved values.
        const put = (o: Row, keys: string[]): Row => (keys.length ? { ...o, [keys[0]!]: put(((o[keys[0]!] as Row) ?? {}) as Row, keys.slice(1)) } : { ...o, ...v });
        return { record: put(rec, path.split('.')) };
      }),
    [],
  );
  const body = () => {
    if (state.error) return <Result status="warning" title={state.error} />;
    if (!state.record) return <Spin />;
    const draw = (s: FormSectionSchema) => <Section key={s.key ?? s.title} pageId={pageId} schema={schema} section={s} record={state.record!} data={data} single={sections.length === 1} onSaved={onSaved} />;
    if (schema.layout === 'nav') {
      const s = sections.find((x) => x.key === panel) ?? sections[0]!;
      const narrow = !screens.md;
      return (
        <div style={{ display: 'flex', flexDirection: narrow ? 'column' : 'row' }}>
          <Menu
            mode={narrow ? 'horizontal' : 'inline'}
            style={narrow ? { marginBottom: 16 } : { width: 224, flex: 'none', borderInlineEnd: '1px solid #f0f0f0' }}
            selectedKeys={[s.key ?? '']}
            items={sections.map((x) => ({ key: x.key ?? x.title, label: x.title }))}
            onClick={({ key }) => setPanel(key)}
          />
          <div style={{ flex: 1, minWidth: 0, padding: narrow ? 0 : '8px 40px' }}>
            <div style={{ fontSize: 20, fontWeight: 500, marginBottom: 12 }}>{s.title}</div>
            {draw(s)}
          </div>
        </div>
      );
    }
    return sections.map((s) =>
      s.title ? (
        <Card key={s.key ?? s.title} type="inner" title={s.title} style={{ marginBottom: 16 }}>
          {draw(s)}
        </Card>
      ) : (
        draw(s)
      ),
    );
  };
  return (
    <Card bordered={false} title={embedded ? undefined : schema.title} className="form-page">
      {schema.description && <Typography.Paragraph type="secondary">{schema.description}</Typography.Paragraph>}
      {body()}
    </Card>
  );
}
