import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { App, Avatar, Button, Card, Drawer, Empty, Input, List, Modal, Result, Space, Spin, Tabs, Tag, Tooltip, Typography } from 'antd';
import * as Y from 'yjs';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import Image from '@tiptap/extension-image';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import { API_BASE, fileUrl, http } from '@core/http/client';
import { tokenAtom, userInfoAtom } from '@core/session/store';
import { docExtensions } from '@shared/doc-schema';
import type { DiffLine, PmNode } from '@shared/doc-text';
import { DocToolbar } from './DocToolbar';
import { ReadOnlyDoc } from './ReadOnlyDoc';
import './document.css';

/**
 * 在线文档 editor (issue 29): TipTap bound to a Yjs document synchronised over `/docs/collab` (Hocuspocus),
 * with named carets, comments on a selection, versions, 定稿 and export. The page schema
 * `document/DocumentEditor` draws it; the document id comes from the URL (`?id=`).
 */
interface Meta {
  id: string;
  title: string;
  status: string;
  ownerName: string;
  finalizedBy: string | null;
  finalizedAt: string | null;
  level: 'read' | 'comment' | 'edit' | 'owner';
  writable: boolean;
  canComment: boolean;
  isTemplate: boolean;
  deletedAt: string | null;
  links: Array<{ id: string; hostType: string; hostId: string; hostTitle: string }>;
}
interface Comment {
  id: string;
  parentId: string | null;
  quote: string | null;
  anchor: string | null;
  content: string;
  resolved: boolean;
  resolvedBy: string | null;
  createByName: string;
  createTime: string;
}
interface Version {
  id: string;
  name: string;
  kind_dictText: string;
  createBy: string | null;
  createTime: string;
}

const COLORS = ['#1677ff', '#eb2f96', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#f5222d', '#2f54eb'];
const colorOf = (s: string) => COLORS[[...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % COLORS.length]!;
const LEVEL_TEXT = { read: '只读', comment: '可评论', edit: '可编辑', owner: '所有者' } as const;

export function DocumentEditor() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [meta, setMeta] = useState<Meta | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const r = await http.get<Meta>('/docs/document/queryById', { id });
    if (r.success) setMeta(r.result);
    else setError(r.message || '无权访问该文档');
  }, [id]);
  useEffect(() => {
    setMeta(null);
    setError(null);
    if (id) void reload().catch((e: Error) => setError(e.message));
    else setError('未指定文档');
  }, [id, reload]);
  if (error) return <Result status="403" title={error} />;
  if (!meta) return <Spin style={{ display: 'block', margin: 48 }} />;
  return <Session key={id} meta={meta} reload={reload} />;
}

function Session({ meta, reload }: { meta: Meta; reload: () => Promise<void> }) {
  const token = useAtomValue(tokenAtom);
  const user = useAtomValue(userInfoAtom);
  const name = user?.realname || user?.username || '匿名';
  const color = useMemo(() => colorOf(user?.id ?? name), [user?.id, name]);
  const { ydoc, provider } = useMemo(() => {
    const ydoc = new Y.Doc();
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    // The session token goes in the subprotocol (never the URL) and in the sync protocol's auth message.
    class TokenSocket extends WebSocket {
      constructor(url: string | URL) {
        super(url, [token]);
      }
    }
    const socket = new HocuspocusProviderWebsocket({ url: `${proto}://${location.host}${API_BASE}/docs/collab`, WebSocketPolyfill: TokenSocket });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: meta.id, token, document: ydoc });
    provider.attach();
    return { ydoc, provider };
  }, [meta.id, token]);
  useEffect(
    () => () => {
      provider.destroy();
      provider.configuration.websocketProvider.destroy();
      ydoc.destroy();
    },
    [provider, ydoc],
  );

  const editable = meta.writable;
  const editor = useEditor(
    {
      extensions: docExtensions([
        Collaboration.configure({ document: ydoc }),
        CollaborationCaret.configure({ provider, user: { name, color } }),
      ]).map((e) =>
        e.name === 'image'
          ? Image.extend({
              // Stored content keeps the file service path; the browser shows it with a file token.
              renderHTML({ HTMLAttributes }) {
                const src = String(HTMLAttributes.src ?? '');
                return ['img', { ...HTMLAttributes, src: /^[\w-]+\//.test(src) ? fileUrl(src) : src }];
              },
            }).configure({ inline: false, allowBase64: false })
          : e,
      ),
      editable,
      editorProps: { attributes: { class: 'doc-editor-content', 'data-testid': 'doc-editor', spellcheck: 'false' } },
    },
    [ydoc, provider],
  );
  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  const status = useSyncStatus(provider);
  const peers = usePeers(provider);
  // Access may change while open (a share, 定稿 by someone else): the server closes or downgrades the connection.
  useEffect(() => {
    const onClose = () => void reload().catch(() => undefined);
    provider.on('authenticationFailed', onClose);
    const t = setInterval(() => void reload().catch(() => undefined), 15_000);
    return () => {
      provider.off('authenticationFailed', onClose);
      clearInterval(t);
    };
  }, [provider, reload]);

  const [panel, setPanel] = useState<'comments' | 'versions' | null>(null);
  return (
    <div className="doc-page">
      <DocHeader meta={meta} status={status} peers={peers} reload={reload} editor={editor} onPanel={(p) => setPanel((cur) => (cur === p ? null : p))} />
      <div className="doc-body">
        <Card className="doc-paper" styles={{ body: { padding: 0 } }}>
          {editable && editor && <DocToolbar editor={editor} docId={meta.id} />}
          {!editable && (
            <div className="doc-readonly-bar">
              {meta.status === 'FINAL' ? `已定稿（${meta.finalizedBy ?? ''} ${meta.finalizedAt ?? ''}），文档只读` : meta.deletedAt ? '文档在回收站中，只读' : `您对该文档的权限：${LEVEL_TEXT[meta.level]}`}
            </div>
          )}
          <EditorContent editor={editor} />
        </Card>
        {panel === 'comments' && editor && <Comments meta={meta} editor={editor} onClose={() => setPanel(null)} />}
      </div>
      {panel === 'versions' && <Versions meta={meta} onClose={() => setPanel(null)} />}
    </div>
  );
}

function useSyncStatus(provider: HocuspocusProvider) {
  const [s, setS] = useState<'connecting' | 'saved' | 'saving' | 'offline'>('connecting');
  useEffect(() => {
    const update = () => {
      const ws = provider.configuration.websocketProvider;
      if (ws.status !== 'connected') setS('offline');
      else if (!provider.isSynced) setS('connecting');
      else setS(provider.hasUnsyncedChanges ? 'saving' : 'saved');
    };
    provider.on('synced', update);
    provider.on('unsyncedChanges', update);
    provider.on('status', update);
    provider.configuration.websocketProvider.on('status', update);
    update();
    return () => {
      provider.off('synced', update);
      provider.off('unsyncedChanges', update);
      provider.off('status', update);
      provider.configuration.websocketProvider.off('status', update);
    };
  }, [provider]);
  return s;
}

function usePeers(provider: HocuspocusProvider) {
  const [peers, setPeers] = useState<Array<{ id: number; name: string; color: string }>>([]);
  useEffect(() => {
    const aw = provider.awareness;
    if (!aw) return;
    const update = () =>
      setPeers(
        [...aw.getStates().entries()]
          .filter(([, st]) => st.user?.name)
          .map(([id, st]) => ({ id, name: String(st.user.name), color: String(st.user.color ?? '#999') })),
      );
    aw.on('change', update);
    update();
    return () => aw.off('change', update);
  }, [provider]);
  return peers;
}

const STATUS_TEXT = { connecting: ['连接中…', 'default'], saved: ['已保存', 'success'], saving: ['保存中…', 'processing'], offline: ['离线：修改将在重新连接后同步', 'warning'] } as const;

function DocHeader({ meta, status, peers, reload, editor, onPanel }: { meta: Meta; status: keyof typeof STATUS_TEXT; peers: Array<{ id: number; name: string; color: string }>; reload: () => Promise<void>; editor: Editor | null; onPanel: (p: 'comments' | 'versions') => void }) {
  const { message, modal } = App.useApp();
  const act = async (url: string, body: unknown, done: string) => {
    const r = await http.post(url, body);
    if (r.success) {
      message.success(r.message || done);
      await reload();
    } else message.warning(r.message);
  };
  const download = (format: 'docx' | 'pdf') =>
    void http.download('/docs/document/export', { id: meta.id, format }, `${meta.title}.${format}`).catch((e: Error) => message.error(e.message));
  void editor;
  return (
    <div className="doc-header">
      <div className="doc-title">
        <Typography.Title level={4} style={{ margin: 0 }} ellipsis={{ tooltip: meta.title }} data-testid="doc-title">
          {meta.title}
        </Typography.Title>
        <Space size={4} wrap>
          {meta.status === 'FINAL' ? <Tag color="green">已定稿</Tag> : <Tag>草稿</Tag>}
          <Tag color={STATUS_TEXT[status][1]} data-testid="doc-sync">
            {STATUS_TEXT[status][0]}
          </Tag>
          {meta.links.map((l) => (
            <Tag key={l.id} color="blue">
              佐证：{l.hostTitle}
            </Tag>
          ))}
        </Space>
      </div>
      <Space wrap className="doc-actions">
        <Avatar.Group max={{ count: 5 }} data-testid="doc-peers">
          {peers.map((p) => (
            <Tooltip key={p.id} title={p.name}>
              <Avatar style={{ background: p.color }} size="small">
                {p.name.slice(-2)}
              </Avatar>
            </Tooltip>
          ))}
        </Avatar.Group>
        <Button onClick={() => onPanel('comments')}>评论</Button>
        <Button onClick={() => onPanel('versions')}>版本</Button>
        {meta.writable && (
          <Button
            onClick={() => {
              let name = '';
              modal.confirm({
                title: '保存版本',
                content: <Input placeholder="版本名称，如：初稿" maxLength={100} onChange={(e) => (name = e.target.value)} data-testid="version-name" />,
                okText: '保存',
                onOk: () => act('/docs/version/add', { docId: meta.id, name }, '版本已保存'),
              });
            }}
          >
            保存版本
          </Button>
        )}
        {meta.status !== 'FINAL' && meta.writable && (
          <Button onClick={() => modal.confirm({ title: '定稿后文档将只读，只有所有者或管理员可重新打开。确定定稿吗？', onOk: () => act('/docs/document/finalize', { id: meta.id }, '已定稿') })}>定稿</Button>
        )}
        {meta.status === 'FINAL' && meta.level === 'owner' && <Button onClick={() => void act('/docs/document/reopen', { id: meta.id }, '已重新打开')}>重新打开</Button>}
        <Button onClick={() => download('docx')}>导出 Word</Button>
        <Button onClick={() => download('pdf')}>导出 PDF</Button>
      </Space>
    </div>
  );
}

/** Comments on a selection (stored server-side, anchored by Yjs relative positions so they follow edits). */
function Comments({ meta, editor, onClose }: { meta: Meta; editor: Editor; onClose: () => void }) {
  const { message } = App.useApp();
  const [rows, setRows] = useState<Comment[]>([]);
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [showResolved, setShowResolved] = useState(false);
  const load = useCallback(async () => {
    const r = await http.get<Comment[]>('/docs/comment/list', { docId: meta.id });
    if (r.success) setRows(r.result);
  }, [meta.id]);
  useEffect(() => {
    void load();
  }, [load]);
  const anchor = () => {
    const { from, to, empty } = editor.state.selection;
    if (empty) return null;
    const ys = ySyncPluginKey.getState(editor.state) as { type: Y.XmlFragment; binding: { mapping: any } } | undefined;
    const quote = editor.state.doc.textBetween(from, to, ' ').slice(0, 1000);
    if (!ys) return { quote, anchor: '' };
    const rel = (p: number) => Y.relativePositionToJSON(absolutePositionToRelativePosition(p, ys.type, ys.binding.mapping));
    return { quote, anchor: JSON.stringify({ from: rel(from), to: rel(to) }) };
  };
  const submit = async () => {
    const body = replyTo ? { docId: meta.id, parentId: replyTo, content: text } : { docId: meta.id, content: text, ...(anchor() ?? {}) };
    const r = await http.post('/docs/comment/add', body);
    if (r.success) {
      setText('');
      setReplyTo(null);
      await load();
    } else message.warning(r.message);
  };
  const goTo = (c: Comment) => {
    const ys = ySyncPluginKey.getState(editor.state) as { type: Y.XmlFragment; binding: { mapping: any; doc: Y.Doc } } | undefined;
    if (!c.anchor || !ys) return;
    try {
      const a = JSON.parse(c.anchor) as { from: unknown; to: unknown };
      const abs = (r: unknown) => relativePositionToAbsolutePosition(ys.binding.doc, ys.type, Y.createRelativePositionFromJSON(r), ys.binding.mapping);
      const from = abs(a.from);
      const to = abs(a.to);
      if (from != null && to != null) editor.chain().focus().setTextSelection({ from, to }).scrollIntoView().run();
    } catch {
      /* the anchored text is gone */
    }
  };
  const resolve = async (c: Comment) => {
    const r = await http.post('/docs/comment/resolve', { id: c.id, resolved: !c.resolved });
    if (r.success) await load();
    else message.warning(r.message);
  };
  const threads = rows.filter((r) => !r.parentId && (showResolved || !r.resolved));
  return (
    <Card className="doc-side" size="small" title="评论" extra={<Space><Button size="small" type="link" onClick={() => setShowResolved((v) => !v)}>{showResolved ? '隐藏已解决' : '显示已解决'}</Button><Button size="small" type="text" onClick={onClose}>关闭</Button></Space>}>
      {meta.canComment && (
        <div className="doc-comment-new">
          <Input.TextArea
            rows={2}
            value={text}
            maxLength={2000}
            placeholder={replyTo ? '回复…' : '先在文中选中文字，再输入评论'}
            onChange={(e) => setText(e.target.value)}
            data-testid="comment-input"
          />
          <Space style={{ marginTop: 6 }}>
            <Button type="primary" size="small" disabled={!text.trim()} onClick={() => void submit()}>
              {replyTo ? '回复' : '评论选中文字'}
            </Button>
            {replyTo && (
              <Button size="small" onClick={() => setReplyTo(null)}>
                取消回复
              </Button>
            )}
          </Space>
        </div>
      )}
      {threads.length ? (
        <List
          size="small"
          dataSource={threads}
          renderItem={(c) => (
            <List.Item className={c.resolved ? 'doc-comment resolved' : 'doc-comment'}>
              <div style={{ width: '100%' }}>
                <a className="doc-comment-quote" onClick={() => goTo(c)}>
                  “{c.quote}”
                </a>
                <div>
                  <b>{c.createByName}</b> <Typography.Text type="secondary">{c.createTime}</Typography.Text>
                </div>
                <div>{c.content}</div>
                {rows
                  .filter((r) => r.parentId === c.id)
                  .map((r) => (
                    <div key={r.id} className="doc-comment-reply">
                      <b>{r.createByName}</b>：{r.content}
                    </div>
                  ))}
                {meta.canComment && (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => setReplyTo(c.id)}>
                      回复
                    </Button>
                    <Button type="link" size="small" onClick={() => void resolve(c)}>
                      {c.resolved ? `重新打开（${c.resolvedBy ?? ''}已解决）` : '解决'}
                    </Button>
                  </Space>
                )}
              </div>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无评论" />
      )}
    </Card>
  );
}

function Versions({ meta, onClose }: { meta: Meta; onClose: () => void }) {
  const { message, modal } = App.useApp();
  const [rows, setRows] = useState<Version[] | null>(null);
  const [view, setView] = useState<{ id: string; name: string; json: PmNode; diff: DiffLine[] } | null>(null);
  const load = useCallback(async () => {
    const r = await http.get<Version[]>('/docs/version/list', { docId: meta.id });
    if (r.success) setRows(r.result);
  }, [meta.id]);
  useEffect(() => {
    void load();
  }, [load]);
  const open = async (v: Version) => {
    const r = await http.get<{ id: string; name: string; json: PmNode; diff: DiffLine[] }>('/docs/version/view', { id: v.id });
    if (r.success) setView(r.result);
    else message.warning(r.message);
  };
  const restore = (id: string) =>
    modal.confirm({
      title: '用此版本的内容替换当前内容？（当前内容仍保留在版本记录中）',
      onOk: async () => {
        const r = await http.post('/docs/version/restore', { id });
        if (r.success) {
          message.success(r.message);
          setView(null);
          await load();
        } else message.warning(r.message);
      },
    });
  return (
    <Drawer open title="版本记录" width={Math.min(720, window.innerWidth)} onClose={onClose} destroyOnHidden>
      {!rows ? (
        <Spin />
      ) : rows.length ? (
        <List
          size="small"
          dataSource={rows}
          renderItem={(v) => (
            <List.Item actions={[<a key="v" onClick={() => void open(v)}>查看</a>]} data-testid="version-row">
              <List.Item.Meta title={`${v.name ?? ''}（${v.kind_dictText}）`} description={`${v.createTime} ${v.createBy ?? ''}`} />
            </List.Item>
          )}
        />
      ) : (
        <Empty description="暂无版本。文档关闭或每 10 分钟编辑后会自动保存版本。" />
      )}
      {view && (
        <Modal
          open
          width={Math.min(900, window.innerWidth)}
          title={`版本：${view.name}`}
          onCancel={() => setView(null)}
          footer={[
            <Button key="c" onClick={() => setView(null)}>
              关闭
            </Button>,
            meta.writable && (
              <Button key="r" type="primary" onClick={() => restore(view.id)}>
                还原此版本
              </Button>
            ),
          ]}
        >
          <Tabs
            items={[
              { key: 'content', label: '内容', children: <ReadOnlyDoc json={view.json} /> },
              {
                key: 'diff',
                label: '与当前比较',
                children: (
                  <pre className="doc-diff" data-testid="version-diff">
                    {view.diff.map((d, i) => (
                      <div key={i} className={d.op === '+' ? 'add' : d.op === '-' ? 'del' : ''}>
                        {d.op === '=' ? '  ' : d.op + ' '}
                        {d.text}
                      </div>
                    ))}
                  </pre>
                ),
              },
            ]}
          />
        </Modal>
      )}
    </Drawer>
  );
}

