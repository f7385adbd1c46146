import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Checkbox, Drawer, Empty, Modal, Select, Space, Spin, Switch, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';
import type { ActionSchema } from '@shared/page-schema';
import { fillTemplate, fillText, fillUrl, pathOf } from './template';

type Row = Record<string, unknown>;
interface Node {
  key: string;
  title: string;
  children?: Node[];
}

const listOf = (result: unknown, path?: string): Row[] => {
  const v = path ? pathOf(result, path) : Array.isArray(result) ? result : (pathOf(result, 'treeList') ?? pathOf(result, 'records'));
  return Array.isArray(v) ? (v as Row[]) : [];
};
const toNodes = (rows: Row[], key: string, title: string): Node[] =>
  rows.map((r) => ({ key: String(r[key]), title: fillText(title, r), children: Array.isArray(r.children) && r.children.length ? toNodes(r.children as Row[], key, title) : undefined }));
/** Checked keys from an answer: an array of keys, of objects (`field`), or comma-separated text. */
export function checkedOf(v: unknown, field?: string): string[] {
  if (typeof v === 'string') return v.split(',').filter(Boolean);
  if (!Array.isArray(v)) return [];
  return v.map((x) => String(x && typeof x === 'object' ? (x as Row)[field ?? 'id'] : x));
}
/** Parent of every key, every key below a key, and all keys. */
export function indexTree(nodes: Node[], parent = new Map<string, string>(), below = new Map<string, string[]>(), up?: string) {
  for (const n of nodes) {
    if (up) parent.set(n.key, up);
    indexTree(n.children ?? [], parent, below, n.key);
    below.set(n.key, (n.children ?? []).flatMap((c) => [c.key, ...(below.get(c.key) ?? [])]));
  }
  return { parent, below, all: [...below.keys()] };
}
/** Linked checking: a checked node takes what is below it and its parents along; an unchecked one drops what is below it. */
export function linkedCheck(checked: string[], key: string, on: boolean, idx: ReturnType<typeof indexTree>): string[] {
  const next = new Set(checked);
  const below = idx.below.get(key) ?? [];
  if (on) {
    for (const x of [key, ...below]) next.add(x);
    for (let p = idx.parent.get(key); p; p = idx.parent.get(p)) next.add(p);
  } else for (const x of [key, ...below]) next.delete(x);
  return [...next];
}
/** Scope options: the nodes of a tree (filtered by a truthy field), labelled with their path. */
const scopeOptions = (rows: Row[], key: string, title: string, filter?: string, path: string[] = []): Array<{ value: string; label: string }> =>
  rows.flatMap((r) => {
    const t = fillText(title, r);
    const v = filter ? r[filter] : true;
    return [
      ...(v && v !== '0' && v !== 0 ? [{ value: String(r[key]), label: [...path, t].join(' / ') }] : []),
      ...scopeOptions(Array.isArray(r.children) ? (r.children as Row[]) : [], key, title, filter, [...path, t]),
    ];
  });

/**
 * The `treeAssign` action's dialog: a checkable tree (or, when no node has children, a checkbox list)
 * of `treeUrl`, the checked keys of `checkedUrl`, saved to `saveUrl` with `body` ({checked}, {last}:
 * the keys checked when loaded, and the row's fields). With `scope`, a choice comes first and fills
 * its `{param}` in the urls. 全部勾选 / 取消全选, 展开 / 折叠, and 父子关联 as JeecgBoot's role drawer has.
 * `inline`: drawn in place (a record's section, e.g. 部门权限), without a dialog or 取消; 保存 stays.
 */
export default function TreeAssign({ action: a, data, onClose, inline }: { action: ActionSchema; data: Row; onClose?: (changed: boolean) => void; inline?: boolean }) {
  const { message } = App.useApp();
  const [scopeOpts, setScopeOpts] = useState<Array<{ value: string; label: string }> | null>(a.scope ? null : []);
  const [scopeValue, setScopeValue] = useState<string>();
  const [tree, setTree] = useState<Node[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [last, setLast] = useState<string[]>([]);
  const [note, setNote] = useState<string>();
  const [linked, setLinked] = useState(a.linked !== false);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [changed, setChanged] = useState(false);
  const all = useMemo(() => ({ ...data, ...(a.scope && scopeValue ? { [a.scope.param]: scopeValue } : {}) }), [data, a.scope, scopeValue]);
  const ready = !a.scope || !!scopeValue;

  useEffect(() => {
    if (!a.scope) return;
    const s = a.scope;
    void http.get(fillUrl(s.url, data)).then((r) => {
      if (!r.success) message.warning(r.message);
      setScopeOpts(scopeOptions(listOf(r.result, s.path), s.key ?? 'key', s.title ?? '{title}', s.filter));
    });
  }, [a.scope, data, message]);

  useEffect(() => {
    if (!ready || !a.treeUrl) return;
    let live = true;
    setTree(null);
    setNote(undefined);
    const treeUrl = fillUrl(a.treeUrl, all);
    const checkedUrl = a.checkedUrl ? fillUrl(a.checkedUrl, all) : undefined;
    const tr = http.get(treeUrl);
    void Promise.all([tr, checkedUrl && checkedUrl !== treeUrl ? http.get(checkedUrl) : tr]).then(([t, c]) => {
      if (!live) return;
      if (!t.success) setNote(t.message);
      else if (!c.success) message.warning(c.message);
      const keys = checkedOf(a.checkedPath ? pathOf(c.result, a.checkedPath) : c.result, a.checkedField);
      setTree(toNodes(listOf(t.result, a.treePath), a.treeKey ?? 'key', a.treeTitle ?? '{title}'));
      setChecked(keys);
      setLast(keys);
    });
    return () => {
      live = false;
    };
  }, [ready, a, all, message]);

  const idx = useMemo(() => indexTree(tree ?? []), [tree]);
  const flat = !!tree && tree.every((n) => !n.children);

  const save = async (close: boolean) => {
    setSaving(true);
    try {
      const body = fillTemplate(a.body ?? { ids: '{checked|join}' }, { ...all, checked, last }) as Row;
      const url = fillUrl(a.saveUrl ?? a.url ?? '', { ...all, checked, last });
      const r = a.method === 'put' ? await http.put(url, body) : await http.post(url, body);
      if (!r.success) return void message.warning(r.message);
      setLast(checked);
      setChanged(true);
      message.success(r.message || '保存成功！');
      if (close) onClose?.(true);
    } finally {
      setSaving(false);
    }
  };

  const buttons = (
    <Space style={{ marginTop: 16 }}>
      {!inline && <Button onClick={() => onClose?.(changed)}>取消</Button>}
      {a.saveAndStay && (
        <Button loading={saving} disabled={!tree || !!note} onClick={() => void save(false)}>
          仅保存
        </Button>
      )}
      <Button type="primary" loading={saving} disabled={!tree || !!note} onClick={() => void save(!inline)}>
        {a.saveAndStay ? '保存并关闭' : (a.submitText ?? '保存')}
      </Button>
    </Space>
  );
  const body = (
    <div data-testid="tree-assign">
      {a.hint && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={a.hint} />}
      {a.scope && (
        <Select
          style={{ width: '100%', marginBottom: 16 }}
          placeholder={a.scope.placeholder ?? `请选择${a.scope.label}`}
          aria-label={a.scope.label}
          loading={!scopeOpts}
          options={scopeOpts ?? []}
          value={scopeValue}
          onChange={setScopeValue}
          showSearch
          optionFilterProp="label"
        />
      )}
      {ready &&
        (!tree ? (
          <Spin />
        ) : note ? (
          <Empty description={note} />
        ) : !tree.length ? (
          <Empty description={a.emptyText ?? '暂无数据'} />
        ) : flat ? (
          <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }} options={tree.map((n) => ({ label: n.title, value: n.key }))} value={checked} onChange={(v) => setChecked(v.map(String))} />
        ) : (
          <>
            <Space wrap style={{ marginBottom: 12 }}>
              <Button size="small" onClick={() => setChecked(idx.all)}>全部勾选</Button>
              <Button size="small" onClick={() => setChecked([])}>取消全选</Button>
              <Button size="small" onClick={() => setExpanded(expanded && expanded.length === 0 ? null : [])}>{expanded && expanded.length === 0 ? '展开全部' : '折叠全部'}</Button>
              <span>
                <Switch size="small" checked={linked} onChange={setLinked} aria-label="父子关联" /> 父子关联
              </span>
            </Space>
            <div style={{ maxHeight: `calc(100vh - ${inline ? 330 : 260}px)`, overflow: 'auto' }}>
              <Tree
                checkable
                checkStrictly
                treeData={tree as DataNode[]}
                expandedKeys={expanded ?? idx.all}
                onExpand={(k) => setExpanded(k.map(String))}
                checkedKeys={{ checked, halfChecked: [] }}
                onCheck={(_, info) => {
                  const k = String(info.node.key);
                  setChecked(linked ? linkedCheck(checked, k, info.checked, idx) : info.checked ? [...checked, k] : checked.filter((x) => x !== k));
                }}
              />
            </div>
          </>
        ))}
      {ready && buttons}
    </div>
  );
  // A section of a record (a tab): drawn in place, saved with its own button.
  if (inline) return body;
  const title = fillText(a.title ?? a.label, data);
  if (a.container === 'modal')
    return (
      <Modal open title={title} width={a.width ?? 520} onCancel={() => onClose?.(changed)} footer={null} destroyOnHidden>
        {body}
      </Modal>
    );
  return (
    <Drawer open title={title} width={Math.min(a.width ?? 650, window.innerWidth)} onClose={() => onClose?.(changed)} destroyOnHidden>
      {body}
    </Drawer>
  );
}
