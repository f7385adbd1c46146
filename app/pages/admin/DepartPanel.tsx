import { useEffect, useState } from 'react';
import { App, Button, Descriptions, Space, Spin, Tabs, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';
import { SchemaPage } from '@renderer/SchemaPage';

type Row = Record<string, unknown>;
interface PermNode {
  key: string;
  title: string;
  children?: PermNode[];
}
const toData = (nodes: PermNode[]): DataNode[] => nodes.map((n) => ({ key: n.key, title: n.title, children: n.children ? toData(n.children) : undefined }));
const leafKeys = (nodes: PermNode[]): Set<string> => new Set(nodes.flatMap((n) => (n.children?.length ? [...leafKeys(n.children)] : [n.key])));

/** 部门权限: the menu/button tree; a department's permissions cap what its department roles may be given. */
function DepartPermission({ departId }: { departId: string }) {
  const { message } = App.useApp();
  const [tree, setTree] = useState<PermNode[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [half, setHalf] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    let live = true;
    void Promise.all([
      http.get<{ treeList: PermNode[] }>('/sys/permission/queryTreeList'),
      http.get<string[]>('/sys/permission/queryDepartPermission', { departId }),
    ]).then(([t, r]) => {
      if (!live) return;
      if (!t.success) message.warning(t.message);
      if (!r.success) message.warning(r.message);
      const list = t.result?.treeList ?? [];
      // The tree checks parents from their leaves: only leaves are given as checked.
      const leaves = leafKeys(list);
      setTree(list);
      setChecked((r.result ?? []).filter((k) => leaves.has(k)));
    });
    return () => {
      live = false;
    };
  }, [departId, message]);
  const save = async () => {
    setSaving(true);
    try {
      const r = await http.post('/sys/permission/saveDepartPermission', { departId, permissionIds: [...checked, ...half].join(',') });
      if (r.success) message.success(r.message || '保存成功！');
      else message.warning(r.message);
    } finally {
      setSaving(false);
    }
  };
  if (!tree) return <Spin />;
  return (
    <div data-testid="depart-permission">
      <div style={{ maxHeight: 'calc(100vh - 300px)', overflow: 'auto' }}>
        <Tree
          checkable
          defaultExpandedKeys={tree.map((n) => n.key)}
          treeData={toData(tree)}
          checkedKeys={checked}
          onCheck={(keys, info) => {
            setChecked((Array.isArray(keys) ? keys : keys.checked).map(String));
            setHalf((info.halfCheckedKeys ?? []).map(String));
          }}
        />
      </div>
      <Space style={{ marginTop: 16 }}>
        <Button type="primary" loading={saving} onClick={() => void save()}>
          保存
        </Button>
      </Space>
    </div>
  );
}

/** The department screen's panel for one department: 基本信息, 部门权限, 部门角色, 部门用户. */
export function DepartPanel({ record }: { record?: Row }) {
  const id = String(record?.id ?? '');
  const r = record ?? {};
  return (
    <Tabs
      destroyOnHidden
      items={[
        {
          key: 'base',
          label: '基本信息',
          children: (
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="机构名称">{String(r.departName ?? '')}</Descriptions.Item>
              <Descriptions.Item label="机构简称">{String(r.departNameAbbr ?? '')}</Descriptions.Item>
              <Descriptions.Item label="机构编码">{String(r.orgCode ?? '')}</Descriptions.Item>
              <Descriptions.Item label="排序">{String(r.departOrder ?? '')}</Descriptions.Item>
              <Descriptions.Item label="手机号">{String(r.mobile ?? '')}</Descriptions.Item>
              <Descriptions.Item label="传真">{String(r.fax ?? '')}</Descriptions.Item>
              <Descriptions.Item label="地址">{String(r.address ?? '')}</Descriptions.Item>
              <Descriptions.Item label="备注">{String(r.memo ?? '')}</Descriptions.Item>
            </Descriptions>
          ),
        },
        { key: 'permission', label: '部门权限', children: <DepartPermission departId={id} /> },
        // Page schemas bound to the department (system/DepartRoleList, system/DepartUserList).
        { key: 'roles', label: '部门角色', children: <SchemaPage pageId="system/DepartRoleList" params={{ deptId: id, departId: id }} parent={record} embedded /> },
        { key: 'users', label: '部门用户', children: <SchemaPage pageId="system/DepartUserList" params={{ depId: id }} parent={record} embedded /> },
      ]}
    />
  );
}
