import { useEffect, useState } from 'react';
import { Card, Descriptions, Result, Table } from 'antd';
import { http } from '@core/http/client';
import { getWidget } from '@widgets/registry';
import '@widgets/index';
import { dictText, useDicts } from '@core/dict';
import { urlsOf } from './scope';
import { PageActions } from './PageActions';
import type { PageSchema } from '@shared/page-schema';
import { useLocation } from 'react-router-dom';
import { ReportView } from './report/ReportView';

type Row = Record<string, unknown>;

/** result, detail and report pages. */
export default function StaticPages({ pageId = '', schema }: { pageId?: string; schema: PageSchema }) {
  const [record, setRecord] = useState<Row>(schema.data?.[0] ?? {});
  const dicts = useDicts((schema.sections ?? []).flatMap((s) => (s.items ?? []).map((i) => i.dict)).filter((d): d is string => !!d));
  const urls = urlsOf(schema);
  useEffect(() => {
    if (schema.kind === 'detail' && urls.queryById) void http.get<Row>(urls.queryById).then((r) => r.success && setRecord(r.result ?? {}));
  }, [schema.kind, urls.queryById]);

  const W = schema.widget ? getWidget(schema.widget) : undefined;
  if (W) return <W schema={schema} {...schema.widgetProps} />;
  if (schema.widget) return <Result status="warning" title={`未注册的组件：${schema.widget}`} />;
  if (schema.kind === 'result')
    return (
      <Card bordered={false}>
        <Result
          status={schema.status ?? 'success'}
          title={schema.title}
          subTitle={schema.subTitle}
          extra={<PageActions pageId={pageId} schema={schema} actions={schema.extra ?? []} record={record} />}
        />
        {schema.sections && <Sections schema={schema} record={record} dicts={dicts} />}
      </Card>
    );
  if (schema.kind === 'report' && schema.storedReport) return <StoredReport schema={schema} />;
  if (schema.kind === 'report') return <Report schema={schema} />;
  return (
    <Card bordered={false} title={schema.title}>
      <Sections schema={schema} record={record} dicts={dicts} />
    </Card>
  );
}

function Sections({ schema, record, dicts }: { schema: PageSchema; record: Row; dicts: Record<string, Array<{ value: string; text: string }>> }) {
  return (
    <>
      {(schema.sections ?? []).map((s, i) => (
        <Descriptions key={i} title={s.title} column={s.columns ?? 3} style={{ marginBottom: 24 }}>
          {(s.items ?? []).map((it, j) => {
            const v = it.field ? record[it.field] : it.value;
            return (
              <Descriptions.Item key={j} label={it.label}>
                {it.dict ? dictText(dicts[it.dict], v) : v === undefined || v === null ? '' : String(v)}
              </Descriptions.Item>
            );
          })}
        </Descriptions>
      ))}
    </>
  );
}

/** A report: its table plus a simple bar chart of `chart.y` by `chart.x` (no chart library needed). */
function Report({ schema }: { schema: PageSchema }) {
  const [rows, setRows] = useState<Row[]>(schema.data ?? []);
  const url = urlsOf(schema).list;
  useEffect(() => {
    if (url) void http.get<{ records: Row[] } | Row[]>(url, { pageSize: 1000 }).then((r) => r.success && setRows(Array.isArray(r.result) ? r.result : (r.result?.records ?? [])));
  }, [url]);
  const chart = schema.chart;
  const max = chart ? Math.max(1, ...rows.map((r) => Number(r[chart.y]) || 0)) : 1;
  return (
    <Card bordered={false} title={schema.title}>
      {chart && (
        <div style={{ marginBottom: 24 }} aria-label={chart.title ?? '图表'}>
          {chart.title && <h4>{chart.title}</h4>}
          {rows.map((r, i) => (
            <div key={i} style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4 }}>
              <span style={{ width: 120, textAlign: 'right' }}>{String(r[chart.x] ?? '')}</span>
              <div style={{ background: '#1890ff', height: 16, width: `${((Number(r[chart.y]) || 0) / max) * 60}%` }} />
              <span>{String(r[chart.y] ?? '')}</span>
            </div>
          ))}
        </div>
      )}
      <Table rowKey={(_, i) => String(i)} size="middle" bordered dataSource={rows} columns={(schema.columns ?? []).map((c) => ({ key: c.dataIndex, dataIndex: c.dataIndex, title: c.title, width: c.width }))} pagination={{ pageSize: schema.pageSize ?? 10 }} />
    </Card>
  );
}

/** A report built in 报表配置: its name from the server, its code from the schema or the route's last segment. */
function StoredReport({ schema }: { schema: PageSchema }) {
  const { pathname } = useLocation();
  const code = schema.storedReport === ':code' ? decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '') : schema.storedReport!;
  const [name, setName] = useState<string>();
  return (
    <Card bordered={false} title={name ?? schema.title}>
      <ReportView key={code} code={code} onInfo={(i) => setName(i.name)} />
    </Card>
  );
}
