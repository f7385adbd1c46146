import { useEffect, useState } from 'react';
import { App, Button, Space, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';

interface PermNode {
  key: string;
  title: string;
  children?: PermNode[];
}

export interface PermissionTreeAssignProps {
  /** The role row (its `id`). */
  record?: { id?: string };
  onClose?: () => void;
  onDone?: () => void;
  /** Other calls with the same shapes (department roles); default: the role calls of /sys/permission. */
  urls?: { tree: string; treeParams?: Record<string, unknown>; current: string; save: string };
}

const ROLE_URLS = { tree: '/sys/permission/queryTreeList', current: '/sys/permission/queryRolePermission', save: '/sys/permission/saveRolePermission' };

/** Parent of every key, and every key below a key. */
function index(nodes: PermNode[], parent: Map<string, string> = new Map(), below: Map<string, string[]> = new Map(), up?: string) {
  for (const n of nodes) {
    if (up) parent.set(n.key, up);
    index(n.children ?? [], parent, below, n.key);
    below.set(n.key, (n.children ?? []).flatMap((c) => [c.key, ...(below.get(c.key) ?? [])]));
  }
  return { parent, below };
}

const toData = (nodes: PermNode[]): DataNode[] => nodes.map((n) => ({ key: n.key, title: n.title, children: n.children ? toData(n.children) : undefined }));

/** 角色授权: a checkable tree of menus and buttons saved with /sys/permission/saveRolePermission. */
export function PermissionTreeAssign({ record, onClose, onDone, urls = ROLE_URLS }: PermissionTreeAssignProps) {
  const { message } = App.useApp();
  const [tree, setTree] = useState<DataNode[] | null>(null);
  const [idx, setIdx] = useState(() => index([]));
  const [all, setAll] = useState<string[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [last, setLast] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const roleId = String(record?.id ?? '');
  const { tree: treeUrl, current: currentUrl, save: saveUrl } = urls;
  const treeParams = JSON.stringify(urls.treeParams ?? {});

  useEffect(() => {
    let live = true;
    void Promise.all([
      http.get<{ treeList: PermNode[]; ids: string[] }>(treeUrl, JSON.parse(treeParams) as Record<string, unknown>),
      http.get<string[]>(currentUrl, { roleId }),
    ]).then(([t, r]) => {
      if (!live) return;
      if (!t.success) message.warning(t.message);
      if (!r.success) message.warning(r.message);
      setTree(toData(t.result?.treeList ?? []));
      setIdx(index(t.result?.treeList ?? []));
      setAll(t.result?.ids ?? []);
      setChecked(r.result ?? []);
      setLast(r.result ?? []);
    });
    return () => {
      live = false;
    };
  }, [roleId, message, treeUrl, treeParams, currentUrl]);

  const save = async (close: boolean) => {
    setSaving(true);
    try {
      const r = await http.post(saveUrl, { roleId, permissionIds: checked.join(','), lastpermissionIds: last.join(',') });
      if (!r.success) return void message.warning(r.message);
      setLast(checked);
      message.success(r.message || '保存成功！');
      onDone?.();
      if (close) onClose?.();
    } finally {
      setSaving(false);
    }
  };

  if (!tree) return <Spin />;
  return (
    <div data-testid="permission-tree-assign">
      <Space style={{ marginBottom: 12 }}>
        <Button size="small" onClick={() => setChecked(all)}>全部勾选</Button>
        <Button size="small" onClick={() => setChecked([])}>取消全选</Button>
      </Space>
      <div style={{ maxHeight: 'calc(100vh - 220px)', overflow: 'auto' }}>
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          treeData={tree}
          checkedKeys={{ checked, halfChecked: [] }}
          onCheck={(_, info) => {
            // Checking a node takes its buttons/sub-menus and its parent menus along; unchecking drops the ones below.
            const k = String(info.node.key);
            const next = new Set(checked);
            const below = idx.below.get(k) ?? [];
            if (info.checked) {
              for (const x of [k, ...below]) next.add(x);
              for (let p = idx.parent.get(k); p; p = idx.parent.get(p)) next.add(p);
            } else for (const x of [k, ...below]) next.delete(x);
            setChecked([...next]);
          }}
        />
      </div>
      <Space style={{ marginTop: 16 }}>
        <Button onClick={onClose}>取消</Button>
        <Button loading={saving} onClick={() => void save(false)}>仅保存</Button>
        <Button type="primary" loading={saving} onClick={() => void save(true)}>保存并关闭</Button>
      </Space>
    </div>
  );
}
