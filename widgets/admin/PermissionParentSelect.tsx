import { useEffect, useState } from 'react';
import { TreeSelect } from 'antd';
import { dataProvider } from '@core/data';

interface Node {
  id: string;
  name: string;
  menuType?: number;
  children?: Node[];
}
interface Option {
  value: string;
  title: string;
  children?: Option[];
}

// Buttons cannot be parents: only menus are offered.
const toOptions = (nodes: Node[]): Option[] =>
  nodes.filter((n) => Number(n.menuType) !== 2).map((n) => ({ value: String(n.id), title: n.name, children: n.children ? toOptions(n.children) : undefined }));

/** 上级菜单: a tree of menus over /sys/permission/list; stores the parent id. */
export function PermissionParentSelect({ value, onChange, disabled }: { value?: string; onChange?: (v: string | undefined) => void; disabled?: boolean }) {
  const [tree, setTree] = useState<Option[]>([]);
  useEffect(() => {
    void dataProvider.getList('/sys/permission').then((r) => r.success && setTree(toOptions(r.result.records as unknown as Node[])));
  }, []);
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      placeholder="请选择上级菜单"
      disabled={disabled}
      treeData={tree}
      value={value || undefined}
      onChange={(v) => onChange?.(v)}
      style={{ width: '100%' }}
    />
  );
}
