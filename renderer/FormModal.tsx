import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Drawer, Grid, Input, InputNumber, Modal, Select, Space, Switch, Table, Tabs } from 'antd';
import { createForm, type Form } from '@formily/core';
import { toJS } from '@formily/reactive';
import { dataProvider } from '@core/data';
import { http } from '@core/http/client';
import type { DictOption } from '@core/dict';
import { phoneDialogProps } from './phoneDialog';
import { initialValuesOf, SchemaFormBody } from './SchemaForm';
import { urlsOf } from './scope';
import type { FormMode } from './ListPage';
import type { FormSubmitAction, PageSchema, SubTableSchema } from '@shared/page-schema';
import { fillUrl } from './template';

type Row = Record<string, unknown>;
const TITLES: Record<FormMode, string> = { add: '新增', edit: '编辑', detail: '详情' };

/** A form's default title names the thing: 新增听课记录, 编辑用户 (the page title less 管理/列表), 听课记录详情. */
function formTitle(mode: FormMode, pageTitle?: string): string {
  const thing = (pageTitle ?? '').replace(/(管理|列表)$/, '').trim();
  if (!thing) return TITLES[mode];
  return mode === 'detail' ? `${thing}详情` : `${TITLES[mode]}${thing}`;
}
/** A drawer is never wider than the screen (a phone sees all of it, close button included). */
const DRAWER_STYLES = { wrapper: { maxWidth: '100vw' } };

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
        return <Select disabled={readOnly} status={status} style={{ width: '100%' }} value={v === undefined || v === null ? undefined : String(v)} options={options} onChange={(x) => set(r._key, c.key, x)} allowClear />;
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

/**
 * Saves one sub-table through its own resource: removed rows deleted, new rows added with the
 * foreign key, changed rows edited. Returns the first error message, if any.
 */
async function saveSubRows(s: SubTableSchema, masterId: unknown, before: Row[], after: Row[]): Promise<string | undefined> {
  const fk = s.foreignKey ?? 'pid';
  const kept = new Set(after.map((r) => r.id).filter(Boolean));
  const removed = before.filter((r) => !kept.has(r.id)).map((r) => String(r.id));
  if (removed.length) {
    const r = await dataProvider.delete(s.resource!, removed, true);
    if (!r.success) return r.message;
  }
  for (const row of after) {
    const old = before.find((b) => b.id === row.id);
    if (old && s.columns.every((c) => old[c.key] === row[c.key])) continue;
    const r = row.id ? await dataProvider.update(s.resource!, { ...old, ...row }) : await dataProvider.create(s.resource!, { ...row, [fk]: masterId });
    if (!r.success) return r.message;
  }
  return undefined;
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
  const { message, modal } = App.useApp();
  const urls = urlsOf(schema);
  // A phone gets one column of fields with their labels above them (never cut to 教…).
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;
  const phone = screens.sm === false;
  const baseSchema = useMemo(() => schema.form ?? { fields: [] }, [schema.form]);
  // Drawn with one column on a phone; the form itself (and what was typed) survives a rotation.
  const formSchema = useMemo(() => (narrow && (baseSchema.columns ?? 1) > 1 ? { ...baseSchema, columns: 1 as const } : baseSchema), [baseSchema, narrow]);
  const subs = useMemo(() => baseSchema.subTables ?? [], [baseSchema]);
  const [subRows, setSubRows] = useState<SubRows>({});
  const [tab, setTab] = useState(subs[0]?.key);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  /** Which button is saving: the form's own submit (`''`) or a submit action's key. */
  const [saving, setSaving] = useState<string | null>(null);
  const loadedSub = useRef<Record<string, Row[]>>({});
  const form: Form = useMemo(
    () => createForm({ initialValues: initialValuesOf(baseSchema, record), pattern: mode === 'detail' ? 'disabled' : 'editable' }),
    [record, mode, baseSchema],
  );
  const subDicts = useMemo(() => subs.flatMap((s) => s.columns.filter((c) => c.dict && !c.options).map((c) => c.dict!)), [subs]);

  useEffect(() => {
    let live = true;
    const id = record?.[schema.rowKey ?? 'id'];
    for (const s of subs) {
      if (s.field && Array.isArray(record?.[s.field])) setSubRows((x) => ({ ...x, [s.key]: (record![s.field!] as Row[]).map(withKey) }));
      else if (s.listUrl && id !== undefined)
        void http.get<{ records: Row[] } | Row[]>(s.listUrl, { [s.foreignKey ?? 'id']: id, pageSize: 1000 }).then((r) => {
          if (!live || !r.success) return;
          const list = Array.isArray(r.result) ? r.result : (r.result?.records ?? []);
          loadedSub.current[s.key] = list;
          setSubRows((x) => ({ ...x, [s.key]: list.map(withKey) }));
        });
    }
    return () => {
      live = false;
    };
  }, [subs, record, schema.rowKey]);

  const [labelCol, wrapperCol] = formSchema.columns && formSchema.columns > 1 ? [8, 16] : [5, 18];
  const layout = narrow ? ('vertical' as const) : undefined;

  const submitActions = useMemo(() => (mode === 'detail' ? [] : (formSchema.submitActions ?? []).filter((a) => !a.modes || a.modes.includes(mode))), [formSchema, mode]);

  /**
   * The values a submit action sets are in the form while it validates and saves (field validators see
   * them, e.g. a status); pressing another button puts the record's own values back.
   */
  function applyActionValues(action?: FormSubmitAction) {
    const keys = new Set(submitActions.flatMap((a) => Object.keys(a.values ?? {})));
    for (const k of keys) form.setValuesIn(k, action?.values && k in action.values ? action.values[k] : record?.[k]);
  }

  /** Validates with the button's values; asks the button's question (only once the form is valid); saves. */
  async function submit(action?: FormSubmitAction) {
    applyActionValues(action);
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
    const strip = (rows: Array<Row & { _key: string }>) => rows.map(({ _key, ...r }) => (void _key, r));
    // Sub-tables with their own resource are saved row by row after the master; others go with it.
    for (const s of subs) if (!s.resource) values[s.field ?? s.key] = strip(subRows[s.key] ?? []);
    const resource = { ...urls, resource: schema.resource };
    if (!action?.url && !(mode === 'add' ? urls.add : urls.edit)) {
      message.error(mode === 'add' ? '请设置url.add属性!' : '请设置url.edit属性!');
      return;
    }
    if (action?.confirm && !(await modal.confirm({ title: '确认操作', content: action.confirm }))) return;
    setSaving(action?.key ?? '');
    try {
      const r = action?.url
        ? await http.post(fillUrl(action.url, { ...record, ...values }), mode === 'add' ? values : { ...record, ...values })
        : mode === 'add'
          ? await dataProvider.create(resource, values)
          : await dataProvider.update(resource, { ...record, ...values });
      if (!r.success) {
        message.warning(r.message);
        return;
      }
      const masterId = record?.[schema.rowKey ?? 'id'];
      for (const s of subs) {
        if (!s.resource || mode !== 'edit') continue;
        const failed = await saveSubRows(s, masterId, loadedSub.current[s.key] ?? [], strip(subRows[s.key] ?? []));
        if (failed) {
          setTab(s.key);
          message.warning(`${s.title}保存失败：${failed}`);
          return;
        }
      }
      message.success(r.message);
      onSaved();
    } finally {
      setSaving(null);
    }
  }

  const body = (
    <SchemaFormBody form={form} schema={formSchema} mode={mode} record={record} labelCol={labelCol} wrapperCol={wrapperCol} layout={layout} extraDicts={subDicts}>
      {(dicts) =>
        subs.length > 0 && (
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={subs.map((s) => ({
              key: s.key,
              label: s.title,
              forceRender: true,
              children: s.resource && mode === 'add' ? (
                <Alert type="info" showIcon message={`请先保存，再维护${s.title}`} />
              ) : (
                <SubTableEditor
                  sub={s}
                  rows={subRows[s.key] ?? []}
                  onChange={(rows) => {
                    const next = { ...subRows, [s.key]: rows };
                    setSubRows(next);
                    // A corrected cell loses its error mark at once; new errors wait for the next submit.
                    if (invalid.size) setInvalid(new Set([...validateSubTables(subs, next).cells].filter((c) => invalid.has(c))));
                  }}
                  readOnly={mode === 'detail'}
                  dicts={dicts}
                  invalid={invalid}
                />
              ),
            }))}
          />
        )
      }
    </SchemaFormBody>
  );
  const title = formSchema.titles?.[mode] ?? formSchema.title ?? formTitle(mode, schema.title);
  const actionButtons = submitActions.map((a) => (
    <Button key={a.key} type={a.primary ? 'primary' : 'default'} danger={a.danger} loading={saving === a.key} disabled={saving !== null && saving !== a.key} onClick={() => void submit(a)}>
      {a.label}
    </Button>
  ));
  const ownPrimary = !submitActions.some((a) => a.primary);
  const width = formSchema.width ?? (subs.length ? 1200 : 800);
  if (formSchema.container === 'drawer') {
    const buttons = (
      <Space wrap className="schema-form-buttons" style={narrow ? { width: '100%', justifyContent: 'flex-end' } : undefined}>
        <Button onClick={onClose}>关闭</Button>
        <Button type={ownPrimary ? 'primary' : 'default'} loading={saving === ''} disabled={mode === 'detail' || (saving !== null && saving !== '')} onClick={() => void submit()}>
          {formSchema.submitText ?? '确定'}
        </Button>
        {actionButtons}
      </Space>
    );
    // On a phone the buttons sit under the form (the header keeps the title whole).
    return (
      <Drawer open title={title} width={width} styles={DRAWER_STYLES} onClose={onClose} extra={narrow ? undefined : buttons} footer={narrow ? buttons : undefined}>
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open
      title={title}
      {...phoneDialogProps(phone, width)}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={formSchema.submitText ?? '确定'}
      cancelText="关闭"
      confirmLoading={saving === ''}
      okButtonProps={{ disabled: mode === 'detail' || (saving !== null && saving !== ''), type: ownPrimary ? 'primary' : 'default' }}
      footer={actionButtons.length ? (_, { OkBtn, CancelBtn }) => (<><CancelBtn /><OkBtn />{actionButtons}</>) : undefined}
      destroyOnHidden
    >
      {body}
    </Modal>
  );
}
