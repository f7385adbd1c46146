import { useCallback, useEffect, useMemo, useState } from 'react';
import { App, Button, Checkbox, Drawer, Empty, Form, Input, Modal, Popconfirm, Space, Spin, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { http, type PageResult } from '@core/http/client';
import { PermissionTreeAssign } from '@widgets/admin/PermissionTreeAssign';
import { DataRuleAssign, type DataRuleUrls } from './RoleDataRule';

type Row = Record<string, unknown>;

/** 部门角色: the roles of one department (add/edit/delete, 授权 within the department's permissions, 数据规则). */
export function DepartRoles({ departId }: { departId: string }) {
  const { message } = App.useApp();
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);
  const [granting, setGranting] = useState<Row | null>(null);
  const [ruling, setRuling] = useState<Row | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await http.get<PageResult<Row>>('/sys/sysDepartRole/list', {
        deptId: departId, roleName: applied ? `*${applied}*` : undefined, column: 'createTime', order: 'desc', pageNo: page.current, pageSize: page.size,
      });
      if (!r.success) return void message.warning(r.message);
      setRows(r.result?.records ?? []);
      setTotal(Number(r.result?.total ?? 0));
    } finally {
      setLoading(false);
    }
  }, [departId, applied, page, message]);
  useEffect(() => {
    void load();
  }, [load]);

  const open = (row: Row) => {
    form.resetFields();
    form.setFieldsValue({ roleName: row.roleName, roleCode: row.roleCode, description: row.description });
    setEditing(row);
  };
  const save = async () => {
    const v = (await form.validateFields()) as Row;
    setSaving(true);
    try {
      const r = editing?.id
        ? await http.put('/sys/sysDepartRole/edit', { ...v, id: editing.id })
        : await http.post('/sys/sysDepartRole/add', { ...v, departId });
      if (!r.success) return void message.warning(r.message);
      message.success(r.message);
      setEditing(null);
      void load();
    } finally {
      setSaving(false);
    }
  };
  const remove = async (ids: string[]) => {
    const r = ids.length === 1 ? await http.delete('/sys/sysDepartRole/delete', { id: ids[0] }) : await http.delete('/sys/sysDepartRole/deleteBatch', { ids: ids.join(',') });
    if (!r.success) return void message.warning(r.message);
    message.success(r.message);
    setSelected([]);
    void load();
  };

  const columns: ColumnsType<Row> = [
    { title: '部门角色名称', dataIndex: 'roleName', width: 130, ellipsis: true },
    { title: '部门角色编码', dataIndex: 'roleCode', width: 130, ellipsis: true },
    { title: '描述', dataIndex: 'description', ellipsis: true },
    { title: '创建时间', dataIndex: 'createTime', width: 160 },
    {
      title: '操作', key: 'action', width: 200, align: 'center',
      render: (_: unknown, r: Row) => (
        <Space size="middle">
          <a onClick={() => open(r)}>编辑</a>
          <a onClick={() => setGranting(r)}>授权</a>
          <a onClick={() => setRuling(r)}>数据规则</a>
          <Popconfirm title="确定删除吗?" onConfirm={() => void remove([String(r.id)])}>
            <a>删除</a>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="depart-roles">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder="部门角色名称"
          style={{ width: 220 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => {
            setApplied(v.trim());
            setPage((pg) => ({ ...pg, current: 1 }));
          }}
        />
        <Button type="primary" onClick={() => open({})}>
          新增
        </Button>
        <Popconfirm title={`确定删除选中的 ${selected.length} 个部门角色吗?`} disabled={!selected.length} onConfirm={() => void remove(selected.map(String))}>
          <Button danger disabled={!selected.length}>
            批量删除
          </Button>
        </Popconfirm>
      </Space>
      <Table<Row>
        size="small"
        bordered
        rowKey="id"
        loading={loading}
        columns={columns}
        dataSource={rows}
        rowSelection={{ selectedRowKeys: selected, onChange: setSelected }}
        pagination={{
          current: page.current, pageSize: page.size, total, showSizeChanger: true, showTotal: (t) => `共${t}条`,
          onChange: (current, size) => setPage({ current, size }),
        }}
      />
      <Modal title={editing?.id ? '编辑部门角色' : '新增部门角色'} open={!!editing} width={600} confirmLoading={saving} onOk={() => void save()} onCancel={() => setEditing(null)} destroyOnHidden>
        <Form form={form} labelCol={{ span: 6 }} wrapperCol={{ span: 16 }} preserve={false}>
          <Form.Item name="roleName" label="部门角色名称" rules={[{ required: true, message: '请输入部门角色名称' }, { max: 200, message: '不超过200个字符' }]}>
            <Input placeholder="请输入部门角色名称" />
          </Form.Item>
          <Form.Item
            name="roleCode"
            label="部门角色编码"
            rules={[
              { required: true, message: '请输入部门角色编码' },
              { pattern: /^[A-Za-z][A-Za-z0-9_]{1,99}$/, message: '部门角色编码只允许字母、数字、下划线，且以字母开头（至少2个字符）' },
            ]}
          >
            <Input placeholder="请输入部门角色编码" />
          </Form.Item>
          <Form.Item name="description" label="描述" rules={[{ max: 255, message: '不超过255个字符' }]}>
            <Input.TextArea rows={3} placeholder="请输入描述" />
          </Form.Item>
        </Form>
      </Modal>
      <Drawer title={`部门角色权限配置${granting ? ` — ${String(granting.roleName)}` : ''}`} width={560} open={!!granting} onClose={() => setGranting(null)} destroyOnHidden>
        {granting && (
          <PermissionTreeAssign
            record={{ id: String(granting.id) }}
            onClose={() => setGranting(null)}
            urls={{
              tree: '/sys/sysDepartPermission/queryTreeListForDeptRole',
              treeParams: { departId },
              current: '/sys/sysDepartPermission/queryDeptRolePermission',
              save: '/sys/sysDepartPermission/saveDeptRolePermission',
            }}
          />
        )}
      </Drawer>
      <Drawer title={`数据规则${ruling ? ` — ${String(ruling.roleName)}` : ''}`} width={600} open={!!ruling} onClose={() => setRuling(null)} destroyOnHidden>
        {ruling && <DeptRoleDataRule departId={departId} roleId={String(ruling.id)} onDone={() => setRuling(null)} />}
      </Drawer>
    </div>
  );
}

/** 数据规则 of a department role: per menu of its grant, the rules that narrow its users' rows. */
function DeptRoleDataRule({ departId, roleId, onDone }: { departId: string; roleId: string; onDone: () => void }) {
  const urls = useMemo<DataRuleUrls>(
    () => ({
      tree: '/sys/sysDepartPermission/queryTreeListForDeptRole',
      treeParams: { departId },
      rules: (p) => `/sys/sysDepartPermission/datarule/${encodeURIComponent(p)}/${encodeURIComponent(departId)}/${encodeURIComponent(roleId)}`,
      save: '/sys/sysDepartPermission/datarule',
      saveBody: { departId, roleId },
    }),
    [departId, roleId],
  );
  return <DataRuleAssign urls={urls} onDone={onDone} />;
}

/** 分配部门角色: the department roles one department user holds. */
export function DeptRoleAssign({ departId, user, onClose }: { departId: string; user: Row | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [roles, setRoles] = useState<Row[] | null>(null);
  const [old, setOld] = useState<string[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const userId = user ? String(user.id) : '';
  useEffect(() => {
    if (!userId) return;
    let live = true;
    setRoles(null);
    void Promise.all([
      http.get<Row[]>('/sys/sysDepartRole/getDeptRoleList', { departId, userId }),
      http.get<Array<{ droleId: string }> | null>('/sys/sysDepartRole/getDeptRoleByUserId', { departId, userId }),
    ]).then(([a, b]) => {
      if (!live) return;
      if (!a.success) message.warning(a.message);
      const held = (b.result ?? []).map((x) => x.droleId);
      setRoles(a.result ?? []);
      setOld(held);
      setChecked(held);
    });
    return () => {
      live = false;
    };
  }, [departId, userId, message]);
  const save = async () => {
    setSaving(true);
    try {
      const r = await http.post('/sys/sysDepartRole/deptRoleUserAdd', { userId, departId, newRoleId: checked.join(','), oldRoleId: old.join(',') });
      if (!r.success) return void message.warning(r.message);
      message.success('保存成功！');
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={`分配部门角色${user ? ` — ${String(user.realname ?? user.username ?? '')}` : ''}`}
      open={!!user}
      width={520}
      confirmLoading={saving}
      okButtonProps={{ disabled: !roles?.length && !old.length }}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      {!roles ? (
        <Spin />
      ) : roles.length ? (
        <Checkbox.Group
          data-testid="dept-role-assign"
          value={checked}
          onChange={(v) => setChecked(v.map(String))}
          options={roles.map((r) => ({ label: String(r.roleName), value: String(r.id) }))}
        />
      ) : (
        <Empty description="本部门还没有部门角色，请先在“部门角色”中新增" />
      )}
    </Modal>
  );
}
