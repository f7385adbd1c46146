import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Progress, Row, Skeleton, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import { menuAtom, userInfoAtom } from '@core/session/store';
import { searchableEntries } from '@core/menu';
import { useDictOptions } from '../dict/useDictOptions';
import { EChart } from '../statistics/Chart';
import { GRADE_COLORS, GRADE_ORDER } from '../statistics/options';
import { VisitCard } from './VisitCard';
import { IMP_STATUS_COLOR, RECORD_STATUS } from '@shared/rules';

export interface DashboardSummary {
  term: null | { id: string; name: string; startDate: string; weekCount: number; week: number };
  mine?: { required: number; actual: number; rate: number | null; met: boolean | null };
  department?: Array<{ departName: string; headcount: number; completed: number; actualSum: number; average: number; completionRate: number }>;
  scoreDistribution?: Array<Record<string, number | string>>;
  recent?: Array<{ id: string; recordNo: string; teacherName: string; listenerName: string; courseName: string; lectureDate: string; totalScore: number | null; grade: string | null; status: string }>;
  overdueTasks?: Array<{ id: string; taskNo: string; title: string; deadline: string; status: string }>;
}

// Tag colours of the seeded dictionaries (dictionary items carry no colour on the wire).
const STATUS_COLORS: Record<string, string> = { ...Object.fromEntries(Object.entries(RECORD_STATUS).map(([k, [, c]]) => [k, c])), ...IMP_STATUS_COLOR };
const RECORDS_PATH = '/supervisor/lectureRecord';
const TASKS_PATH = '/improvement/task';

const pct = (r: number | null | undefined) => (r === null || r === undefined ? '—' : `${Math.round(r * 1000) / 10}%`);

/** Grades per department as a stacked bar chart (every grade band in the legend); echarts is loaded only when there is something to draw. */
export function ScoreChart({ rows, gradeText }: { rows: Array<Record<string, number | string>>; gradeText: (g: string) => string }) {
  const option = useMemo(
    () => ({
      animationDuration: 500,
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0 },
      grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: rows.map((r) => String(r.key || '未分配部门')), inverse: true },
      series: GRADE_ORDER.map((g) => ({
        name: gradeText(g),
        type: 'bar',
        stack: 'grade',
        barMaxWidth: 22,
        itemStyle: { color: GRADE_COLORS[g] },
        data: rows.map((r) => Number(r[g] ?? 0)),
      })),
    }),
    [rows, gradeText],
  );
  if (rows.length === 0) return <Empty description="本学期暂无评价数据" />;
  return <EChart option={option} height={Math.max(260, rows.length * 34 + 60)} testId="score-chart" />;
}

/** The home tab: the current term at a glance for the signed-in user's role (GET /supervisor/dashboard/summary). */
export function TermDashboard({ url = '/supervisor/dashboard/summary' }: { url?: string }) {
  const [data, setData] = useState<DashboardSummary | undefined>();
  const [error, setError] = useState<string | undefined>();
  const user = useAtomValue(userInfoAtom);
  const menu = useAtomValue(menuAtom);
  const nav = useNavigate();
  const grades = useDictOptions('eval_grade').items;
  const recStatus = useDictOptions('record_status').items;
  const taskStatus = useDictOptions('rect_status').items;
  const paths = useMemo(() => new Set(searchableEntries(menu ?? []).map((n) => n.path)), [menu]);
  const gradeText = useMemo(() => (g: string) => grades.find((d) => d.value === g)?.text ?? g, [grades]);

  useEffect(() => {
    void http.get<DashboardSummary>(url).then((r) => (r.success ? setData(r.result) : setError(r.message || '加载失败')));
  }, [url]);

  if (error) return <Alert type="error" showIcon message="首页数据加载失败" description={error} />;
  if (!data) return <Card variant="borderless"><Skeleton active paragraph={{ rows: 8 }} /></Card>;
  if (!data.term)
    return (
      <Card variant="borderless">
        <Empty description="尚未设置当前学期，请先在“学期管理”中设置当前学期" />
      </Card>
    );

  const { term, mine, department = [], scoreDistribution = [], recent = [], overdueTasks = [] } = data;
  const showDept = department.length > 0 || scoreDistribution.length > 0;
  const totalGraded = scoreDistribution.reduce((s, r) => s + Number(r.total ?? 0), 0);
  const link = (path: string, text = '查看全部') =>
    paths.has(path) ? (
      <Button type="link" size="small" onClick={() => nav(path)}>
        {text}
      </Button>
    ) : null;
  const tag = (items: Array<{ value: string; text: string }>, v: string | null, colors: Record<string, string> = STATUS_COLORS) =>
    v ? (
      <Tag color={colors[v] ?? 'default'} bordered={false}>
        {items.find((x) => x.value === v)?.text ?? v}
      </Tag>
    ) : (
      ''
    );

  const recentCols: ColumnsType<NonNullable<DashboardSummary['recent']>[number]> = [
    { title: '听课日期', dataIndex: 'lectureDate', width: 110 },
    { title: '课程', dataIndex: 'courseName', ellipsis: true },
    { title: '授课教师', dataIndex: 'teacherName', width: 100 },
    { title: '听课人', dataIndex: 'listenerName', width: 100 },
    { title: '总分', dataIndex: 'totalScore', width: 70, align: 'right', render: (v: number | null) => (v === null ? '' : v) },
    { title: '等级', dataIndex: 'grade', width: 80, render: (v: string | null) => tag(grades, v, GRADE_COLORS) },
    { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => tag(recStatus, v) },
  ];
  const taskCols: ColumnsType<NonNullable<DashboardSummary['overdueTasks']>[number]> = [
    { title: '任务编号', dataIndex: 'taskNo', width: 150 },
    { title: '整改任务', dataIndex: 'title', ellipsis: true },
    { title: '截止日期', dataIndex: 'deadline', width: 110, render: (v: string) => <Typography.Text type="danger">{v}</Typography.Text> },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: string) => tag(taskStatus, v) },
  ];
  const deptCols: ColumnsType<(typeof department)[number]> = [
    { title: '部门', dataIndex: 'departName', ellipsis: true },
    { title: '应完成', dataIndex: 'headcount', width: 72, align: 'right' },
    { title: '已完成', dataIndex: 'completed', width: 72, align: 'right' },
    { title: '人均听课', dataIndex: 'average', width: 84, align: 'right' },
    { title: '完成率', dataIndex: 'completionRate', width: 150, render: (v: number) => <Progress percent={Math.round(v * 1000) / 10} size="small" /> },
  ];
  const heads = department.reduce((a, d) => a + d.headcount, 0);
  const completed = department.reduce((a, d) => a + d.completed, 0);
  const weekPercent = Math.round((term.week / Math.max(1, term.weekCount)) * 100);

  return (
    <div className="term-dashboard" data-testid="term-dashboard">
      <Card variant="borderless" style={{ marginBottom: 16 }}>
        <Row align="middle" gutter={24}>
          <Col flex="auto">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user?.realname ?? user?.username ?? ''}，您好！
            </Typography.Title>
            <Typography.Text type="secondary">
              {term.name} · 第 <span data-testid="dash-week">{term.week}</span> 周（共 {term.weekCount} 周）
              {user?.orgCodeTxt ? ` · ${user.orgCodeTxt}` : ''}
            </Typography.Text>
          </Col>
          <Col flex="280px">
            <Typography.Text type="secondary">学期进度</Typography.Text>
            <Progress percent={weekPercent} showInfo />
          </Col>
        </Row>
      </Card>

      <Row gutter={[16, 16]}>
        <Col xs={12} xl={6}>
          <Card variant="borderless">
            <Statistic title="本学期应听（次）" value={mine?.required ?? 0} valueRender={(n) => <span data-testid="dash-required">{n}</span>} />
          </Card>
        </Col>
        <Col xs={12} xl={6}>
          <Card variant="borderless">
            <Statistic title="已完成听课（次）" value={mine?.actual ?? 0} valueRender={(n) => <span data-testid="dash-actual">{n}</span>} />
          </Card>
        </Col>
        <Col xs={12} xl={6}>
          <Card variant="borderless">
            <Statistic
              title="我的完成率"
              value={pct(mine?.rate)}
              valueStyle={{ color: mine?.met ? '#52c41a' : undefined }}
              valueRender={(n) => <span data-testid="dash-rate">{n}</span>}
              suffix={mine?.met === null || mine?.met === undefined ? undefined : <Tag color={mine.met ? 'green' : 'orange'}>{mine.met ? '已达标' : '未达标'}</Tag>}
            />
          </Card>
        </Col>
        <Col xs={12} xl={6}>
          <Card variant="borderless">
            <Statistic
              title="逾期整改任务"
              value={overdueTasks.length}
              valueStyle={{ color: overdueTasks.length ? '#f5222d' : undefined }}
              valueRender={(n) => <span data-testid="dash-overdue">{n}</span>}
            />
          </Card>
        </Col>

        {showDept && (
          <>
            <Col xs={24} xl={12}>
              <Card variant="borderless" title={`评价等级分布（共 ${totalGraded} 次评价）`} style={{ height: '100%' }}>
                <ScoreChart rows={scoreDistribution} gradeText={gradeText} />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card variant="borderless" title={`部门听课完成情况（达标 ${completed}/${heads} 人）`} extra={link('/statistics/frequency', '听课统计')} style={{ height: '100%' }}>
                <Table rowKey="departName" size="small" dataSource={department} columns={deptCols} pagination={department.length > 8 ? { pageSize: 8, size: 'small' } : false} data-testid="dash-departments" />
              </Card>
            </Col>
          </>
        )}

        <Col xs={24} xl={showDept ? 14 : 16}>
          <Card variant="borderless" title="最近听课记录" extra={link(RECORDS_PATH)} style={{ height: '100%' }}>
            <Table
              rowKey="id"
              size="small"
              dataSource={recent}
              columns={recentCols}
              pagination={false}
              locale={{ emptyText: '本学期暂无听课记录' }}
              data-testid="dash-recent"
              onRow={() => (paths.has(RECORDS_PATH) ? { onClick: () => nav(RECORDS_PATH), style: { cursor: 'pointer' } } : {})}
            />
          </Card>
        </Col>
        <Col xs={24} xl={showDept ? 10 : 8}>
          <Card variant="borderless" title="逾期整改任务" extra={link(TASKS_PATH)} style={{ height: '100%' }}>
            <Table
              rowKey="id"
              size="small"
              dataSource={overdueTasks}
              columns={taskCols}
              pagination={false}
              locale={{ emptyText: '暂无逾期的整改任务' }}
              data-testid="dash-overdue-list"
            />
          </Card>
        </Col>
        <Col xs={24}>
          <VisitCard />
        </Col>
      </Row>
    </div>
  );
}
