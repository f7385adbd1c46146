import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, Col, Drawer, Empty, Input, Modal, Popconfirm, Row, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';
import type { PageSchema } from '@shared/page-schema';
import { jsonDiff, type JsonChange } from '@shared/json-diff';
import { SchemaPage } from '../SchemaPage';
import { forgetPageSchema } from '../loader';
import { actionTypes, type PageKindProps } from '../registry';
import { ListEditor, type ListEditorField } from './ListEditor';

type Doc = Record<string, any>;
interface Problem {
  file?: string;
  path: string;
  reason: string;
}
interface PageItem {
  id: string;
  title: string;
  kind: string | null;
  version: number | null;
  saved: boolean;
  shippedChanged: boolean;
}
interface VersionItem {
  version: number;
  saved: boolean;
  note: string;
  createBy: string;
  createTime: string;
  shippedChanged: boolean;
}
interface PageInfo {
  id: string;
  shipped: { schema: Doc | null; problems: Problem[] };
  live: { version: number; saved: boolean; schema: Doc | null; problems: Problem[] } | null;
  shippedChanged: boolean;
  versions: VersionItem[];
}

const COLUMN_FIELDS: ListEditorField[] = [
  { key: 'dataIndex', label: '字段' },
  { key: 'title', label: '标题' },
  { key: 'width', label: '宽度', type: 'number', width: 90 },
  { key: 'sorter', label: '排序', type: 'bool' },
  { key: 'dict', label: '字典', width: 120 },
];
const QUERY_FIELDS: ListEditorField[] = [
  { key: 'name', label: '字段' },
  { key: 'label', label: '标签' },
  { key: 'widget', label: '组件', width: 130 },
  { key: 'rule', label: '匹配', type: 'select', options: ['like', 'eq', 'range', 'in', 'begin'], width: 100 },
  { key: 'dict', label: '字典', width: 120 },
];
const FORM_FIELDS: ListEditorField[] = [
  { key: 'name', label: '字段' },
  { key: 'label', label: '标签' },
  { key: 'widget', label: '组件', width: 130 },
  { key: 'required', label: '必填', type: 'bool' },
  { key: 'dict', label: '字典', width: 120 },
];
const TAB_FIELDS: ListEditorField[] = [
  { key: 'key', label: '键', width: 110 },
  { key: 'label', label: '标题' },
  { key: 'page', label: '页面', width: 200 },
];
const ACTION_GROUPS: Array<[string, string]> = [
  ['toolbar', '工具栏按钮'],
  ['row', '行按钮'],
  ['batch', '批量按钮'],
];

/** Sets `path` (object keys) of a copy of `doc`; an empty list removes the key. */
function setIn(doc: Doc, path: string[], value: unknown): Doc {
  const out = structuredClone(doc);
  let at: Doc = out;
  for (const k of path.slice(0, -1)) at = at[k] = at[k] && typeof at[k] === 'object' ? at[k] : {};
  const last = path[path.length - 1]!;
  if (Array.isArray(value) && !value.length && path.length === 1) delete at[last];
  else at[last] = value;
  return out;
}

/**
 * The page designer (kind `designer`, issue 31): pick a screen, edit its schema in forms (columns, query
 * fields, form fields, actions, tabs) or as JSON; every change is validated by the server (the composed
 * meta-schema and the designer's safety rules, POST /design/validate) and a valid draft is previewed beside
 * the editor with real data. 保存 stores a new version (live for every user at once); 版本 lists them
 * with a diff and rollback. The draft is private until saved: a page in use keeps its live version.
 */
export default function PageDesigner(_props: PageKindProps) {
  const { message } = App.useApp();
  const [pages, setPages] = useState<PageItem[]>([]);
  const [id, setId] = useState<string | undefined>(() => new URLSearchParams(window.location.search).get('page') ?? undefined);
  const [info, setInfo] = useState<PageInfo>();
  const [draft, setDraft] = useState<Doc>();
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [preview, setPreview] = useState<{ schema: Doc; n: number }>();
  const [saving, setSaving] = useState(false);
  const [showVersions, setShowVersions] = useState(false);
  const [diff, setDiff] = useState<{ title: string; changes: JsonChange[] }>();
  const [note, setNote] = useState('');
  const validation = useRef(0);

  const loadPages = useCallback(() => http.get<PageItem[]>('/design/pages').then((r) => r.success && setPages(r.result)), []);
  useEffect(() => void loadPages(), [loadPages]);

  const validate = useCallback(
    (pageId: string, doc: Doc) => {
      const n = ++validation.current;
      http.post<{ problems: Problem[] }>('/design/validate', { id: pageId, schema: doc }).then((r) => {
        if (n !== validation.current) return;
        const found = r.success ? r.result.problems : [{ path: '/', reason: r.message }];
        setProblems(found);
        if (!found.length) setPreview((p) => ({ schema: doc, n: (p?.n ?? 0) + 1 }));
      });
    },
    [],
  );

  const open = useCallback(
    async (pageId: string) => {
      const r = await http.get<PageInfo>('/design/page', { id: pageId });
      if (!r.success) return void message.error(r.message);
      setInfo(r.result);
      const doc = r.result.live?.schema ?? r.result.shipped.schema ?? { kind: 'list', title: pageId };
      setDraft(doc);
      setText(JSON.stringify(doc, null, 2));
      setProblems(r.result.live?.schema ? [] : r.result.shipped.problems);
      setPreview((p) => ({ schema: doc, n: (p?.n ?? 0) + 1 }));
    },
    [message],
  );
  useEffect(() => {
    if (id) void open(id);
  }, [id, open]);

  // Validation follows every change, debounced.
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const change = (doc: Doc, fromText = false) => {
    setDraft(doc);
    if (!fromText) setText(JSON.stringify(doc, null, 2));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => id && validate(id, doc), 250);
  };
  const changeText = (t: string) => {
    setText(t);
    let doc: unknown;
    try {
      doc = JSON.parse(t);
    } catch (err) {
      ++validation.current;
      return setProblems([{ path: '/', reason: `JSON 格式有误：${(err as Error).message}` }]);
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return setProblems([{ path: '/', reason: '页面配置必须是 JSON 对象' }]);
    change(doc as Doc, true);
  };

  const save = async () => {
    if (!id || !draft) return;
    setSaving(true);
    try {
      const r = await http.post<{ version: number; problems?: Problem[] }>('/design/save', { id, schema: draft, note });
      if (!r.success) {
        setProblems(r.result?.problems ?? [{ path: '/', reason: r.message }]);
        return void message.error('页面配置有误，未保存');
      }
      message.success(r.message || '已保存');
      setNote('');
      forgetPageSchema(id);
      await Promise.all([open(id), loadPages()]);
    } finally {
      setSaving(false);
    }
  };
  const rollback = async (version: number) => {
    if (!id) return;
    const r = await http.post('/design/rollback', { id, version });
    if (!r.success) return void message.error(r.message);
    message.success(r.message);
    forgetPageSchema(id);
    await Promise.all([open(id), loadPages()]);
  };
  const compare = async (version: number, title: string) => {
    if (!id || !draft) return;
    const r = await http.get<{ schema: Doc | null }>('/design/version', { id, version });
    if (!r.success) return void message.error(r.message);
    setDiff({ title, changes: jsonDiff(r.result.schema, draft) });
  };

  const d = draft ?? {};
  const editors = useMemo(() => {
    if (!draft) return [];
    const list = (label: string, path: string[], fields: ListEditorField[], newItem: () => Doc) => {
      let items: unknown = draft;
      for (const k of path) items = (items as Doc | undefined)?.[k];
      return <ListEditor label={label} items={(items as Doc[] | undefined) ?? []} fields={fields} onChange={(v) => change(setIn(draft, path, v))} newItem={newItem} />;
    };
    const tabs = [
      { key: 'columns', label: '列表列', children: list('列', ['columns'], COLUMN_FIELDS, () => ({ dataIndex: '', title: '新列' })) },
      { key: 'query', label: '查询条件', children: list('查询条件', ['query', 'fields'], QUERY_FIELDS, () => ({ name: '', label: '新条件' })) },
      { key: 'form', label: '表单字段', children: list('表单字段', ['form', 'fields'], FORM_FIELDS, () => ({ name: '', label: '新字段' })) },
      {
        key: 'actions',
        label: '按钮',
        children: (
          <Space direction="vertical" style={{ width: '100%' }}>
            {!draft.actions && <Typography.Text type="secondary">未配置按钮时使用默认按钮（新增、导入、导出、批量删除；行：编辑、详情、删除）。</Typography.Text>}
            {ACTION_GROUPS.map(([group, title]) => (
              <div key={group}>
                <Typography.Text strong>{title}</Typography.Text>
                {list(title, ['actions', group], [{ key: 'key', label: '键', width: 110 }, { key: 'label', label: '名称' }, { key: 'type', label: '类型', type: 'select', options: actionTypes(), width: 130 }, { key: 'permission', label: '权限编码', width: 200 }], () => ({ key: `action${Date.now() % 10000}`, label: '新按钮', type: 'api' }))}
              </div>
            ))}
          </Space>
        ),
      },
    ];
    if (draft.kind === 'tabs' || draft.tabs) tabs.push({ key: 'tabs', label: '标签页', children: list('标签页', ['tabs'], TAB_FIELDS, () => ({ label: '新标签页' })) });
    return tabs;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft]);

  const pageOptions = pages.map((p) => ({ value: p.id, label: `${p.title}（${p.id}）${p.saved ? ` · 已修改 v${p.version}` : ''}` }));

  return (
    <div className="page-designer">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap style={{ width: '100%' }}>
          <Select aria-label="选择页面" showSearch optionFilterProp="label" placeholder="选择要设计的页面" style={{ width: 380, maxWidth: '80vw' }} value={id} options={pageOptions} onChange={(v: string) => setId(v)} />
          {info && (
            <>
              {info.live?.saved ? <Tag color="blue">使用本地版本 v{info.live.version}</Tag> : <Tag>使用出厂配置</Tag>}
              <Input aria-label="版本说明" placeholder="版本说明（可选）" style={{ width: 220 }} value={note} onChange={(e) => setNote(e.target.value)} maxLength={200} />
              <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save}>
                保存
              </Button>
              <Button icon={<HistoryOutlined />} onClick={() => setShowVersions(true)}>
                版本
              </Button>
            </>
          )}
        </Space>
      </Card>
      {!id && <Empty description="请选择一个页面" />}
      {info?.shippedChanged && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message="出厂配置已更新"
          description="保存本地版本之后，该页面的出厂配置有了变化（升级）。当前仍使用本地版本，请对比后决定保留本地版本或恢复出厂配置。"
          action={<Button size="small" onClick={() => compare(0, '出厂配置 → 当前草稿')}>对比出厂配置</Button>}
        />
      )}
      {info?.live?.saved && info.live.problems.length > 0 && <Alert type="error" showIcon style={{ marginBottom: 12 }} message="本地版本不符合当前的页面规范，页面正在使用出厂配置" />}
      {draft && (
        <Row gutter={12}>
          <Col xs={24} xl={10}>
            <Card size="small" title="编辑" style={{ marginBottom: 12 }}>
              {problems.length > 0 ? (
                <Alert
                  type="error"
                  showIcon
                  className="design-problems"
                  style={{ marginBottom: 8 }}
                  message={`页面配置有误（${problems.length} 处）`}
                  description={
                    <ul style={{ margin: 0, paddingLeft: 18 }}>
                      {problems.slice(0, 20).map((p, i) => (
                        <li key={i}>
                          <code>{p.path}</code>：{p.reason}
                        </li>
                      ))}
                    </ul>
                  }
                />
              ) : (
                <Alert type="success" showIcon style={{ marginBottom: 8 }} message="配置有效" />
              )}
              <Tabs
                size="small"
                items={[
                  ...editors,
                  {
                    key: 'json',
                    label: 'JSON',
                    children: <Input.TextArea aria-label="页面配置 JSON" value={text} onChange={(e) => changeText(e.target.value)} autoSize={{ minRows: 16, maxRows: 40 }} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />,
                  },
                ]}
              />
            </Card>
          </Col>
          <Col xs={24} xl={14}>
            <Card size="small" title={`预览：${String(d.title ?? '')}`} className="design-preview" styles={{ body: { padding: 8, overflow: 'auto' } }}>
              {preview && id ? <SchemaPage key={preview.n} pageId={id} schema={preview.schema as PageSchema} embedded /> : <Empty />}
            </Card>
          </Col>
        </Row>
      )}
      <Drawer title="版本" open={showVersions} onClose={() => setShowVersions(false)} width={Math.min(640, window.innerWidth)}>
        <Space style={{ marginBottom: 12 }}>
          <Button onClick={() => compare(0, '出厂配置 → 当前草稿')}>对比出厂配置</Button>
          <Popconfirm title="恢复出厂配置？本地版本会保留在版本列表中。" onConfirm={() => rollback(0)}>
            <Button danger>恢复出厂配置</Button>
          </Popconfirm>
        </Space>
        <Table<VersionItem>
          size="small"
          rowKey="version"
          pagination={false}
          scroll={{ x: 580 }}
          dataSource={info?.versions ?? []}
          columns={[
            { title: '版本', dataIndex: 'version', width: 60, render: (v: number, r) => (r === info?.versions[0] ? <Tag color="blue">v{v} 当前</Tag> : `v${v}`) },
            { title: '说明', dataIndex: 'note', width: 150, render: (v: string, r) => v || (r.saved ? '' : '出厂配置') },
            { title: '保存人', dataIndex: 'createBy', width: 80 },
            { title: '时间', dataIndex: 'createTime', width: 160 },
            {
              title: '操作',
              width: 130,
              render: (_: unknown, r) => (
                <Space size={4}>
                  <a onClick={() => compare(r.version, `版本 v${r.version} → 当前草稿`)}>对比</a>
                  {r !== info?.versions[0] && (
                    <Popconfirm title={`回滚到版本 v${r.version}？`} onConfirm={() => rollback(r.version)}>
                      <a>回滚</a>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Drawer>
      <Modal title={diff?.title} open={!!diff} onCancel={() => setDiff(undefined)} footer={null} width={760}>
        {diff && !diff.changes.length && <Empty description="没有差异" />}
        {diff && diff.changes.length > 0 && (
          <Table<JsonChange>
            size="small"
            rowKey="path"
            pagination={false}
            dataSource={diff.changes}
            scroll={{ y: 480 }}
            columns={[
              { title: '位置', dataIndex: 'path', width: 200, render: (v: string) => <code>{v}</code> },
              { title: '变化', dataIndex: 'kind', width: 60, render: (v: string) => ({ added: <Tag color="green">新增</Tag>, removed: <Tag color="red">删除</Tag>, changed: <Tag color="orange">修改</Tag> })[v] },
              { title: '原值', dataIndex: 'before', render: (v: unknown) => (v === undefined ? '' : <code>{JSON.stringify(v)}</code>) },
              { title: '新值', dataIndex: 'after', render: (v: unknown) => (v === undefined ? '' : <code>{JSON.stringify(v)}</code>) },
            ]}
          />
        )}
      </Modal>
    </div>
  );
}
