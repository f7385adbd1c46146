import { useEffect, useMemo, useState } from 'react';
import { message, Modal, Tree, Input } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';
import { PickerField } from './ListPicker';
import { splitMulti } from '../logic/inputs';

interface DepartNode {
  id: string;
  key?: string;
  title?: string;
  departName?: string;
  children?: DepartNode[] | null;
}

export const DEPART_PICKER_WIDTH = 500;

export interface JSelectDepartProps {
  value?: string;
  onChange?: (v: string | undefined, texts?: string) => void;
  multi?: boolean;
  /** Stored field (default id) and shown field (default departName). */
  customReturnField?: 'id' | 'orgCode' | 'departName';
  placeholder?: string;
  disabled?: boolean;
}

function flatten(nodes: DepartNode[], out = new Map<string, DepartNode>()) {
  for (const n of nodes) {
    out.set(n.id, n);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

let treeCache: Promise<DepartNode[]> | undefined;
export const loadDepartTree = () =>
  (treeCache ??= http.get<DepartNode[]>('/sys/sysDepart/queryTreeList').then((r) => {
    if (!r.success) treeCache = undefined;
    return r.success && Array.isArray(r.result) ? r.result : [];
  }, (e) => {
    treeCache = undefined;
    throw e;
  }));
/** Test and story hook: forget the cached tree. */
export const resetDepartTree = () => (treeCache = undefined);

const nameOf = (n: DepartNode) => n.departName ?? n.title ?? n.id;
const toData = (nodes: DepartNode[], kw: string): DataNode[] =>
  nodes
    .map((n) => ({ key: n.id, title: nameOf(n), children: n.children ? toData(n.children, kw) : undefined }))
    .filter((n) => !kw || String(n.title).includes(kw) || (n.children && n.children.length > 0));

/** Department picker: stores ids (comma-joined), shows departName. */
export function JSelectDepart({ value, onChange, multi = false, customReturnField = 'id', placeholder = '请选择部门', disabled }: JSelectDepartProps) {
  const [tree, setTree] = useState<DepartNode[]>([]);
  const [open, setOpen] = useState(false);
  const [checked, setChecked] = useState<string[]>([]);
  const [kw, setKw] = useState('');
  useEffect(() => {
    void loadDepartTree().then(setTree).catch(() => setTree([]));
  }, []);
  const byId = useMemo(() => flatten(tree), [tree]);
  const stored = splitMulti(value);
  const idsOf = (vals: string[]) => vals.map((v) => (customReturnField === 'id' ? v : ([...byId.values()].find((n) => String((n as unknown as Record<string, unknown>)[customReturnField]) === v)?.id ?? v)));
  const text = idsOf(stored).map((id) => (byId.get(id) ? nameOf(byId.get(id)!) : id)).join(',');
  const openModal = () => {
    void loadDepartTree().then((t) => {
      if (!t.length) return void message.warning('您尚未设置部门信息!');
      setTree(t);
      setChecked(idsOf(stored));
      setOpen(true);
    });
  };
  return (
    <>
      <PickerField text={text} placeholder={placeholder} disabled={disabled} onOpen={openModal} onClear={() => onChange?.(undefined, '')} />
      <Modal
        open={open}
        title="选择部门"
        width={DEPART_PICKER_WIDTH}
        destroyOnHidden
        onCancel={() => setOpen(false)}
        onOk={() => {
          const nodes = checked.map((id) => byId.get(id)).filter((n): n is DepartNode => !!n);
          const vals = nodes.map((n) => String((n as unknown as Record<string, unknown>)[customReturnField] ?? n.id));
          onChange?.(vals.length ? vals.join(',') : undefined, nodes.map(nameOf).join(','));
          setOpen(false);
        }}
      >
        <Input.Search placeholder="请输入部门名称" allowClear onSearch={(v) => setKw(v.trim())} style={{ marginBottom: 8 }} />
        <div style={{ maxHeight: 400, overflow: 'auto' }}>
          <Tree
            checkable
            checkStrictly
            defaultExpandAll
            treeData={toData(tree, kw)}
            checkedKeys={checked}
            onCheck={(keys) => {
              const list = (Array.isArray(keys) ? keys : keys.checked).map(String);
              setChecked(multi ? list : list.filter((k) => !checked.includes(k)).slice(-1));
            }}
            onSelect={(keys) => {
              const k = String(keys[0] ?? '');
              if (!k) return;
              setChecked(multi ? (checked.includes(k) ? checked.filter((c) => c !== k) : [...checked, k]) : [k]);
            }}
          />
        </div>
      </Modal>
    </>
  );
}

export default JSelectDepart;
