import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Card, Col, Empty, Row, Segmented, Skeleton, Statistic, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import { useDictOptions } from '../dict/useDictOptions';
import { drillUrl } from './DrillCell';
import { EChart, type ChartClick } from './Chart';
import { frequencyTotals, gradeOption, pct, performanceTotals, weeklyOption, type Coverage, type DepartRow, type GradeLabel, type GradeRow, type WeekRow } from './options';

const REPORT = '/supervisor/report';
const LIST_PATH = '/statistics/frequency';
const DETAIL_PATH = '/statistics/performance/detail';
export type By = 'depart' | 'category' | 'title';
const BY_OPTIONS: Array<{ label: string; value: By }> = [
  { label: '按部门', value: 'depart' },
  { label: '按课程类别', value: 'category' },
  { label: '按职称', value: 'title' },
];
const EMPTY_KEY: Record<By, string> = { depart: '未分配部门', category: '未分类', title: '未设置职称' };
const LOADING = '…';
const STAT_CARD = { size: 'small', variant: 'borderless', styles: { body: { padding: '12px 16px' } }, style: { height: '100%', background: '#fafafa' } } as const;

export interface ReportSummaryProps {
  /** frequency: 听课频次; performance: 听课成绩. */
  kind: 'frequency' | 'performance';
  /** The list's current query parameters (the list renderer's `header` passes them): termId, departId. */
  query?: Record<string, unknown>;
  listPath?: string;
  detailPath?: string;
}

/** Loads one report url with the summary's filter; `undefined` while loading. */
function useReport<T>(url: string, filter: Record<string, string>, enabled = true): { data?: T; error?: string } {
  const [state, setState] = useState<{ data?: T; error?: string; key?: string }>({});
  const key = JSON.stringify([url, filter]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState({});
    http
      .get<T>(url, filter)
      .then((r) => live && setState(r.success ? { data: r.result, key } : { error: r.message || '加载失败', key }))
      .catch((e: Error) => live && setState({ error: e.message || '加载失败', key }));
    return () => {
      live = false;
    };
    // `key` covers url and filter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);
  return state;
}

/** One summary figure on its grey card; `children` is a grey note under the figure. */
function StatCard({ title, value, testId, suffix, children }: { title: string; value: number | string; testId: string; suffix?: string; children?: ReactNode }) {
  return (
    <Card {...STAT_CARD} className="stat-card">
      <Statistic title={title} value={value} suffix={suffix} valueRender={(n) => <span data-testid={testId}>{n}</span>} />
      {children && <div style={{ color: 'rgba(0,0,0,.45)' }}>{children}</div>}
    </Card>
  );
}

/** The statistics screens' summary above their lists: cards, charts and (frequency) the by-department table. */
export function ReportSummary({ kind, query = {}, listPath = LIST_PATH, detailPath = DETAIL_PATH }: ReportSummaryProps) {
  const termId = typeof query.termId === 'string' ? query.termId : '';
  const departId = typeof query.departId === 'string' ? query.departId : '';
  const filter = useMemo(() => Object.fromEntries(Object.entries({ termId, departId }).filter(([, v]) => v)), [termId, departId]);
  return kind === 'performance' ? <PerformanceSummary filter={filter} detailPath={detailPath} /> : <FrequencySummary filter={filter} listPath={listPath} />;
}

function FrequencySummary({ filter, listPath }: { filter: Record<string, string>; listPath: string }) {
  const coverage = useReport<Coverage>(`${REPORT}/coverage`, filter);
  const depts = useReport<DepartRow[]>(`${REPORT}/frequencyByDepart`, filter);
  const weekly = useReport<WeekRow[]>(`${REPORT}/weekly`, filter);
  const error = coverage.error ?? depts.error ?? weekly.error;
  if (error) return <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={`统计数据加载失败：${error}`} />;
  return <FrequencyView coverage={coverage.data} depts={depts.data} weekly={weekly.data} filter={filter} listPath={listPath} />;
}

/**
 * A chart's or table's place: the same height while loading, empty or drawn, so the list below never
 * moves under the user's pointer as the summary's parts arrive (they load after the list's rows).
 */
function Slot({ height, loading, empty, children }: { height: number; loading: boolean; empty: boolean; children: () => ReactNode }) {
  return (
    <div style={{ height }}>
      {loading ? <Skeleton active paragraph={{ rows: 5 }} /> : empty ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> : children()}
    </div>
  );
}
/** Height of the summaries' chart and table places (the department table shows DEPT_PAGE rows a page). */
const SLOT_H = 280;
const DEPT_PAGE = 5;
const GRADE_H = 360;

/** 听课频次 summary from its data (each part undefined while loading). */
export function FrequencyView(props: { coverage?: Coverage; depts?: DepartRow[]; weekly?: WeekRow[]; filter?: Record<string, string>; listPath?: string }) {
  const { coverage: cov, depts, weekly, filter = {}, listPath = LIST_PATH } = props;
  const navigate = useNavigate();
  const weekOption = useMemo(() => weeklyOption(weekly ?? []), [weekly]);
  const totals = depts && frequencyTotals(depts);
  const toList = (d: DepartRow) => drillUrl(`${listPath}?departId={departId}`, d as unknown as Record<string, unknown>, filter, ['termId']);
  const num = (v: number, d: DepartRow) =>
    d.departId && v ? (
      <a href={toList(d)} onClick={(e) => (e.preventDefault(), navigate(toList(d)))}>
        {v}
      </a>
    ) : (
      v
    );
  const cols: ColumnsType<DepartRow> = [
    { title: '部门', dataIndex: 'departName', width: 140, ellipsis: true, render: (v: string) => v || '未分配部门' },
    { title: '应听人数', dataIndex: 'headcount', width: 72, align: 'right', render: num },
    { title: '达标人数', dataIndex: 'completed', width: 72, align: 'right', render: num },
    { title: '实听合计', dataIndex: 'actualSum', width: 72, align: 'right', render: num },
    { title: '人均实听', dataIndex: 'average', width: 72, align: 'right' },
    { title: '完成率', dataIndex: 'completionRate', width: 80, align: 'right', render: (v: number) => pct(v) },
  ];
  return (
    <div className="report-summary" data-testid="report-summary" style={{ marginBottom: 16 }}>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={12} lg={6}>
          <StatCard title="被听教师数 / 任课教师数" value={cov ? `${cov.observed} / ${cov.teaching}` : LOADING} testId="stat-coverage">
            覆盖率 <span data-testid="stat-coverage-rate">{cov ? pct(cov.teaching ? cov.rate : null) : LOADING}</span>
          </StatCard>
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="应听人数" value={totals?.headcount ?? LOADING} testId="stat-headcount" suffix="人" />
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="达标人数" value={totals?.completed ?? LOADING} testId="stat-completed" suffix="人" />
        </Col>
        <Col xs={12} lg={6}>
          <StatCard title="完成率" value={totals ? pct(totals.rate) : LOADING} testId="stat-rate" />
        </Col>
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <Card size="small" title="按周分布（实听）" style={{ height: '100%' }}>
            <Slot height={SLOT_H} loading={!weekly} empty={!weekly?.length}>
              {() => <EChart option={weekOption} height={SLOT_H} testId="weekly-chart" />}
            </Slot>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title="按部门" style={{ height: '100%' }}>
            <Slot height={SLOT_H} loading={!depts} empty={false}>
              {() => (
                <Table<DepartRow>
                  rowKey={(r) => r.departId || r.departName}
                  size="small"
                  dataSource={depts}
                  columns={cols}
                  data-testid="dept-table"
                  locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> }}
                  pagination={depts!.length > DEPT_PAGE ? { pageSize: DEPT_PAGE, size: 'small', showSizeChanger: false } : false}
                />
              )}
            </Slot>
          </Card>
        </Col>
      </Row>
    </div>
  );
}

export interface PerfRow {
  count: number;
  avg: number;
}

function PerformanceSummary({ filter, detailPath }: { filter: Record<string, string>; detailPath: string }) {
  const [by, setBy] = useState<By>('depart');
  const labels = useDictOptions('eval_grade').items;
  const perf = useReport<PerfRow[]>(`${REPORT}/performance`, filter);
  const dist = useReport<GradeRow[]>(`${REPORT}/gradeDistribution`, useMemo(() => ({ ...filter, by }), [filter, by]));
  const error = perf.error ?? dist.error;
  if (error) return <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={`统计数据加载失败：${error}`} />;
  return <PerformanceView perf={perf.data} dist={dist.data} labels={labels} by={by} onBy={setBy} filter={filter} detailPath={detailPath} />;
}

/** 听课成绩 summary from its data (each part undefined while loading). */
export function PerformanceView(props: {
  perf?: PerfRow[];
  dist?: GradeRow[];
  labels: GradeLabel[];
  by: By;
  onBy: (b: By) => void;
  filter?: Record<string, string>;
  detailPath?: string;
}) {
  const { perf, dist, labels, by, onBy, filter = {}, detailPath = DETAIL_PATH } = props;
  const navigate = useNavigate();
  const rows = useMemo(() => dist ?? [], [dist]);
  const option = useMemo(() => gradeOption(rows, labels, EMPTY_KEY[by]), [rows, labels, by]);
  const n = (perf ?? []).reduce((a, r) => a + r.count, 0);
  const avg = n ? Math.round(((perf ?? []).reduce((a, r) => a + r.avg * r.count, 0) / n) * 100) / 100 : null;
  const totals = performanceTotals(rows, perf?.length ?? 0, avg);
  // A bar opens the records of that grade (and, by department, of that department).
  const open = (p: ChartClick) => {
    const row = rows[p.dataIndex];
    if (!row || !p.seriesId) return;
    const q: Record<string, unknown> = { ...filter, grade: p.seriesId, ...(by === 'depart' && row.departId ? { departId: row.departId } : {}) };
    navigate(drillUrl(`${detailPath}?side=teacher`, {}, q, ['grade', 'termId', 'departId']));
  };
  return (
    <div className="report-summary" data-testid="report-summary" style={{ marginBottom: 16 }}>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={7}>
          <Row gutter={[12, 12]}>
            <Col xs={12} xl={24}>
              <StatCard title="平均分" value={perf ? (avg ?? '—') : LOADING} testId="stat-avg" />
            </Col>
            <Col xs={12} xl={24}>
              <StatCard title="被听教师数" value={perf ? totals.teachers : LOADING} testId="stat-teachers" suffix="人" />
            </Col>
            <Col xs={12} xl={24}>
              <StatCard title="优秀率" value={dist ? pct(totals.excellentRate) : LOADING} testId="stat-excellent">
                共 {totals.records} 次评价
              </StatCard>
            </Col>
          </Row>
        </Col>
        <Col xs={24} xl={17}>
          <Card
            size="small"
            title="评价等级分布"
            style={{ height: '100%' }}
            extra={<Segmented<By> size="small" options={BY_OPTIONS} value={by} onChange={onBy} data-testid="grade-by" />}
          >
            <Slot height={GRADE_H} loading={!dist} empty={!rows.length}>
              {() => <EChart option={option} height={GRADE_H} onClick={open} testId="grade-chart" />}
            </Slot>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
