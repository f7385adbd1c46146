import { useCallback, useEffect, useState } from 'react';
import { App, Button, Input, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { http, type PageResult } from '@core/http/client';
import { ListPickerModal } from '@widgets/pickers/ListPicker';

type Row = Record<string, unknown>;

export interface RelationUsersProps {
  /** Paged list of the related users (gets username, pageNo, pageSize and `params`). */
  listUrl: string;
  params: Record<string, unknown>;
  /** POST body adding the picked user ids. */
  addUrl: string;
  addBody: (userIds: string[]) => Record<string, unknown>;
  /** DELETE with these query params removes the relation of the given users. */
  removeUrl: string;
  removeParams: (userIds: string[]) => Record<string, unknown>;
  onChanged?: () => void;
  /** More row actions before 取消关联. */
  rowActions?: (row: Row) => React.ReactNode;
}

const STATUS: Record<string, [string, string]> = { '1': ['正常', 'green'], '2': ['冻结', 'red'] };
const pickerColumns: ColumnsType<Row> = [
  { title: '用户账号', dataIndex: 'username', width: 140 },
  { title: '用户姓名', dataIndex: 'realname', width: 120 },
  { title: '部门', dataIndex: 'orgCodeTxt', ellipsis: true },
];

/** The users related to one role or department: search, paging, 添加已有用户 (user picker), 取消关联 (single and batch). */
export function RelationUsers(p: RelationUsersProps) {
  const { message } = App.useApp();
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [loading, setLoading] = useState(false);
  const [picking, setPicking] = useState(false);
  const paramsKey = JSON.stringify(p.params);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await http.get<PageResult<Row>>(p.listUrl, { ...(JSON.parse(paramsKey) as Row), username: applied || undefined, pageNo: page.current, pageSize: page.size });
      if (!r.success) return void message.warning(r.message);
      setRows(r.result?.records ?? []);
      setTotal(Number(r.result?.total ?? 0));
    } finally {
      setLoading(false);
    }
  }, [p.listUrl, paramsKey, applied, page, message]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (ids: string[]) => {
    const r = await http.delete(p.removeUrl, p.removeParams(ids));
    if (!r.success) return void message.warning(r.message);
    message.success(r.message || '删除成功!');
    setSelected([]);
    p.onChanged?.();
    void load();
  };
  const add = async (picked: Row[]) => {
    setPicking(false);
    const ids = picked.map((r) => String(r.id));
    if (!ids.length) return;
    const r = await http.post(p.addUrl, p.addBody(ids));
    if (!r.success) return void message.warning(r.message);
    message.success(r.message || '添加成功!');
    p.onChanged?.();
    void load();
  };

  const columns: ColumnsType<Row> = [
    { title: '用户账号', dataIndex: 'username', width: 140 },
    { title: '用户姓名', dataIndex: 'realname', width: 120 },
    { title: '工号', dataIndex: 'workNo', width: 100 },
    {
      title: '状态', dataIndex: 'status', width: 80, align: 'center',
      render: (v: unknown) => {
        const s = STATUS[String(v)];
        return s ? <Tag color={s[1]}>{s[0]}</Tag> : String(v ?? '');
      },
    },
    {
      title: '操作', key: 'action', width: p.rowActions ? 200 : 100, align: 'center',
      render: (_: unknown, r: Row) => (
        <Space size="middle">
          {p.rowActions?.(r)}
          <Popconfirm title="确定取消关联吗?" onConfirm={() => void remove([String(r.id)])}>
            <a>取消关联</a>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="relation-users">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder="用户账号"
          style={{ width: 220 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => {
            setApplied(v.trim());
            setPage((pg) => ({ ...pg, current: 1 }));
          }}
        />
        <Button type="primary" onClick={() => setPicking(true)}>
          添加已有用户
        </Button>
        <Popconfirm title={`确定取消关联选中的 ${selected.length} 个用户吗?`} disabled={!selected.length} onConfirm={() => void remove(selected.map(String))}>
          <Button danger disabled={!selected.length}>
            批量取消关联
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
      <ListPickerModal
        open={picking}
        title="选择用户"
        width={900}
        url="/sys/user/list"
        multiple
        searchField="username"
        searchLabel="用户账号"
        params={{ column: 'createTime', order: 'desc', status: 1 }}
        columns={pickerColumns}
        onCancel={() => setPicking(false)}
        onOk={(picked) => void add(picked)}
      />
    </div>
  );
}

/** 角色用户 (role list row action 用户). */
export function RoleUsers({ record }: { record?: Row }) {
  const roleId = String(record?.id ?? '');
  return (
    <RelationUsers
      listUrl="/sys/user/userRoleList"
      params={{ roleId }}
      addUrl="/sys/user/addSysUserRole"
      addBody={(ids) => ({ roleId, userIdList: ids })}
      removeUrl="/sys/user/deleteUserRoleBatch"
      removeParams={(ids) => ({ roleId, userIds: ids.join(',') })}
    />
  );
}
