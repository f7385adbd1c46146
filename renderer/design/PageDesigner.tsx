import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, Col, Drawer, Empty, Input, Modal, Popconfirm, Row, Select, Space, Table, Tabs, Tag } from 'antd';
import { HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';
import type { PageSchema } from '@shared/page-schema';
import { jsonDiff, type JsonChange } from '@shared/json-diff';
import { SchemaPage } from '../SchemaPage';
import { forgetPageSchema } from '../loader';
import type { PageKindProps } from '../registry';
import type { Problem } from './ListEditor';
import { editorTabs } from './editors';

type Doc = Record<string, any>;
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
  /** What the upgrade changed in the shipped file under the live local version. */
  shippedChange: { before: Doc | null; after: Doc | null; changes: JsonChange[] } | null;
  versions: VersionItem[];
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
  const [tab, setTab] = useState('columns');
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
      // the version the draft started from: a save never overwrites another author's newer one unseen
      const baseVersion = info?.versions[0]?.version ?? 0;
      const r = await http.post<{ version: number; problems?: Problem[]; conflict?: number }>('/design/save', { id, schema: draft, note, baseVersion });
      if (!r.success) {
        if (r.result?.conflict) return void message.error(r.message, 8);
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
  /** After an upgrade changed the shipped file: re-apply the local changes to it, or keep the local version. */
  const upgrade = async (mode: 'reapply' | 'keep') => {
    if (!id) return;
    const r = await http.post<{ version: number; conflicts?: string[]; problems?: Problem[]; schema?: Doc }>('/design/upgrade', { id, mode, baseVersion: info?.versions[0]?.version ?? 0 });
    if (!r.success) {
      // the merge does not validate: it becomes the draft, with its problems, for the author to fix and save
      if (r.result?.schema) {
        change(r.result.schema);
        setProblems(r.result.problems ?? []);
      }
      return void message.error(r.message, 8);
    }
    message.success(r.message, r.result.conflicts?.length ? 8 : 3);
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
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const editors = useMemo(() => (draft ? editorTabs(draft, problems, change) : []), [draft, problems]);

  const pageOptions = pages.map((p) => ({ value: p.id, label: `${p.title}（${p.id}）${p.saved ? ` · 已修改 v${p.version}` : ''}${p.shippedChanged ? ' · 出厂配置已更新' : ''}` }));
  const upgraded = pages.filter((p) => p.shippedChanged);

  return (
    <div className="page-designer">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap style={{ width: '100%' }}>
          <Select aria-label="选择页面" showSearch optionFilterProp="label" placeholder="选择要设计的页面" style={{ width: 'min(480px, calc(100vw - 72px))' }} value={id} options={pageOptions} onChange={(v: string) => setId(v)} />
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
      {upgraded.length > 0 && !info?.shippedChange && (
        <Alert
          type="warning"
          showIcon
          className="design-upgraded-pages"
          style={{ marginBottom: 12 }}
          message={`${upgraded.length} 个页面的出厂配置在本地版本之后有更新`}
          description={
            <Space wrap size={[4, 4]}>
              {upgraded.map((p) => (
                <Tag key={p.id} color="warning" style={{ cursor: 'pointer' }} onClick={() => setId(p.id)}>
                  {p.title}（{p.id}）
                </Tag>
              ))}
            </Space>
          }
        />
      )}
      {!id && <Empty description="请选择一个页面" />}
      {info?.shippedChange && (
        <Alert
          type="warning"
          showIcon
          className="design-shipped-notice"
          style={{ marginBottom: 12 }}
          message="出厂配置已更新"
          description={
            <>
              本地版本 v{info.live?.version} 保存之后，该页面的出厂配置有了变化（升级）{info.shippedChange.before ? `，共 ${info.shippedChange.changes.length} 处` : ''}。页面仍在使用本地版本：可以把本地的修改基于新的出厂配置重新应用，或者保留本地版本。
              <Space wrap size={8} style={{ display: 'flex', marginTop: 8 }}>
                {info.shippedChange.before && (
                  <Button size="small" onClick={() => setDiff({ title: '出厂配置的变化（升级前 → 升级后）', changes: info.shippedChange!.changes })}>
                    查看出厂配置的变化
                  </Button>
                )}
                <Button size="small" onClick={() => compare(0, '出厂配置 → 当前草稿')}>
                  对比出厂配置
                </Button>
                {info.shippedChange.before && (
                  <Button size="small" type="primary" onClick={() => upgrade('reapply')}>
                    基于新默认重新应用
                  </Button>
                )}
                <Button size="small" onClick={() => upgrade('keep')}>
                  保留本地版本
                </Button>
              </Space>
            </>
          }
        />
      )}
      {info?.live?.saved && info.live.problems.length > 0 && <Alert type="error" showIcon style={{ marginBottom: 12 }} message="本地版本不符合当前的页面规范，页面正在使用出厂配置" />}
      {draft && (
        <Row gutter={12}>
          <Col xs={24} xxl={10}>
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
                activeKey={editors.some((e) => e.key === tab) || tab === 'json' ? tab : (editors[0]?.key ?? 'json')}
                onChange={setTab}
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
          <Col xs={24} xxl={14}>
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
