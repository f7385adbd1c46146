import { formatValue } from '@shared/format';
import type { DashboardChart, DashboardPanel, DashboardValue } from '@shared/page-schema';
import { evaluate, type Scope } from '@shared/expr';
import { CHART_PALETTES } from '@shared/rules';

/*
 * The pure parts of the dashboard kind (renderer/Dashboard.tsx): reading an answer, templates, value
 * formats, chart options with a rolling history, and the polling loop.
 */

type Row = Record<string, unknown>;

/** The value at a dot path (`a.b.0.c`); the whole value without a path. */
export function pick(obj: unknown, path?: string): unknown {
  if (!path) return obj;
  return path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Row)[k] : undefined), obj);
}

/** An answer's data: the `result` of a JeecgBoot envelope (a failed one throws its message), else the body itself (Actuator-style answers). */
export function unwrap(body: unknown): unknown {
  if (body && typeof body === 'object' && 'success' in body) {
    const e = body as { success: boolean; result?: unknown; message?: string };
    if (!e.success) throw new Error(e.message || '加载失败');
    return e.result;
  }
  return body;
}

const PART = /\{\{([\s\S]+?)\}\}/g;

/**
 * A template: `{{ expression }}` parts evaluated over the scope (renderer/expr.ts). A template that is one
 * expression gives its value as is; otherwise the parts are joined as text. A bad part shows as ''.
 */
export function fillTemplate(tpl: unknown, scope: Scope): unknown {
  if (typeof tpl !== 'string' || !tpl.includes('{{')) return tpl;
  const one = /^\s*\{\{([\s\S]+?)\}\}\s*$/.exec(tpl);
  const run = (src: string) => {
    try {
      return evaluate(src, scope);
    } catch (err) {
      console.warn('页面配置表达式有误', src, (err as Error).message);
      return undefined;
    }
  };
  if (one && !one[1]!.includes('}}')) return run(one[1]!);
  return tpl.replace(PART, (_, src: string) => {
    const v = run(src);
    return v === undefined || v === null ? '' : String(v);
  });
}

export const textOf = (tpl: unknown, scope: Scope): string => {
  const v = fillTemplate(tpl, scope);
  return v === undefined || v === null ? '' : String(v);
};

/** The raw value of a panel value: its `field` in the data, else its `value` template. */
export function rawValue(v: DashboardValue, data: unknown, scope: Scope): unknown {
  const raw = v.field !== undefined ? pick(data, v.field) : fillTemplate(v.value, scope);
  return v.scale !== undefined && raw !== null && raw !== undefined && raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) * v.scale : raw;
}

/** A raw value as text in the value's format (with its suffix); dictionaries give texts of codes. */
export function formatted(v: DashboardValue, raw: unknown, dictText?: (code: string, value: unknown) => string): string {
  if (raw === undefined || raw === null || raw === '') return '';
  const text = v.dict && dictText ? dictText(v.dict, raw) : formatValue(raw, v.format, { precision: v.precision });
  return v.suffix ? `${text}${v.suffix}` : text;
}

/** Grid columns of a panel: one column on phones unless `xs` is given. */
export function spanProps(span: DashboardPanel['span']): Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl', number>> {
  if (span === undefined) return { xs: 24 };
  if (typeof span === 'number') return { xs: 24, lg: span };
  return { xs: 24, ...span };
}

/** The request key of a panel: panels with the same url and params share one request. */
export const sourceKey = (url: string, params: Row) => `${url}?${JSON.stringify(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)))}`;

/** A chart's rolling history: sample times and one list of values per series. */
export interface History {
  t: string[];
  v: number[][];
}

const num = (x: unknown, scale = 1) => {
  const n = Number(x);
  return x === null || x === undefined || x === '' || !Number.isFinite(n) ? 0 : Math.round(n * scale * 1000) / 1000;
};

/** Adds a sample of the data (one value per series, at time `at`) and keeps the last `chart.history`. */
export function addSample(h: History, chart: DashboardChart, data: unknown, at: Date): History {
  const t = [...h.t, at.toTimeString().slice(0, 8)];
  const v = chart.series.map((s, i) => [...(h.v[i] ?? []), num(pick(data, s.field), s.scale)]);
  const n = Math.max(1, chart.history ?? 60);
  return t.length > n ? { t: t.slice(-n), v: v.map((x) => x.slice(-n)) } : { t, v };
}

/** A series' colour: its own, else the chart palette's colour for its field (one colour per grade everywhere). */
const colorOf = (chart: DashboardChart, s: DashboardChart['series'][number]) => s.color ?? (chart.palette ? CHART_PALETTES[chart.palette]?.[s.field] : undefined);

/** The echarts option of a chart panel over its data (rows, or an object) or its history. */
export function chartOption(chart: DashboardChart, data: unknown, history?: History): Record<string, unknown> {
  const base = { animationDuration: 500, tooltip: { trigger: chart.type === 'pie' || chart.type === 'gauge' ? 'item' : 'axis' } };
  if (chart.type === 'gauge') {
    const s = chart.series[0]!;
    return {
      ...base,
      series: [
        {
          type: 'gauge',
          max: chart.max ?? 100,
          radius: '90%',
          progress: { show: true, width: 12 },
          axisLine: { lineStyle: { width: 12 } },
          pointer: { show: false },
          axisTick: { show: false },
          splitLine: { length: 8, distance: -12 },
          axisLabel: { distance: 16, fontSize: 10 },
          title: { offsetCenter: [0, '70%'], fontSize: 12 },
          detail: { valueAnimation: true, formatter: `{value}${chart.unit ?? ''}`, fontSize: 22, offsetCenter: [0, 0] },
          data: [{ name: s.name, value: Math.round(num(pick(data, s.field), s.scale) * 10) / 10 }],
        },
      ],
    };
  }
  if (chart.type === 'pie') {
    const slices = Array.isArray(data)
      ? (data as Row[]).map((r) => ({ name: String(pick(r, chart.x) || chart.emptyX || ''), value: num(pick(r, chart.series[0]!.field), chart.series[0]!.scale) }))
      : chart.series.map((s) => ({ name: s.name, value: num(pick(data, s.field), s.scale), itemStyle: colorOf(chart, s) ? { color: colorOf(chart, s) } : undefined }));
    return { ...base, legend: { top: 0, type: 'scroll' }, series: [{ type: 'pie', radius: ['40%', '70%'], top: 24, data: slices, label: { formatter: '{b}: {c}' } }] };
  }
  const rows = Array.isArray(data) ? (data as Row[]) : [];
  const categories = history ? history.t : rows.map((r) => String(pick(r, chart.x) || chart.emptyX || ''));
  const series = chart.series.map((s, i) => {
    const type = s.type ?? chart.type;
    return {
      name: s.name,
      type: type === 'area' ? 'line' : type,
      ...(type === 'area' ? { areaStyle: { opacity: 0.25 } } : {}),
      // A history's first sample is a dot (a line needs two).
      ...(type !== 'bar' ? { smooth: true, showSymbol: !history || history.t.length < 2 } : { barMaxWidth: 22 }),
      ...(chart.stack ? { stack: 'total' } : {}),
      ...(colorOf(chart, s) ? { itemStyle: { color: colorOf(chart, s) } } : {}),
      data: history ? (history.v[i] ?? []) : rows.map((r) => num(pick(r, s.field), s.scale)),
    };
  });
  const cat = { type: 'category', data: categories, boundaryGap: chart.type === 'bar' && !history, ...(chart.horizontal ? { inverse: true } : {}) };
  const val = { type: 'value', minInterval: history ? undefined : 1, name: chart.unit };
  return {
    ...base,
    ...(chart.type === 'bar' ? { tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } } } : {}),
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 24, top: 40, bottom: 8, containLabel: true },
    xAxis: chart.horizontal ? val : cat,
    yAxis: chart.horizontal ? cat : val,
    series,
  };
}
