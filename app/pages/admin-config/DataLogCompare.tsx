import { useEffect, useState } from 'react';
import { Alert, Select, Space, Switch, Table, Typography } from 'antd';
import { http } from '@core/http/client';

type Version = { id: string; dataVersion: number | string; createBy: string; createTime: string };
type Field = { name: string; title: string; left: string; right: string; changed: boolean };
type Head = { dataVersion: number | string; createBy: string; createTime: string };

/** 数据比较: two versions of one record side by side (`/sys/dataLog/compare`), changed fields highlighted. */
export function DataLogCompare({ record }: { record?: Record<string, unknown> }) {
  const [versions, setVersions] = useState<Version[]>([]);
  const [pair, setPair] = useState<[string?, string?]>([]);
  const [result, setResult] = useState<{ left: Head; right: Head; fields: Field[] }>();
  const [onlyChanged, setOnlyChanged] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    void (async () => {
      const r = await http.get<{ records: Version[] }>('/sys/dataLog/list', {
        dataTable: record?.dataTable, dataId: record?.dataId, column: 'dataVersion', order: 'asc', pageSize: 200,
      });
      if (!r.success) return setError(r.message);
      const list = r.result.records;
      setVersions(list);
      // This row against the version before it (or after it, for the first version).
      const i = list.findIndex((v) => v.id === record?.id);
      const other = list[i > 0 ? i - 1 : i + 1];
      setPair(other ? (i > 0 ? [other.id, list[i]!.id] : [list[i]!.id, other.id]) : [String(record?.id), String(record?.id)]);
    })();
  }, [record]);

  useEffect(() => {
    if (!pair[0] || !pair[1]) return;
    void (async () => {
      const r = await http.get<{ left: Head; right: Head; fields: Field[] }>('/sys/dataLog/compare', { id1: pair[0], id2: pair[1] });
      if (r.success) {
        setResult(r.result);
        setError('');
      } else setError(r.message);
    })();
  }, [pair]);

  const options = versions.map((v) => ({ value: v.id, label: `版本 ${v.dataVersion}（${v.createBy || '-'} ${v.createTime}）` }));
  const head = (h?: Head) => (h ? `版本 ${h.dataVersion}（${h.createBy || '-'}，${h.createTime}）` : '');
  const changed = result?.fields.filter((f) => f.changed).length ?? 0;
  return (
    <div className="data-log-compare">
      <Typography.Paragraph type="secondary">
        {String(record?.tableTitle ?? '')} {String(record?.dataTable ?? '')} · 数据ID {String(record?.dataId ?? '')}
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <span>版本一</span>
        <Select style={{ width: 330 }} value={pair[0]} options={options} onChange={(v) => setPair([v, pair[1]])} aria-label="版本一" />
        <span>版本二</span>
        <Select style={{ width: 330 }} value={pair[1]} options={options} onChange={(v) => setPair([pair[0], v])} aria-label="版本二" />
        <Switch checked={onlyChanged} onChange={setOnlyChanged} /> 只看变化
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      {result && <Alert type={changed ? 'warning' : 'success'} showIcon style={{ marginBottom: 12 }} message={changed ? `共有 ${changed} 个字段不同（已标黄）` : '两个版本内容相同'} />}
      <Table<Field>
        size="small"
        bordered
        rowKey="name"
        pagination={false}
        dataSource={(result?.fields ?? []).filter((f) => !onlyChanged || f.changed)}
        onRow={(f) => (f.changed ? { className: 'data-log-changed', style: { background: '#fffbe6' } } : {})}
        columns={[
          { title: '字段', dataIndex: 'title', width: 150, render: (t: string, f) => (f.changed ? <b>{t}</b> : t) },
          { title: head(result?.left), dataIndex: 'left', render: (v: string) => <span style={{ wordBreak: 'break-all' }}>{v}</span> },
          { title: head(result?.right), dataIndex: 'right', render: (v: string, f) => <span style={{ wordBreak: 'break-all', color: f.changed ? '#d4380d' : undefined }}>{v}</span> },
        ]}
      />
    </div>
  );
}
