import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Progress, Row, Space, Table, Tag } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import * as echarts from '@core/ui/echarts';
import { http } from '@core/http/client';

/* Monitoring screens (SPEC: system, disk, HTTP trace, "JVM", "Redis", "Tomcat") over /sys/actuator/*.
   Figures refresh every REFRESH_MS; the charts keep the last HISTORY samples. */
const REFRESH_MS = 5_000;
const HISTORY = 60;

type Data = Record<string, any>;

interface Series {
  name: string;
  get: (d: Data) => number;
}

/** Polls an endpoint; `raw` for the two Actuator-shaped answers that have no envelope. */
function usePoll(url: string, raw = false) {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let alive = true;
    const load = async () => {
      try {
        const r = (await http.get(url)) as unknown as Data;
        if (!alive) return;
        if (raw) setData(r);
        else if (r.success) setData(r.result as Data);
        else throw new Error(String(r.message));
        setError('');
      } catch (e) {
        if (alive) setError(e instanceof Error ? e.message : String(e));
      }
    };
    void load();
    const t = window.setInterval(() => void load(), REFRESH_MS);
    return () => {
      alive = false;
      window.clearInterval(t);
    };
  }, [url, raw, tick]);
  return { data, error, reload: () => setTick((x) => x + 1) };
}

function LiveChart({ data, series, unit }: { data: Data | null; series: Series[]; unit?: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const hist = useRef<{ t: string[]; v: number[][] }>({ t: [], v: series.map(() => []) });
  useEffect(() => {
    if (!el.current) return;
    chart.current = echarts.init(el.current);
    const onResize = () => chart.current?.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      chart.current?.dispose();
    };
  }, []);
  useEffect(() => {
    if (!data || !chart.current) return;
    const h = hist.current;
    h.t.push(new Date().toTimeString().slice(0, 8));
    series.forEach((s, i) => h.v[i]!.push(s.get(data)));
    if (h.t.length > HISTORY) {
      h.t.shift();
      h.v.forEach((v) => v.shift());
    }
    chart.current.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: series.map((s) => s.name) }, // echarts 6 would put it at the bottom, over the time axis
      grid: { left: 50, right: 20, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: h.t, boundaryGap: false },
      yAxis: { type: 'value', name: unit },
      series: series.map((s, i) => ({ name: s.name, type: 'line', smooth: true, showSymbol: false, data: h.v[i] })),
    });
  }, [data, series, unit]);
  return <div ref={el} style={{ height: 300 }} />;
}

function Panel({ title, url, items, series, unit, children }: {
  title: string;
  url: string;
  items: (d: Data) => Array<[string, ReactNode]>;
  series: Series[];
  unit?: string;
  children?: (d: Data) => ReactNode;
}) {
  const { data, error, reload } = usePoll(url);
  return (
    <Card
      title={title}
      variant="borderless"
      extra={<Button icon={<ReloadOutlined />} onClick={reload}>刷新</Button>}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} xl={10}>
          <Descriptions bordered size="small" column={1} items={(data ? items(data) : []).map(([label, v]) => ({ key: label, label, children: v }))} />
        </Col>
        <Col xs={24} xl={14}>
          <LiveChart data={data} series={series} unit={unit} />
        </Col>
      </Row>
      {data && children?.(data)}
    </Card>
  );
}

const pct = (n: unknown) => `${Math.round(Number(n ?? 0) * 1000) / 10}%`;
const duration = (s: number) => `${Math.floor(s / 86400)}天${Math.floor((s % 86400) / 3600)}小时${Math.floor((s % 3600) / 60)}分`;
const bytes = (n: number) => (n >= 1 << 30 ? `${(n / (1 << 30)).toFixed(2)} GB` : n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} KB`);

const SYSTEM_SERIES: Series[] = [
  { name: 'CPU使用率(%)', get: (d) => Math.round(d.cpuUsage * 1000) / 10 },
  { name: '内存使用率(%)', get: (d) => Math.round(d.memoryUsage * 1000) / 10 },
];
export function SystemInfo() {
  return (
    <Panel
      title="系统信息"
      url="/sys/actuator/system"
      unit="%"
      series={SYSTEM_SERIES}
      items={(d) => [
        ['主机', d.hostname], ['操作系统', d.platform], ['CPU', `${d.cpuCount} 核 ${d.cpuModel}`], ['CPU使用率', pct(d.cpuUsage)],
        ['系统负载(1/5/15分钟)', (d.loadAverage ?? []).join(' / ')], ['内存', `${d.memoryUsedMb} / ${d.memoryTotalMb} MB（${pct(d.memoryUsage)}）`],
        ['进程内存(RSS)', `${d.processRssMb} MB`], ['系统运行时间', duration(d.systemUptimeSeconds)], ['服务启动时间', d.processStartTime],
        ['服务运行时间', duration(d.processUptimeSeconds)], ['Node.js', d.nodeVersion], ['时区', d.timezone],
      ]}
    />
  );
}

const NODE_SERIES: Series[] = [
  { name: '堆已用(MB)', get: (d) => d.heapUsedMb },
  { name: 'RSS(MB)', get: (d) => d.rssMb },
  { name: '事件循环延迟p99(ms)', get: (d) => d.eventLoopDelayMs?.p99 ?? 0 },
];
export function NodeInfo() {
  return (
    <Panel
      title="Node运行时"
      url="/sys/actuator/node"
      series={NODE_SERIES}
      items={(d) => [
        ['Node.js / V8', `${d.nodeVersion} / ${d.v8Version}`], ['进程号', d.pid], ['运行时间', duration(d.uptimeSeconds)],
        ['堆内存', `${d.heapUsedMb} / ${d.heapTotalMb} MB（上限 ${d.heapLimitMb} MB）`], ['RSS', `${d.rssMb} MB`],
        ['外部内存 / ArrayBuffer', `${d.externalMb} / ${d.arrayBuffersMb} MB`],
        ['事件循环延迟', d.eventLoopDelayMs ? `平均 ${d.eventLoopDelayMs.mean} ms，p99 ${d.eventLoopDelayMs.p99} ms，最大 ${d.eventLoopDelayMs.max} ms` : '-'],
        ['垃圾回收', `${d.gc.count} 次，共 ${d.gc.totalMs} ms，最近 ${d.gc.lastMs} ms`],
        ['活动句柄', `${d.activeHandles}（${Object.entries(d.activeHandlesByKind ?? {}).map(([k, v]) => `${k} ${v}`).join('，')}）`],
      ]}
    />
  );
}

const DB_SERIES: Series[] = [
  { name: '连接数', get: (d) => d.connections },
  { name: '活动连接', get: (d) => d.activeConnections },
];
export function DatabaseInfo() {
  return (
    <Panel
      title="数据库监控"
      url="/sys/actuator/database"
      series={DB_SERIES}
      items={(d) => [
        ['数据库', d.kind], ['版本', d.version], ['数据库大小', bytes(d.sizeBytes)], ['连接数', `${d.connections}（活动 ${d.activeConnections}）`],
        ['缓存命中率', d.cacheHitRatio === null ? '-' : pct(d.cacheHitRatio)], ['采集时间', d.time],
      ]}
    >
      {(d) => (
        <Table
          style={{ marginTop: 16 }}
          size="small"
          rowKey="name"
          pagination={false}
          dataSource={d.tables}
          columns={[
            { title: '表名', dataIndex: 'name' },
            { title: '大小', dataIndex: 'bytes', render: (v: number) => bytes(v) },
            { title: '估计行数', dataIndex: 'rows' },
          ]}
        />
      )}
    </Panel>
  );
}

const HTTP_SERIES: Series[] = [
  { name: 'p50(ms)', get: (d) => d.latencyMs.p50 },
  { name: 'p90(ms)', get: (d) => d.latencyMs.p90 },
  { name: 'p99(ms)', get: (d) => d.latencyMs.p99 },
];
export function HttpServerInfo() {
  return (
    <Panel
      title="HTTP服务"
      url="/sys/actuator/http"
      unit="ms"
      series={HTTP_SERIES}
      items={(d) => [
        ['统计起始', d.since], ['请求总数', d.requests], ['处理中', d.inFlight], ['当前连接', d.connections],
        ['状态分布', <Space key="s">{Object.entries(d.status as Record<string, number>).map(([k, v]) => <Tag key={k} color={k === '5xx' ? 'red' : k === '4xx' ? 'orange' : 'green'}>{k}: {v}</Tag>)}</Space>],
        ['延迟(最近1000次)', `p50 ${d.latencyMs.p50} ms，p90 ${d.latencyMs.p90} ms，p99 ${d.latencyMs.p99} ms，最大 ${d.latencyMs.max} ms`],
      ]}
    />
  );
}

export function DiskMonitoring() {
  const { data, error, reload } = usePoll('/sys/actuator/redis/queryDiskInfo');
  const disks = (data as unknown as Array<{ name: string; max: number; rest: number; restPPT: number }> | null) ?? [];
  return (
    <Card title="磁盘监控" variant="borderless" extra={<Button icon={<ReloadOutlined />} onClick={reload}>刷新</Button>}>
      {error && <Alert type="error" showIcon message={error} />}
      <Row gutter={[16, 16]}>
        {disks.map((d) => (
          <Col key={d.name} xs={24} sm={12} xl={6} style={{ textAlign: 'center' }}>
            <Progress type="dashboard" percent={d.restPPT} status={d.restPPT >= 90 ? 'exception' : 'normal'} />
            <div>{d.name}</div>
            <div style={{ color: '#888' }}>可用 {bytes(d.rest)} / 共 {bytes(d.max)}</div>
          </Col>
        ))}
      </Row>
    </Card>
  );
}

export function HttpTrace() {
  const { data, error, reload } = usePoll('/actuator/httptrace', true);
  return (
    <Card title="请求追踪" variant="borderless" extra={<Button icon={<ReloadOutlined />} onClick={reload}>刷新</Button>}>
      {error && <Alert type="error" showIcon message={error} />}
      <Table
        size="small"
        rowKey={(r, i) => `${r.timestamp}-${i}`}
        dataSource={(data?.traces as Data[]) ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: '请求时间', dataIndex: 'timestamp', width: 170 },
          { title: '请求方法', dataIndex: ['request', 'method'], width: 90 },
          { title: '请求URL', dataIndex: ['request', 'uri'], ellipsis: true },
          { title: '响应状态', dataIndex: ['response', 'status'], width: 90, render: (s: number) => <Tag color={s >= 500 ? 'red' : s >= 400 ? 'orange' : 'green'}>{s}</Tag> },
          { title: '请求耗时(ms)', dataIndex: 'timeTaken', width: 110 },
        ]}
      />
    </Card>
  );
}

