import { useMemo, useState } from 'react';
import { App, Grid, Modal, Typography } from 'antd';
import { createForm } from '@formily/core';
import { toJS } from '@formily/reactive';
import { http } from '@core/http/client';
import type { ActionSchema } from '@shared/page-schema';
import { usePhoneDialog } from './phoneDialog';
import { initialValuesOf, SchemaFormBody } from './SchemaForm';
import { fillTemplate, fillText, fillUrl } from './template';

type Row = Record<string, unknown>;

/**
 * The `form` action's dialog: the action's fields (the page form's field syntax, drawn by the one form
 * body), then `{ [idField]: row id, ...body, ...values }` to `url`. A refused save keeps what was typed
 * and shows the server's message.
 */
export default function ActionForm({ action: a, record, data, rowKey, onClose }: { action: ActionSchema; record?: Row; data: Row; rowKey: string; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const sheet = usePhoneDialog(a.width ?? 560);
  // `formColumns`: the fields in a grid on wide screens (a field's `span` takes more); one column on a phone
  const narrow = Grid.useBreakpoint().md === false;
  const columns = narrow ? undefined : a.formColumns;
  const schema = useMemo(() => ({ fields: a.fields ?? [], ...(columns ? { columns } : {}) }), [a.fields, columns]);
  const form = useMemo(() => {
    const values = a.values ? (fillTemplate(a.values, data) as Row) : undefined;
    const initial = values && Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== ''));
    return createForm({ initialValues: initialValuesOf(schema, initial) });
  }, [a.values, data, schema]);

  async function submit() {
    try {
      await form.validate();
    } catch {
      return;
    }
    const id = a.idField === false || !record ? {} : { [a.idField ?? 'id']: record[rowKey] };
    const body = { ...id, ...(a.body ? (fillTemplate(a.body, data) as Row) : {}), ...(toJS(form.values) as Row) };
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
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <div data-testid="action-form">
        {a.description && <Typography.Paragraph type="secondary">{fillText(a.description, data)}</Typography.Paragraph>}
        <SchemaFormBody form={form} schema={schema} mode={record ? 'edit' : 'add'} record={record} layout="vertical" />
      </div>
    </Modal>
  );
}
