import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Avatar, Button, Card, Col, Descriptions, Empty, Form, List, Progress, Result, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, UserOutlined } from '@ant-design/icons';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { fileUrl, http } from '@core/http/client';
import { dictText, useDicts, type DictOption } from '@core/dict';
import { menuAtom, userInfoAtom, type MenuNode } from '@core/session/store';
import { getWidget } from '@widgets/registry';
import { EChart } from '@widgets/statistics/Chart';
import type { DashboardColumn, DashboardFilter, DashboardPanel, DashboardValue, PageSchema } from '@shared/page-schema';
import { condition, type Scope } from '@shared/expr';
import { addSample, chartOption, fillTemplate, formatted, pick, rawValue, sourceKey, spanProps, textOf, unwrap, type History } from './dashboard-data';
import { queryControl } from './ListPage';
import { startPolling } from './polling';
import { fillValues, type PageKindProps } from './registry';
import '@widgets/index';

/*
 * The dashboard kind: page filters above panels of figures in a responsive grid. Each panel reads its
 * data from `url` (+ `params` + the filters' values) at `path`; panels with the same request share it;
 * `refresh` polls while the page is visible (renderer/dashboard-data.ts). Docs: docs/page-schema.md.
 */

type Row = Record<string, unknown>;
interface SourceState {
  data?: unknown;
  error?: string;
  /** Answers so far (a chart with a history adds a sample on each). */
  version: number;
}
interface Source {
  url: string;
  params: Row;
  refresh?: number;
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** Filter values from the filters' defaults (`defaultFrom` read once). `ready` once every default is known. */
function useFilters(filters: DashboardFilter[]) {
  const [values, setValues] = useState<Row>(() => Object.fromEntries(filters.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])));
  const [ready, setReady] = useState(() => !filters.some((f) => f.defaultFrom));
  useEffect(() => {
    const from = filters.filter((f) => f.defaultFrom);
    if (!from.length) return;
    let live = true;
    void Promise.all(
      from.map((f) =>
        http
          .get(f.defaultFrom!.url)
          .then((r) => [f.name, pick(unwrap(r), f.defaultFrom!.path)] as const)
          .catch(() => [f.name, undefined] as const),
      ),
    ).then((pairs) => {
      if (!live) return;
      setValues((v) => ({ ...v, ...Object.fromEntries(pairs.filter(([, x]) => !empty(x))) }));
      setReady(true);
    });
    return () => {
      live = false;
    };
  }, [filters]);
  return { values, setValues, ready };
}

/** Requests each source once (and again every `refresh` seconds while visible); answers by source key. */
function useSources(sources: Map<string, Source>, ready: boolean) {
  const [state, setState] = useState<Record<string, SourceState>>({});
  const keys = [...sources.keys()].join('\n');
  useEffect(() => {
    if (!ready) return;
    const stops: Array<() => void> = [];
    let live = true;
    for (const [key, s] of sources) {
      const load = async () => {
        let next: Partial<SourceState>;
        try {
          next = { data: unwrap(await http.get(s.url, s.params)), error: undefined };
        } catch (e) {
          next = { error: e instanceof Error ? e.message : String(e) };
        }
        if (live) setState((st) => ({ ...st, [key]: { ...st[key], ...next, version: (st[key]?.version ?? 0) + 1 } }));
      };
      void load().then(() => {
        if (live && s.refresh) stops.push(startPolling(load, s.refresh * 1000));
      });
    }
    return () => {
      live = false;
      stops.forEach((stop) => stop());
    };
    // `keys` names the sources (url + params); their refresh comes with the schema.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys, ready]);
  return state;
}

/** Every path of the user's menu (hidden entries too): drill-down links show only where the user may go. */
function menuPaths(menu: MenuNode[] | null): Set<string> {
  const out = new Set<string>();
  const walk = (ns: MenuNode[]) => ns.forEach((n) => (out.add(n.path), walk(n.children ?? [])));
  walk(menu ?? []);
  return out;
}

export default function Dashboard({ schema, params: bound, parent, embedded }: PageKindProps) {
  // A page body drawn by one registered widget (the timetable screens) — no panels.
  if (!schema.panels && schema.widget) return <BodyWidget schema={schema} />;
  return <Panels schema={schema} bound={bound} parent={parent} embedded={embedded} />;
}

function BodyWidget({ schema }: { schema: PageSchema }) {
  const W = getWidget(schema.widget!);
  return W ? <W schema={schema} {...schema.widgetProps} /> : <Result status="warning" title="页面不存在" subTitle="该页面的组件无法显示，请联系管理员" />;
}

function Panels({ schema, bound, parent, embedded }: { schema: PageSchema; bound?: Row; parent?: Row; embedded?: boolean }) {
  const filters = useMemo(() => schema.filters ?? [], [schema]);
  const panels = useMemo(() => schema.panels ?? [], [schema]);
  const { values, setValues, ready } = useFilters(filters);
  const user = useAtomValue(userInfoAtom);
  const menu = useAtomValue(menuAtom);
  const paths = useMemo(() => menuPaths(menu), [menu]);
  const dictCodes = useMemo(
    () => [
      ...filters.map((f) => (f.options ? undefined : f.dict)),
      ...panels.flatMap((p) => [p.dict, p.tag?.dict, ...(p.items ?? []).map((i) => i.dict), ...(p.columns ?? []).map((c) => c.dict)]),
    ].filter((d): d is string => !!d),
    [filters, panels],
  );
  const dicts = useDicts(dictCodes);

  const filterValues = (p: DashboardPanel): Row => (p.filters === false ? {} : p.filters ? Object.fromEntries(p.filters.map((n) => [n, values[n]])) : values);
  const requestOf = (p: DashboardPanel): Source | undefined =>
    p.url ? { url: p.url, params: Object.fromEntries(Object.entries({ ...bound, ...fillValues(p.params ?? {}, parent), ...filterValues(p) }).filter(([, v]) => !empty(v))), refresh: p.refresh } : undefined;
  const sources = new Map<string, Source>();
  const keyOf = panels.map((p) => {
    const s = requestOf(p);
    if (!s) return undefined;
    const key = sourceKey(s.url, s.params);
    const had = sources.get(key);
    // Shared by panels: polled as often as the most frequent of them asks.
    sources.set(key, had ? { ...had, refresh: Math.min(had.refresh ?? Infinity, s.refresh ?? Infinity) || undefined } : s);
    return key;
  });
  for (const s of sources.values()) if (s.refresh === Infinity) s.refresh = undefined;
  const state = useSources(sources, ready);

  return (
    <div className="schema-dashboard">
      {filters.length > 0 && (
        <Card variant="borderless" style={{ marginBottom: 16 }} styles={{ body: { paddingBottom: 0 } }}>
          <Form layout="inline" className="dashboard-filters" initialValues={values} key={ready ? 'ready' : 'wait'} onValuesChange={(_, all: Row) => setValues(all)}>
            {filters.map((f) => (
              <Form.Item key={f.name} name={f.name} label={f.label} style={{ marginBottom: 16, minWidth: 240 }}>
                {queryControl(f, dicts)}
              </Form.Item>
            ))}
          </Form>
        </Card>
      )}
      {!embedded && !filters.length && panels.length === 0 && <Empty />}
      <Row gutter={[16, 16]}>
        {panels.map((p, i) => {
          const st = keyOf[i] ? state[keyOf[i]!] : { version: 1 };
          const root = st?.data;
          const data = pick(root, p.path);
          const scope: Scope = { $data: data, $root: root, $user: user ?? {}, $filters: values };
          // A conditional panel shows once its data has answered the condition.
          if (p.visible !== undefined && (!st?.version || !condition(p.visible, scope))) return null;
          return (
            <Col key={p.key ?? i} {...spanProps(p.span)}>
              <Panel panel={p} st={st} data={data} scope={scope} dicts={dicts} paths={paths} />
            </Col>
          );
        })}
      </Row>
    </div>
  );
}

interface PanelProps {
  panel: DashboardPanel;
  st?: SourceState;
  data: unknown;
  scope: Scope;
  dicts: Record<string, DictOption[]>;
  paths: Set<string>;
}

const allowed = (paths: Set<string>, url: string, always?: boolean) => always || paths.has(url.split('?')[0]!);

function Panel(props: PanelProps) {
  const { panel: p, st, scope, paths } = props;
  const nav = useNavigate();
  const title = p.title ? textOf(p.title, scope) : undefined;
  const link = p.link && allowed(paths, p.link.url, p.link.always) ? p.link : undefined;
  const extra = link && p.type !== 'stat' && (
    <Button type="link" size="small" onClick={() => nav(link.url)}>
      {link.label ?? '查看全部'}
    </Button>
  );
  let body: ReactNode;
  if (st?.error) body = <Alert type="error" showIcon message={st.error} />;
  else if (!st?.version) body = <Skeleton active paragraph={{ rows: p.type === 'stat' ? 1 : 4 }} title={false} />;
  else body = <PanelBody {...props} />;
  if (p.type === 'stat')
    return (
      <Card variant="borderless" data-testid={p.key} className="dashboard-panel" hoverable={!!link} onClick={link ? () => nav(link.url) : undefined} style={{ height: '100%' }}>
        {st?.version && !st.error ? <Stat {...props} title={title} /> : body}
      </Card>
    );
  return (
    <Card variant="borderless" data-testid={p.key} className="dashboard-panel" title={title} extra={extra} style={{ height: '100%' }}>
      {p.description && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
          {textOf(p.description, scope)}
        </Typography.Paragraph>
      )}
      {body}
    </Card>
  );
}

function useValueText(dicts: Record<string, DictOption[]>) {
  return (v: DashboardValue, raw: unknown) => formatted(v, raw, (code, x) => dictText(dicts[code], x));
}

/** A value as text, or as a coloured tag (`colors`); a list with `tags`: one tag per element (its `tags` field, `tagColor` over `$row`). */
function ValueView({ v, raw, dicts, scope }: { v: DashboardValue; raw: unknown; dicts: Record<string, DictOption[]>; scope?: Scope }) {
  const text = useValueText(dicts)(v, raw);
  if (v.tags !== undefined && Array.isArray(raw))
    return (
      <Space size={[4, 4]} wrap>
        {raw.map((el, i) => {
          const t = el !== null && typeof el === 'object' ? pick(el, v.tags || undefined) : el;
          const color = v.tagColor ? textOf(v.tagColor, { ...scope, $row: el }) : '';
          return (
            <Tag key={i} color={color || undefined} style={{ marginInlineEnd: 0 }}>
              {String(t ?? '')}
            </Tag>
          );
        })}
      </Space>
    );
  if (v.colors && text) return <Tag color={v.colors[String(raw)] ?? 'default'} bordered={false}>{text}</Tag>;
  return <>{text}</>;
}

function Stat({ panel: p, data, scope, dicts, title }: PanelProps & { title?: string }) {
  const text = useValueText(dicts);
  const raw = rawValue(p, data, scope);
  const value = text({ ...p, suffix: undefined }, raw);
  const color = p.color ? textOf(p.color, scope) : '';
  const trend = p.trend ? rawValue(p.trend, data, scope) : undefined;
  const t = Number(trend);
  return (
    <>
      <Statistic
        title={title}
        value={value === '' ? '—' : value}
        prefix={p.prefix ? textOf(p.prefix, scope) : undefined}
        suffix={p.suffix ? textOf(p.suffix, scope) : undefined}
        valueStyle={color ? { color } : undefined}
        valueRender={(n) => <span className="dashboard-value">{n}</span>}
      />
      {p.trend && !empty(trend) && Number.isFinite(t) && (
        <Typography.Text type={t > 0 ? 'success' : t < 0 ? 'danger' : 'secondary'} className="dashboard-trend">
          {t > 0 ? <ArrowUpOutlined /> : t < 0 ? <ArrowDownOutlined /> : null} {text(p.trend, Math.abs(t))}
        </Typography.Text>
      )}
    </>
  );
}

function PanelBody(props: PanelProps) {
  const { panel: p, data, scope, dicts } = props;
  const rows = Array.isArray(data) ? (data as Row[]) : undefined;
  switch (p.type) {
    case 'descriptions':
      return (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, sm: 1, md: Math.min(2, p.column ?? 1), lg: p.column ?? 1, xl: p.column ?? 1, xxl: p.column ?? 1 }}
          items={(p.items ?? []).map((it, i) => ({ key: i, label: it.label, span: it.span, children: <ValueView v={it} raw={rawValue(it, data, scope)} dicts={dicts} /> }))}
        />
      );
    case 'chart':
      return <ChartPanel {...props} />;
    case 'table':
      return <TablePanel {...props} rows={rows ?? []} />;
    case 'progress': {
      const type = p.progressType ?? 'line';
      const one = (raw: unknown, key: string | number, label?: string, caption?: string) => {
        const n = Number(raw) * (p.format === 'percent' ? 100 : 1);
        const percent = Number.isFinite(n) ? Math.round(n * 10) / 10 : 0;
        const bar = <Progress type={type} percent={percent} status={p.warn !== undefined && percent >= p.warn ? 'exception' : 'normal'} size={type === 'line' ? undefined : 120} />;
        if (type === 'line' && !label && !caption) return <div key={key}>{bar}</div>;
        return (
          <Col key={key} xs={24} sm={type === 'line' ? 24 : 12} xl={type === 'line' ? 24 : 6} style={{ textAlign: type === 'line' ? undefined : 'center' }}>
            {type === 'line' && label && <Typography.Text>{label}</Typography.Text>}
            {bar}
            {type !== 'line' && label && <div>{label}</div>}
            {caption && <Typography.Text type="secondary">{caption}</Typography.Text>}
          </Col>
        );
      };
      if (!rows) return one(rawValue(p, data, scope), 0, p.label ? textOf(p.label, scope) : undefined);
      if (!rows.length) return <Empty description={p.emptyText} />;
      return (
        <Row gutter={[16, 16]}>
          {rows.map((r, i) => {
            const s = { ...scope, $row: r };
            return one(rawValue(p, r, s), i, p.label ? textOf(p.label, s) : undefined, p.caption ? textOf(p.caption, s) : undefined);
          })}
        </Row>
      );
    }
    case 'list':
      return <ListPanel {...props} rows={rows} />;
    case 'profile':
      return <ProfilePanel {...props} />;
    case 'widget': {
      const W = p.widget ? getWidget(p.widget) : undefined;
      return W ? <W {...p.widgetProps} data={data} filters={scope.$filters} /> : <Alert type="warning" message="该组件无法显示" />;
    }
    default:
      return null;
  }
}

function ChartPanel({ panel: p, st, data }: PanelProps) {
  const chart = p.chart!;
  const [history, setHistory] = useState<History>({ t: [], v: [] });
  const seen = useRef(0);
  useEffect(() => {
    if (!chart.history || !st?.version || st.error || seen.current === st.version) return;
    seen.current = st.version;
    setHistory((h) => addSample(h, chart, data, new Date()));
  }, [chart, st, data]);
  const option = useMemo(() => chartOption(chart, data, chart.history ? history : undefined), [chart, data, history]);
  const rows = Array.isArray(data) ? data : undefined;
  if (rows && !rows.length) return <Empty description={p.emptyText} />;
  const height = chart.height ?? (chart.horizontal && rows ? Math.max(260, rows.length * 34 + 60) : 280);
  return <EChart option={option} height={height} testId={p.key ? `${p.key}-chart` : undefined} />;
}

function TablePanel({ panel: p, rows, scope, dicts }: PanelProps & { rows: Row[] }) {
  const nav = useNavigate();
  const columns = (p.columns ?? []).map((c: DashboardColumn) => {
    const W = c.widget ? getWidget(c.widget) : undefined;
    return {
      key: c.dataIndex,
      title: c.title,
      width: c.width,
      align: c.align,
      ellipsis: c.ellipsis,
      render: (_: unknown, r: Row) => {
        const raw = rawValue({ ...c, field: c.value === undefined ? c.dataIndex : undefined }, r, { ...scope, $row: r });
        return W ? <W value={raw} record={r} {...c.widgetProps} /> : <ValueView v={c} raw={raw} dicts={dicts} />;
      },
    };
  });
  const size = p.pageSize ?? 10;
  return (
    <Table
      rowKey={(r: Row) => String(p.rowKey ? pick(r, p.rowKey) : rows.indexOf(r))}
      size="small"
      dataSource={rows}
      columns={columns}
      pagination={rows.length > size ? { pageSize: size, size: 'small' } : false}
      locale={{ emptyText: p.emptyText ?? '暂无数据' }}
      // Narrow screens scroll: fixed columns at their width, the others at least 120 px.
      scroll={{ x: (p.columns ?? []).reduce((a, c) => a + (c.width ?? 120), 0) }}
      onRow={(r) => (p.rowLink ? { onClick: () => nav(textOf(fillValues({ u: p.rowLink }, r).u, { ...scope, $row: r })), style: { cursor: 'pointer' } } : {})}
    />
  );
}

/** A person (or any record) card: avatar, name and caption, then its items (an empty one shows —). */
function ProfilePanel({ panel: p, data, scope, dicts }: PanelProps) {
  const src = p.avatar ? pick(data, p.avatar) : undefined;
  const col = p.column ?? 1;
  return (
    <div className="dashboard-profile" style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'flex-start' }}>
      <div style={{ flex: '1 1 180px', textAlign: 'center' }}>
        <Avatar size={104} src={src ? fileUrl(String(src)) : undefined} icon={<UserOutlined />} />
        {p.label && (
          <div className="dashboard-profile-name" style={{ fontSize: 20, fontWeight: 500, marginTop: 12 }}>
            {textOf(p.label, scope)}
          </div>
        )}
        {p.caption && <Typography.Text type="secondary">{textOf(p.caption, scope)}</Typography.Text>}
      </div>
      <Descriptions
        style={{ flex: '999 1 260px', minWidth: 0 }}
        size="small"
        column={{ xs: 1, sm: 1, md: Math.min(2, col), lg: col, xl: col, xxl: col }}
        items={(p.items ?? []).map((it, i) => {
          const raw = rawValue(it, data, scope);
          const none = empty(raw) || (Array.isArray(raw) && !raw.length);
          return { key: i, label: it.label, span: it.span, children: none ? '—' : <ValueView v={it} raw={raw} dicts={dicts} scope={scope} /> };
        })}
      />
    </div>
  );
}

function ListPanel({ panel: p, rows, scope, paths, dicts }: PanelProps & { rows?: Row[] }) {
  const nav = useNavigate();
  const items: Array<{ title: string; description?: string; extra?: string; tag?: ReactNode; url?: string }> = p.links
    ? p.links.filter((l) => allowed(paths, l.url, l.always)).map((l) => ({ title: l.label, description: l.description, url: l.url }))
    : (rows ?? []).map((r) => {
        const s = { ...scope, $row: r };
        const url = p.rowLink ? String(fillValues({ u: p.rowLink }, r).u) : undefined;
        return {
          title: p.label ? textOf(p.label, s) : String(fillTemplate(r.title ?? r.name ?? '', s)),
          description: p.caption ? textOf(p.caption, s) : undefined,
          extra: p.extra ? textOf(p.extra, s) : undefined,
          tag: p.tag ? <ValueView v={p.tag} raw={rawValue(p.tag, r, s)} dicts={dicts} scope={s} /> : undefined,
          url: url && allowed(paths, url) ? url : undefined,
        };
      });
  if (p.links)
    return (
      <Row gutter={[8, 8]}>
        {items.map((it) => (
          <Col key={it.url} xs={12} sm={8}>
            <Button block onClick={() => nav(it.url!)} title={it.description}>
              {it.title}
            </Button>
          </Col>
        ))}
      </Row>
    );
  return (
    <List
      size="small"
      dataSource={items}
      locale={{ emptyText: p.emptyText ?? '暂无数据' }}
      renderItem={(it) => (
        <List.Item
          extra={
            (it.extra || it.tag) && (
              <>
                {it.tag}
                {it.extra && <Typography.Text type="secondary">{it.extra}</Typography.Text>}
              </>
            )
          }
        >
          <List.Item.Meta title={it.url ? <a onClick={() => nav(it.url!)}>{it.title}</a> : it.title} description={it.description} />
        </List.Item>
      )}
    />
  );
}
