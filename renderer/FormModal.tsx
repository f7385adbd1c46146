import { useEffect, useMemo, useState } from 'react';
import { App, Button, Drawer, Input, InputNumber, Modal, Select, Space, Spin, Switch, Table, Tabs } from 'antd';
import { createForm, type Form } from '@formily/core';
import { FormProvider } from '@formily/react';
import { FormLayout } from '@formily/antd-v5';
import { toJS } from '@formily/reactive';
import { http } from '@/http/client';
import { loadDicts, type DictOption } from './dict';
import { formDictCodes, schemaField, toFormilySchema } from './formily';
import { urlsOf, useSessionScope } from './scope';
import type { FormMode } from './ListPage';
import type { PageSchema, SubTableSchema } from './types';

type Row = Record<string, unknown>;
const TITLES: Record<FormMode, string> = { add: '新增', edit: '编辑', detail: '详情' };

/** Rows of one sub-table, edited inline; `_key` is a client-side row key. */
type SubRows = Record<string, Array<Row & { _key: string }>>;
let keySeq = 0;
const withKey = (r: Row) => ({ ...r, _key: `k${++keySeq}` });

function SubTableEditor({ sub, rows, onChange, readOnly, dicts, invalid }: {
  sub: SubTableSchema;
  rows: Array<Row & { _key: string }>;
  onChange: (rows: Array<Row & { _key: string }>) => void;
  readOnly: boolean;
  dicts: Record<string, DictOption[]>;
  invalid: Set<string>;
}) {
  const { modal } = App.useApp();
  const [selected, setSelected] = useState<React.Key[]>([]);
  const set = (key: string, col: string, v: unknown) => onChange(rows.map((r) => (r._key === key ? { ...r, [col]: v } : r)));
  const columns = sub.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: c.required ? <span><span style={{ color: '#ff4d4f' }}>* </span>{c.title}</span> : c.title,
    width: c.width ?? 160,
    render: (v: unknown, r: Row & { _key: string }) => {
      const status = invalid.has(`${r._key}:${c.key}`) ? 'error' : undefined;
      const options = c.options ?? (c.dict ? (dicts[c.dict] ?? []).map((d) => ({ label: d.text, value: d.value })) : undefined);
      if (c.type === 'number') return <InputNumber disabled={readOnly} status={status} value={v as number} onChange={(x) => set(r._key, c.key, x)} />;
      if (c.type === 'switch') return <Switch disabled={readOnly} checked={v === 'Y'} onChange={(x) => set(r._key, c.key, x ? 'Y' : 'N')} />;
      if (c.type === 'select' || options)
        return <Select disabled={readOnly} status={status} style={{ width: '100%' }} value={v as string} options={options} onChange={(x) => set(r._key, c.key, x)} allowClear />;
      return <Input disabled={readOnly} status={status} value={(v as string) ?? ''} onChange={(e) => set(r._key, c.key, e.target.value)} />;
    },
  }));
  return (
    <div>
      {!readOnly && (
        <Space style={{ marginBottom: 8 }}>
          <Button type="primary" onClick={() => onChange([...rows, withKey({})])}>
            新增
          </Button>
          <Button
            disabled={!selected.length}
            onClick={() =>
              modal.confirm({
                title: `确定要删除这 ${selected.length} 项吗?`,
                onOk: () => {
                  onChange(rows.filter((r) => !selected.includes(r._key)));
                  setSelected([]);
                },
              })
            }
          >
            删除
          </Button>
        </Space>
      )}
      <Table<Row & { _key: string }>
        size="small"
        rowKey="_key"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content', y: 400 }}
        rowSelection={readOnly ? undefined : { selectedRowKeys: selected, onChange: setSelected }}
      />
    </div>
  );
}

/** Required cells of every sub-table; returns the failing tab and cells. */
export function validateSubTables(subs: SubTableSchema[], rows: SubRows): { tab?: string; cells: Set<string> } {
  const cells = new Set<string>();
  let tab: string | undefined;
  for (const s of subs)
    for (const r of rows[s.key] ?? [])
      for (const c of s.columns)
        if (c.required && (r[c.key] === undefined || r[c.key] === null || r[c.key] === '')) {
          cells.add(`${r._key}:${c.key}`);
          tab ??= s.key;
        }
  return { tab, cells };
}

export default function FormModal({ schema, mode, record, onClose, onSaved }: { schema: PageSchema; mode: FormMode; record?: Row; onClose: () => void; onSaved: () => void }) {
  const { message } = App.useApp();
  const { scope } = useSessionScope();
  const urls = urlsOf(schema);
  const formSchema = useMemo(() => schema.form ?? { fields: [] }, [schema.form]);
  const subs = useMemo(() => formSchema.subTables ?? [], [formSchema]);
  const [dicts, setDicts] = useState<Record<string, DictOption[]> | null>(null);
  const [subRows, setSubRows] = useState<SubRows>({});
  const [tab, setTab] = useState(subs[0]?.key);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const form: Form = useMemo(() => {
    const initial = record ? { ...record } : undefined;
    // Dictionary values are strings; integer columns come back as numbers.
    if (initial) for (const f of formSchema.fields ?? []) if ((f.dict || f.options) && typeof initial[f.name] === 'number') initial[f.name] = String(initial[f.name]);
    return createForm({ initialValues: initial, pattern: mode === 'detail' ? 'disabled' : 'editable' });
  }, [record, mode, formSchema]);

  useEffect(() => {
    let live = true;
    const codes = [...formDictCodes(formSchema), ...subs.flatMap((s) => s.columns.filter((c) => c.dict && !c.options).map((c) => c.dict!))];
    void loadDicts(codes).then((d) => live && setDicts(d));
    const id = record?.[schema.rowKey ?? 'id'];
    for (const s of subs) {
      if (s.field && Array.isArray(record?.[s.field])) setSubRows((x) => ({ ...x, [s.key]: (record![s.field!] as Row[]).map(withKey) }));
      else if (s.listUrl && id !== undefined)
        void http.get<{ records: Row[] } | Row[]>(s.listUrl, { [s.foreignKey ?? 'id']: id, pageSize: 1000 }).then((r) => {
          if (!live || !r.success) return;
          const list = Array.isArray(r.result) ? r.result : (r.result?.records ?? []);
          setSubRows((x) => ({ ...x, [s.key]: list.map(withKey) }));
        });
    }
    return () => {
      live = false;
    };
  }, [formSchema, subs, record, schema.rowKey]);

  const SchemaField = schemaField();
  const fs = useMemo(() => (dicts ? toFormilySchema(formSchema, mode, dicts) : null), [dicts, formSchema, mode]);

  async function submit() {
    try {
      await form.validate();
    } catch {
      return;
    }
    const check = validateSubTables(subs, subRows);
    setInvalid(check.cells);
    if (check.tab) {
      setTab(check.tab);
      message.warning('子表有必填项未填写');
      return;
    }
    const values: Row = { ...(toJS(form.values) as Row) };
    for (const s of subs) values[s.field ?? s.key] = (subRows[s.key] ?? []).map(({ _key, ...r }) => (void _key, r));
    const url = mode === 'add' ? urls.add : urls.edit;
    if (!url) {
      message.error(mode === 'add' ? '请设置url.add属性!' : '请设置url.edit属性!');
      return;
    }
    setSaving(true);
    try {
      const r = mode === 'add' ? await http.post(url, values) : await http.put(url, { ...record, ...values });
      if (r.success) {
        message.success(r.message);
        onSaved();
      } else message.warning(r.message);
    } finally {
      setSaving(false);
    }
  }

  const body = !fs ? (
    <Spin />
  ) : (
    <FormProvider form={form}>
      <FormLayout labelCol={formSchema.columns && formSchema.columns > 1 ? 8 : 5} wrapperCol={formSchema.columns && formSchema.columns > 1 ? 16 : 18}>
        <SchemaField schema={fs} scope={{ ...scope, $record: record ?? {}, $mode: mode }} />
      </FormLayout>
      {subs.length > 0 && (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={subs.map((s) => ({
            key: s.key,
            label: s.title,
            forceRender: true,
            children: (
              <SubTableEditor
                sub={s}
                rows={subRows[s.key] ?? []}
                onChange={(rows) => setSubRows((x) => ({ ...x, [s.key]: rows }))}
                readOnly={mode === 'detail'}
                dicts={dicts ?? {}}
                invalid={invalid}
              />
            ),
          }))}
        />
      )}
    </FormProvider>
  );
  const title = formSchema.title ?? TITLES[mode];
  const width = formSchema.width ?? (subs.length ? 1200 : 800);
  if (formSchema.container === 'drawer')
    return (
      <Drawer
        open
        title={title}
        width={width}
        onClose={onClose}
        extra={
          <Space>
            <Button onClick={onClose}>关闭</Button>
            <Button type="primary" loading={saving} disabled={mode === 'detail'} onClick={() => void submit()}>
              {formSchema.submitText ?? '确定'}
            </Button>
          </Space>
        }
      >
        {body}
      </Drawer>
    );
  return (
    <Modal open title={title} width={width} onCancel={onClose} onOk={() => void submit()} okText={formSchema.submitText ?? '确定'} cancelText="关闭" confirmLoading={saving} okButtonProps={{ disabled: mode === 'detail' }} destroyOnHidden>
      {body}
    </Modal>
  );
}
