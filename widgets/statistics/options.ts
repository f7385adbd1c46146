/** Pure data → summary/chart-option builders of the statistics screens (unit-tested; no echarts import). */
import { CHART_PALETTES } from '@shared/rules';

export interface WeekRow {
  week: number;
  count: number;
  online: number;
  offline: number;
}
export interface DepartRow {
  departName: string;
  departId?: string;
  headcount: number;
  completed: number;
  actualSum: number;
  average: number;
  completionRate: number;
}
export interface Coverage {
  teaching: number;
  observed: number;
  rate: number;
}
export type GradeRow = Record<string, number | string> & { key: string; total: number };
export interface GradeLabel {
  value: string;
  text: string;
}

/** A 0–1 rate as a percentage with one decimal ("—" when absent). */
export const pct = (r: number | null | undefined) => (r === null || r === undefined || !Number.isFinite(r) ? '—' : `${Math.round(r * 1000) / 10}%`);

/** Totals of the frequency screen's cards: 应听人数 = Σheadcount, 达标人数 = Σcompleted, 完成率 = 达标/应听. */
export function frequencyTotals(depts: DepartRow[]) {
  const headcount = depts.reduce((a, d) => a + d.headcount, 0);
  const completed = depts.reduce((a, d) => a + d.completed, 0);
  const actual = depts.reduce((a, d) => a + d.actualSum, 0);
  return { headcount, completed, actual, rate: headcount ? completed / headcount : null };
}

/** 按周分布: weeks 1..max (gaps filled with 0), offline and online stacked, the total as a line. */
export function weeklyOption(rows: WeekRow[]) {
  const last = rows.reduce((m, r) => Math.max(m, r.week), 0);
  const byWeek = new Map(rows.map((r) => [r.week, r]));
  const weeks = Array.from({ length: last }, (_, i) => i + 1);
  const val = (w: number, k: 'offline' | 'online' | 'count') => byWeek.get(w)?.[k] ?? 0;
  return {
    animationDuration: 400,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, data: ['线下', '线上', '合计'] },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: weeks.map((w) => `第${w}周`) },
    yAxis: { type: 'value', minInterval: 1, name: '实听（次）' },
    series: [
      { name: '线下', type: 'bar', stack: 'mode', barMaxWidth: 28, itemStyle: { color: '#1677ff' }, data: weeks.map((w) => val(w, 'offline')) },
      { name: '线上', type: 'bar', stack: 'mode', barMaxWidth: 28, itemStyle: { color: '#13c2c2' }, data: weeks.map((w) => val(w, 'online')) },
      { name: '合计', type: 'line', smooth: true, symbolSize: 5, itemStyle: { color: '#fa8c16' }, data: weeks.map((w) => val(w, 'count')) },
    ],
  };
}

/** The grade bands, best first, and their chart colours (statistics screens and the home page's chart). */
export const GRADE_ORDER = ['EXCELLENT', 'GOOD', 'MEDIUM', 'PASS', 'FAIL'];
export const GRADE_COLORS: Record<string, string> = CHART_PALETTES.grade!;
const NON_GRADE = new Set(['key', 'total', 'departId']);

/** The grade codes present in the rows, in the dictionary's order (then any others). */
export function gradesOf(rows: GradeRow[], labels: GradeLabel[]): string[] {
  const present = new Set(rows.flatMap((r) => Object.keys(r).filter((k) => !NON_GRADE.has(k))));
  const order = [...labels.map((l) => l.value), ...GRADE_ORDER];
  const known = [...new Set(order)].filter((g) => present.has(g));
  return [...known, ...[...present].filter((g) => !known.includes(g)).sort()];
}

/** 等级分布: one horizontal stacked bar per group, one series per grade band (labels from the dictionary). */
export function gradeOption(rows: GradeRow[], labels: GradeLabel[], emptyKey = '未分类') {
  const text = (g: string) => labels.find((l) => l.value === g)?.text ?? g;
  const grades = gradesOf(rows, labels);
  return {
    animationDuration: 400,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => String(r.key || emptyKey)) },
    series: grades.map((g) => ({
      name: text(g),
      // The grade code rides along so a click can drill down by grade.
      id: g,
      type: 'bar',
      stack: 'grade',
      barMaxWidth: 22,
      itemStyle: GRADE_COLORS[g] ? { color: GRADE_COLORS[g] } : undefined,
      data: rows.map((r) => Number(r[g] ?? 0)),
    })),
  };
}

/** Cards of the performance screen from its rows: 平均分 (of all records), 被听教师数, 优秀率 (share of records graded EXCELLENT). */
export function performanceTotals(rows: GradeRow[], teachers: number, avg: number | null) {
  const total = rows.reduce((a, r) => a + Number(r.total ?? 0), 0);
  const excellent = rows.reduce((a, r) => a + Number(r.EXCELLENT ?? 0), 0);
  return { records: total, teachers, avg, excellentRate: total ? excellent / total : null };
}
