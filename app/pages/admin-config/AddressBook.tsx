import { useCallback, useEffect, useRef, useState } from 'react';
import { Card, Col, Empty, Input, Row, Spin, Table, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { http } from '@core/http/client';

type Node = { key: string; title: string; orgCode: string; children?: Node[] | null };
type Person = { id: string; realname: string; workNo: string; post: string; phone: string; telephone: string; email: string; departName: string };

const toData = (list: Node[]): DataNode[] => list.map((n) => ({ key: n.orgCode, title: n.title, children: n.children ? toData(n.children) : undefined }));

/** 通讯录: department tree on the left, the staff of the selected department (and its sub-departments) on the right. */
export function AddressBook({ listUrl = '/sys/address/list' }: { listUrl?: string }) {
  const [tree, setTree] = useState<DataNode[]>();
  const [orgCode, setOrgCode] = useState<string>();
  const [name, setName] = useState('');
  const [rows, setRows] = useState<Person[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    void http.get<Node[]>('/sys/sysDepart/queryTreeList').then((r) => setTree(r.success ? toData(r.result) : []));
  }, []);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const r = await http.get<{ records: Person[]; total: number }>(listUrl, { orgCode, realname: name || undefined, pageNo: page.current, pageSize: page.size });
      // Only the latest request's answer is shown (a slow earlier one must not overwrite it).
      if (mine !== seq.current) return;
      if (r.success) {
        setRows(r.result.records);
        setTotal(Number(r.result.total));
      }
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [listUrl, orgCode, name, page]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Row gutter={12} className="address-book">
      <Col xs={24} md={7} xl={6}>
        <Card bordered={false} title="部门" size="small" styles={{ body: { maxHeight: 640, overflow: 'auto' } }}>
          {!tree ? (
            <Spin />
          ) : tree.length ? (
            <Tree
              treeData={tree}
              defaultExpandedKeys={tree.map((n) => n.key)}
              selectedKeys={orgCode ? [orgCode] : []}
              onSelect={(keys) => {
                setOrgCode(keys[0] ? String(keys[0]) : undefined);
                setPage((p) => ({ ...p, current: 1 }));
              }}
            />
          ) : (
            <Empty description="暂无部门" />
          )}
        </Card>
      </Col>
      <Col xs={24} md={17} xl={18}>
        <Card bordered={false} title="通讯录" size="small" extra={<span style={{ color: 'rgba(0,0,0,.45)' }}>只读；选择左侧部门查看其及下级部门的人员</span>}>
          <Input.Search
            allowClear
            placeholder="请输入姓名查询"
            style={{ width: 280, marginBottom: 12 }}
            onSearch={(v) => {
              setName(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
            enterButton="查询"
          />
          <Table<Person>
            size="middle"
            bordered
            rowKey="id"
            loading={loading}
            dataSource={rows}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: '姓名', dataIndex: 'realname', width: 100 },
              { title: '工号', dataIndex: 'workNo', width: 120 },
              { title: '部门', dataIndex: 'departName', width: 220, ellipsis: true },
              { title: '职务', dataIndex: 'post', width: 110 },
              { title: '手机', dataIndex: 'phone', width: 130 },
              { title: '座机', dataIndex: 'telephone', width: 130 },
              { title: '电子邮件', dataIndex: 'email', width: 200 },
            ]}
            pagination={{
              current: page.current,
              pageSize: page.size,
              total,
              showSizeChanger: true,
              pageSizeOptions: ['10', '20', '50'],
              showTotal: (t, range) => `${range[0]}-${range[1]} 共${t}条`,
              onChange: (current, size) => setPage({ current, size }),
            }}
          />
        </Card>
      </Col>
    </Row>
  );
}
