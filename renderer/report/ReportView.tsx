import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, DatePicker, Drawer, Empty, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import dayjs from 'dayjs';
import { http } from '@core/http/client';
import { useDicts } from '@core/dict';
import { EChart } from '@widgets/statistics/Chart';
import { formatValue, type DisplayFormat } from '@shared/format';
import type { ReportOutput, ReportSpec, ReportViewInfo } from '@shared/report-spec';
import { chartOption } from '../dashboard-data';

type Row = Record<string, unknown>;

/**
 * A report of 报表配置 (issue 31): parameters, chart, table, export, and a row's records.
 * `code` draws a stored report (GET /online/report/<code>/view + /data); `spec` draws a draft through the
 * builder's preview (POST /online/cgreport/design/view). A linked cell opens its record's screen
 * (`<recordLink>?open=<id>`); a grouped row's 明细 lists its records.
 */
export function ReportView({ code, spec, compact, onInfo }: { code?: string; spec?: ReportSpec; compact?: boolean; onInfo?: (info: ReportViewInfo) => void }) {
  const [info, setInfo] = useState<ReportViewInfo>();
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [params, setParams] = useState<Record<string, unknown>>({});
  const [drill, setDrill] = useState<{ row: Row; rows?: Row[] }>();
  const [form] = Form.useForm();
  const { message } = App.useApp();
  const nav = useNavigate();

  const run = useCallback(
    async (p: Record<string, unknown>, d?: Row): Promise<{ info?: ReportViewInfo; rows?: Row[]; error?: string }> => {
      if (spec) {
        const r = await http.post<ReportViewInfo>('/online/cgreport/design/view', { spec, params: p, ...(d ? { drill: d } : {}) });
        return r.success ? { info: r.result, rows: r.result.rows ?? [] } : { error: r.message };
      }
      const r = await http.get<Row[]>(`/online/report/${code}/data`, { params: JSON.stringify(p), ...(d ? { drill: JSON.stringify(d) } : {}) });
      return r.success ? { rows: r.result } : { error: r.message };
    },
    [code, spec],
  );

  // The report's shape (a stored one: once; a draft: with each change of the structure).
  useEffect(() => {
    let live = true;
    setError(undefined);
    setLoading(true);
    const load = async () => {
      if (code && !spec) {
        const v = await http.get<ReportViewInfo>(`/online/report/${code}/view`);
        if (!v.success) return { error: v.message };
        const d = await run({});
        return { ...d, info: v.result };
      }
      return run(params);
    };
    void load().then((r) => {
      if (!live) return;
      setLoading(false);
      if (r.error) setError(r.error);
      else {
        if (r.info) {
          setInfo(r.info);
          onInfo?.(r.info);
        }
        setRows(r.rows ?? []);
      }
    });
    return () => {
      live = false;
    };
    // params are applied by 查询
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, spec, run]);

  const query = async (p: Record<string, unknown>) => {
    const clean = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v]));
    setParams(clean);
    setLoading(true);
    const r = await run(clean);
    setLoading(false);
    if (r.error) setError(r.error);
    else {
      setError(undefined);
      setRows(r.rows ?? []);
    }
  };

  const dictCodes = useMemo(() => [...(info?.columns ?? []), ...(info?.detail ?? [])].map((c) => c.dict).concat((info?.params ?? []).map((p) => p.dict)).filter((d): d is string => !!d), [info]);
  const dicts = useDicts(dictCodes);

  const openRecord = (id: unknown) => info?.recordLink && nav(`${info.recordLink}?open=${encodeURIComponent(String(id))}`);
  const columnsOf = (outs: ReportOutput[]) =>
    outs.map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: c.label,
      align: (['integer', 'bigint', 'number'].includes(c.type) && !c.dict ? 'right' : 'left') as 'right' | 'left',
      render: (v: unknown, r: Row) => {
        const text = c.dict ? String(r[`${c.key}_dictText`] ?? v ?? '') : formatValue(v, (c.format as DisplayFormat | undefined) ?? (c.type === 'date' ? 'date' : c.type === 'datetime' ? 'datetime' : undefined));
        if (c.link && r.__id !== undefined && info?.recordLink)
          return (
            <Typography.Link data-testid="report-record-link" onClick={() => openRecord(r.__id)}>
              {text || '查看'}
            </Typography.Link>
          );
        return text;
      },
    }));

  const openDrill = async (row: Row) => {
    setDrill({ row });
    const d = Object.fromEntries((info?.dims ?? []).map((k) => [k, row[k] ?? null]));
    const r = await run(params, d);
    if (r.error) message.error(r.error);
    setDrill({ row, rows: r.rows ?? [] });
  };

  const tableColumns = info
    ? [
        ...columnsOf(info.columns),
        ...(info.grouped && info.detail?.length
          ? [{ key: '__drill', title: '明细', width: 72, render: (_: unknown, r: Row) => <Typography.Link data-testid="report-drill" onClick={() => void openDrill(r)}>明细</Typography.Link> }]
          : []),
      ]
    : [];

  const chart = info?.chart;
  const option = useMemo(() => {
    if (!chart || !info) return undefined;
    const x = info.columns.find((c) => c.key === chart.x);
    const xKey = x?.dict ? `${chart.x}_dictText` : chart.x;
    const series = chart.series.map((k) => ({ name: info.columns.find((c) => c.key === k)?.label ?? k, field: k }));
    return series.length ? chartOption({ type: chart.type, x: xKey, emptyX: '（空）', series }, rows) : undefined;
  }, [chart, info, rows]);

  const exportXls = async () => {
    try {
      await http.download(`/online/report/${code}/exportXls`, { params: JSON.stringify(params) }, `${info?.name ?? code}.xlsx`);
    } catch (err) {
      message.warning((err as Error).message || '文件下载失败');
    }
  };

  return (
    <div data-testid="report-view">
      {!!info?.params.length && (
        <Form form={form} layout="inline" onFinish={(v) => void query(v as Record<string, unknown>)} style={{ marginBottom: 16, rowGap: 8 }}>
          {info.params.map((p) => (
            <Form.Item key={p.name} name={p.name} label={p.label} style={{ minWidth: 200 }}>
              {p.dict ? (
                <Select allowClear placeholder="全部" style={{ minWidth: 140 }} options={(dicts[p.dict] ?? []).map((d) => ({ value: d.value, label: d.text }))} />
              ) : p.type === 'date' ? (
                <DatePicker />
              ) : p.type === 'integer' || p.type === 'number' ? (
                <InputNumber style={{ width: 140 }} />
              ) : (
                <Input allowClear placeholder="全部" />
              )}
            </Form.Item>
          ))}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">查询</Button>
              <Button onClick={() => { form.resetFields(); void query({}); }}>重置</Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      {code && !spec && (
        <Space style={{ marginBottom: 12 }}>
          {info?.mayExport && <Button icon={<DownloadOutlined />} onClick={() => void exportXls()}>导出</Button>}
          <Button icon={<ReloadOutlined />} onClick={() => void query(params)}>刷新</Button>
        </Space>
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="report-error" />}
      {option && rows.length > 0 && (
        <Card size="small" style={{ marginBottom: 16 }} bordered>
          <EChart option={option} height={compact ? 240 : 300} testId="report-chart" />
        </Card>
      )}
      <Table
        rowKey={(r) => String((r as Row).__id ?? JSON.stringify(r))}
        size="middle"
        bordered
        loading={loading}
        dataSource={rows}
        columns={tableColumns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description="没有数据" /> }}
        pagination={{ pageSize: compact ? 8 : 20, showSizeChanger: false, showTotal: (t) => `共 ${t} 行` }}
      />
      <Drawer open={!!drill} onClose={() => setDrill(undefined)} title={drill ? `明细：${(info?.dims ?? []).map((k) => String(drill.row[`${k}_dictText`] ?? drill.row[k] ?? '（空）')).join(' · ')}` : '明细'} width={Math.min(820, window.innerWidth)} destroyOnClose>
        {drill && (
          <Table
            rowKey={(r) => String((r as Row).__id)}
            size="small"
            bordered
            loading={!drill.rows}
            dataSource={drill.rows ?? []}
            columns={columnsOf(info?.detail ?? [])}
            scroll={{ x: 'max-content' }}
            pagination={{ pageSize: 20, showSizeChanger: false }}
          />
        )}
      </Drawer>
    </div>
  );
}
