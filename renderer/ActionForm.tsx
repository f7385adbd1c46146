import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Divider, Grid, Modal, Spin, Typography } from 'antd';
import { createForm } from '@formily/core';
import { toJS } from '@formily/reactive';
import { http } from '@core/http/client';
import type { ActionSchema, FormFieldSchema, LoadedFields } from '@shared/page-schema';
import { isReadOnlyField } from '@shared/form-values';
import { usePhoneDialog } from './phoneDialog';
import { initialValuesOf, SchemaFormBody } from './SchemaForm';
import { fillTemplate, fillText, fillUrl } from './template';

type Row = Record<string, unknown>;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);

/** Where the loaded fields' values live in the form when the action sends them under no key (only shown). */
const SHOWN = '_shown';

/**
 * The `form` action's dialog: the action's fields (the page form's field syntax, drawn by the one form
 * body), then `{ [idField]: row id, ...body, ...values }` to `url`. With `fieldsFrom`, the fields of
 * `GET fieldsFrom` (`{ fields, values, title? }`, e.g. a workflow task's form filled with the instance's
 * data) come first, filled with its values, and their editable values go under `fieldsKey`. A refused save
 * keeps what was typed and shows the server's message.
 */
export default function ActionForm({ action: a, record, data, rowKey, onClose }: { action: ActionSchema; record?: Row; data: Row; rowKey: string; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const sheet = usePhoneDialog(a.width ?? 560);
  // `formColumns`: the fields in a grid on wide screens (a field's `span` takes more); one on a phone
  const narrow = Grid.useBreakpoint().md === false;
  const columns = narrow ? undefined : a.formColumns;
  const fromUrl = a.fieldsFrom ? fillUrl(a.fieldsFrom, data) : undefined;
  const [loaded, setLoaded] = useState<LoadedFields | null | undefined>(fromUrl ? undefined : null);
  const [loadError, setLoadError] = useState('');
  useEffect(() => {
    if (!fromUrl) return;
    let live = true;
    http
      .get<LoadedFields>(fromUrl)
      .then((r) => {
        if (!live) return;
        if (r.success && Array.isArray(r.result?.fields)) setLoaded(r.result);
        else setLoadError(r.message || '表单加载失败');
      })
      .catch((e: Error) => live && setLoadError(e.message || '表单加载失败'));
    return () => {
      live = false;
    };
  }, [fromUrl]);
  // The loaded fields live under their key in the form's values (`form.amount`), so they never collide with the action's own.
  const key = a.fieldsKey ?? SHOWN;
  const schema = useMemo(() => {
    // a read-only field with no value is left out (an empty upload button that cannot be used says nothing)
    const shown = (loaded?.fields ?? []).filter((f) => !f.readOnly || !isEmpty(loaded?.values?.[f.name]));
    const extra: FormFieldSchema[] = shown.map((f) => ({ ...f, name: `${key}.${f.name}` }));
    return { fields: [...extra, ...(a.fields ?? [])], ...(columns ? { columns } : {}) };
  }, [a.fields, columns, loaded, key]);
  const form = useMemo(() => {
    const values = a.values ? (fillTemplate(a.values, data) as Row) : undefined;
    const initial: Row = { ...(values && Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== ''))) };
    if (loaded) initial[key] = initialValuesOf({ fields: loaded.fields }, loaded.values ?? {}) ?? {};
    return createForm({ initialValues: initialValuesOf(schema, initial) });
  }, [a.values, data, schema, loaded, key]);

  async function submit() {
    try {
      await form.validate();
    } catch {
      return;
    }
    const id = a.idField === false || !record ? {} : { [a.idField ?? 'id']: record[rowKey] };
    const { [key]: loadedValues, ...own } = toJS(form.values) as Row;
    const body: Row = { ...id, ...(a.body ? (fillTemplate(a.body, data) as Row) : {}), ...own };
    if (loaded && a.fieldsKey) {
      // only the editable loaded fields: read-only ones are shown, the server keeps its own values
      const vals = (loadedValues ?? {}) as Row;
      body[a.fieldsKey] = Object.fromEntries(loaded.fields.filter((f) => !isReadOnlyField(f) && f.name in vals).map((f) => [f.name, vals[f.name]]));
    }
    setSaving(true);
    try {
      const url = fillUrl(a.url!, data);
      const r = a.method === 'put' ? await http.put(url, body) : await http.post(url, body);
      if (!r.success) {
        message.warning(r.message);
        return;
      }
      message.success(r.message || '操作成功！');
      onClose(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={fillText(a.title ?? a.label, data)}
      {...sheet}
      okText={a.submitText ?? '确定'}
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ disabled: loaded === undefined }}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <div data-testid="action-form">
        {a.description && <Typography.Paragraph type="secondary">{fillText(a.description, data)}</Typography.Paragraph>}
        {loadError ? (
          <Alert type="error" showIcon message={loadError} data-testid="action-form-error" />
        ) : loaded === undefined ? (
          <div style={{ textAlign: 'center', padding: 24 }}>
            <Spin data-testid="action-form-loading" />
          </div>
        ) : (
          <>
            {loaded?.title ? (
              <Divider orientation="left" plain style={{ marginTop: 0 }}>
                {loaded.title}
              </Divider>
            ) : null}
            <SchemaFormBody form={form} schema={schema} mode={record ? 'edit' : 'add'} record={record} layout="vertical" />
          </>
        )}
      </div>
    </Modal>
  );
}
