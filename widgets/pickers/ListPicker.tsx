import { useEffect, useState, type ReactNode } from 'react';
import { Button, Input, message, Modal, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { http, type PageResult } from '@core/http/client';
import { ellipsis } from '../logic/inputs';

export type Row = Record<string, unknown>;

export interface ListPickerModalProps {
  open: boolean;
  title: string;
  width: number;
  url: string;
  columns: ColumnsType<Row>;
  rowKey?: string;
  multiple?: boolean;
  /** Field searched by the keyword box (omit to hide it). */
  searchField?: string;
  searchLabel?: string;
  params?: Record<string, unknown>;
  pageSize?: number;
  pageSizeOptions?: number[];
  /** Keys already chosen. */
  selectedKeys?: string[];
  /** Extra filter controls above the table. */
  filters?: ReactNode;
  /** Shows the chosen rows in a table of this height under the list. */
  selectedTableHeight?: number;
  onOk: (rows: Row[]) => void;
  onCancel: () => void;
}

/** A modal table picker over a paged list endpoint (the shared body of the record pickers). */
export function ListPickerModal(p: ListPickerModalProps) {
  const rowKey = p.rowKey ?? 'id';
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ current: 1, size: p.pageSize ?? 10 });
  const [keyword, setKeyword] = useState('');
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Row[]>([]);
  const paramsKey = JSON.stringify(p.params ?? {});

  useEffect(() => {
    if (p.open) setPicked((p.selectedKeys ?? []).map((k) => ({ [rowKey]: k })));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.open]);

  useEffect(() => {
    if (!p.open) return;
    let live = true;
    setLoading(true);
    const q: Record<string, unknown> = { ...(JSON.parse(paramsKey) as Record<string, unknown>), pageNo: page.current, pageSize: page.size };
    if (p.searchField && keyword) q[p.searchField] = `*${keyword}*`;
    void http
      .get<PageResult<Row> | Row[]>(p.url, q)
      .then((r) => {
        if (!live) return;
        const res = r.result;
        const list = Array.isArray(res) ? res : (res?.records ?? []);
        setRows(list);
        setTotal(Array.isArray(res) ? list.length : Number(res?.total ?? 0));
        if (!r.success) void message.warning(r.message || '加载失败');
      })
      .catch(() => live && setRows([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [p.open, p.url, paramsKey, page, keyword, p.searchField]);

  const keys = picked.map((r) => String(r[rowKey]));
  return (
    <Modal
      open={p.open}
      title={p.title}
      width={p.width}
      destroyOnHidden
      onCancel={p.onCancel}
      onOk={() => {
        if (picked.length === 0) return void message.warning('请选择一条记录');
        if (!p.multiple && picked.length > 1) return void message.warning('请选择一条记录');
        // Rows known only by key (pre-selected, not on this page) keep what we know of them.
        p.onOk(picked.map((k) => rows.find((r) => String(r[rowKey]) === String(k[rowKey])) ?? k));
      }}
    >
      <Space style={{ marginBottom: 12 }} wrap>
        {p.searchField && (
          <Input.Search
            allowClear
            placeholder={`请输入${p.searchLabel ?? '关键字'}`}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((x) => ({ ...x, current: 1 }));
            }}
            style={{ width: 240 }}
          />
        )}
        {p.filters}
      </Space>
      <Table<Row>
        size="small"
        rowKey={(r) => String(r[rowKey])}
        loading={loading}
        columns={p.columns}
        dataSource={rows}
        scroll={{ y: 360 }}
        rowSelection={{
          type: p.multiple ? 'checkbox' : 'radio',
          selectedRowKeys: keys,
          preserveSelectedRowKeys: true,
          onChange: (_k, selected) => {
            const others = picked.filter((x) => !rows.some((r) => String(r[rowKey]) === String(x[rowKey])));
            setPicked(p.multiple ? [...others, ...selected] : selected.slice(-1));
          },
        }}
        onRow={(r) => ({
          onClick: () => {
            const k = String(r[rowKey]);
            if (!p.multiple) setPicked([r]);
            else setPicked(keys.includes(k) ? picked.filter((x) => String(x[rowKey]) !== k) : [...picked, r]);
          },
        })}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total,
          showSizeChanger: true,
          pageSizeOptions: (p.pageSizeOptions ?? [10, 20, 30]).map(String),
          showTotal: (t, [a, b]) => `${a}-${b} 共${t}条`,
          onChange: (current, size) => setPage({ current, size }),
        }}
      />
      {p.selectedTableHeight !== undefined && (
        <Table<Row>
          size="small"
          title={() => `已选择 ${picked.length} 项`}
          rowKey={(r) => String(r[rowKey])}
          columns={[...p.columns, { title: '操作', width: 80, render: (_: unknown, r: Row) => <a onClick={() => setPicked(picked.filter((x) => x !== r))}>删除</a> }]}
          dataSource={picked}
          pagination={false}
          scroll={{ y: p.selectedTableHeight }}
        />
      )}
    </Modal>
  );
}

export interface PickerFieldProps {
  text: string;
  placeholder?: string;
  disabled?: boolean;
  onOpen: () => void;
  onClear: () => void;
  /** Label ellipsis length (-1 disables). */
  ellipsisLength?: number;
  tags?: string[];
}

/** The read-only box of a picker: shows the text, opens the modal, clears. */
export function PickerField({ text, placeholder = '请选择', disabled, onOpen, onClear, ellipsisLength = -1, tags }: PickerFieldProps) {
  const shown = ellipsis(text, ellipsisLength);
  return (
    <Space.Compact style={{ width: '100%' }}>
      {tags ? (
        <div className="ant-input" style={{ minHeight: 32, display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', cursor: disabled ? 'not-allowed' : 'pointer' }} onClick={() => !disabled && onOpen()}>
          {tags.length ? tags.map((t) => <Tag key={t}>{ellipsis(t, ellipsisLength)}</Tag>) : <span style={{ color: '#bfbfbf' }}>{placeholder}</span>}
        </div>
      ) : (
        <Tooltip title={shown !== text ? text : undefined}>
          <Input readOnly value={shown} placeholder={placeholder} disabled={disabled} onClick={() => !disabled && onOpen()} allowClear={!disabled} onChange={(e) => e.target.value === '' && onClear()} />
        </Tooltip>
      )}
      <Button disabled={disabled} onClick={onOpen} aria-label="选择">选择</Button>
    </Space.Compact>
  );
}
