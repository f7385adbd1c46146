import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { BizError } from '../../http/envelope.js';

/**
 * Quartz-style cron (second minute hour day month week [year]) as the cron builder writes it,
 * validated with the bounds of SPEC §5 and run with cron-parser. Quartz numbers weekdays 1–7 from
 * Sunday; cron-parser 0–6, so weekday numbers are shifted before parsing.
 */
interface FieldSpec {
  title: string;
  min: number;
  max: number;
  stepMax: number;
  names?: string[];
}

const FIELDS: FieldSpec[] = [
  { title: '秒', min: 0, max: 59, stepMax: 59 },
  { title: '分', min: 0, max: 59, stepMax: 60 },
  { title: '时', min: 0, max: 23, stepMax: 23 },
  { title: '日', min: 1, max: 31, stepMax: 31 },
  { title: '月', min: 1, max: 12, stepMax: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { title: '周', min: 1, max: 7, stepMax: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
  { title: '年', min: 2019, max: 2119, stepMax: 99 },
];

/** Minimum time between two firings: a job every second would flood the run history. */
export const MIN_INTERVAL_MS = 5_000;

const bad = (msg: string) => new BizError(`Cron表达式不正确：${msg}`);

function num(spec: FieldSpec, s: string, pos: number): number {
  const upper = s.toUpperCase();
  const named = spec.names?.indexOf(upper) ?? -1;
  if (named >= 0) return named + 1;
  if (!/^\d{1,4}$/.test(s)) throw bad(`第${pos}位（${spec.title}）的值“${s}”无效`);
  const n = Number(s);
  if (n < spec.min || n > spec.max) throw bad(`第${pos}位（${spec.title}）的值${n}超出范围${spec.min}-${spec.max}`);
  return n;
}

/** Checks one field's comma-separated items; returns the field with weekday numbers shifted for cron-parser. */
function checkField(i: number, raw: string): string {
  const spec = FIELDS[i]!;
  const pos = i + 1;
  if (raw === '?') {
    if (i !== 3 && i !== 5) throw bad(`“?”只能用于日或周`);
    return raw;
  }
  const items = raw.split(',');
  const out: string[] = [];
  for (const item of items) {
    if (item === '') throw bad(`第${pos}位（${spec.title}）有空值`);
    if (i === 3 && (item === 'L' || item === 'LW' || /^L-\d{1,2}$/.test(item))) {
      if (item === 'LW') throw bad('暂不支持“LW”（月末最近工作日）');
      if (item.startsWith('L-')) throw bad('暂不支持“L-n”（月末前n天）');
      out.push(item);
      continue;
    }
    if (i === 3 && /W$/.test(item)) throw bad('暂不支持“W”（最近工作日）');
    if (i === 5) {
      const nth = /^([A-Za-z]{3}|\d)#(\d)$/.exec(item);
      if (nth) {
        const d = num(spec, nth[1]!, pos);
        const n = Number(nth[2]);
        if (n < 1 || n > 5) throw bad(`第${pos}位（${spec.title}）的第几周${n}超出范围1-5`);
        out.push(`${d - 1}#${n}`);
        continue;
      }
      const last = /^([A-Za-z]{3}|\d)L$/.exec(item);
      if (last) {
        out.push(`${num(spec, last[1]!, pos) - 1}L`);
        continue;
      }
    }
    const m = /^(\*|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d{1,3}))?$/.exec(item);
    if (!m) throw bad(`第${pos}位（${spec.title}）的值“${item}”无效`);
    const [, range, step] = m;
    if (step !== undefined) {
      const s = Number(step);
      if (s < 1 || s > spec.stepMax) throw bad(`第${pos}位（${spec.title}）的间隔${s}超出范围1-${spec.stepMax}`);
    }
    let shifted = range!;
    if (range !== '*') {
      const [a, b] = range!.split('-');
      const lo = num(spec, a!, pos);
      const hi = b === undefined ? undefined : num(spec, b, pos);
      if (hi !== undefined && hi < lo) throw bad(`第${pos}位（${spec.title}）的范围${lo}-${hi}起始大于结束`);
      if (i === 5) shifted = hi === undefined ? String(lo - 1) : `${lo - 1}-${hi - 1}`;
      else if (spec.names) shifted = hi === undefined ? String(lo) : `${lo}-${hi}`;
    }
    out.push(step !== undefined ? `${shifted}/${step}` : shifted);
  }
  return out.join(',');
}

export interface ParsedCron {
  expr: CronExpression;
  years?: (y: number) => boolean;
}

function yearMatcher(raw: string): (y: number) => boolean {
  if (raw === '*' || raw === '?') return () => true;
  const spec = FIELDS[6]!;
  const tests: Array<(y: number) => boolean> = [];
  for (const item of raw.split(',')) {
    const m = /^(\*|\d{4}(?:-\d{4})?)(?:\/(\d{1,3}))?$/.exec(item);
    if (!m) throw bad(`第7位（年）的值“${item}”无效`);
    const step = m[2] === undefined ? undefined : Number(m[2]);
    if (step !== undefined && (step < 1 || step > spec.stepMax)) throw bad(`第7位（年）的间隔${step}超出范围1-${spec.stepMax}`);
    const [a, b] = m[1] === '*' ? [spec.min, spec.max] : m[1]!.split('-').map((x) => num(spec, x, 7));
    const lo = a!;
    const hi = b ?? (step !== undefined ? spec.max : lo);
    if (hi < lo) throw bad(`第7位（年）的范围${lo}-${hi}起始大于结束`);
    tests.push((y) => y >= lo && y <= hi && (y - lo) % (step ?? 1) === 0);
  }
  return (y) => tests.some((t) => t(y));
}

/** Validates a Quartz cron expression; throws a BizError with a Chinese message naming the field. */
export function parseCron(expression: unknown, tz?: string): ParsedCron {
  if (typeof expression !== 'string' || !expression.trim()) throw bad('不能为空');
  if (expression.length > 200) throw bad('过长');
  const parts = expression.trim().split(/\s+/);
  if (parts.length < 6 || parts.length > 7) throw bad('应为6或7位（秒 分 时 日 月 周 [年]）');
  const fields = parts.slice(0, 6).map((p, i) => checkField(i, p));
  if (fields[3] !== '?' && fields[5] !== '?' && fields[3] !== '*' && fields[5] !== '*') throw bad('日和周不能同时指定，其中一个须为“?”');
  const years = parts[6] !== undefined ? yearMatcher(parts[6]) : undefined;
  let expr: CronExpression;
  try {
    expr = CronExpressionParser.parse(fields.join(' '), { tz, strict: false });
  } catch (e) {
    throw bad((e as Error).message);
  }
  return { expr, years };
}

/** The next firing times after `from` (at most `count`), honouring the year field. */
export function nextRuns(cron: ParsedCron, from: Date, count: number): Date[] {
  const out: Date[] = [];
  cron.expr.reset(from);
  for (let guard = 0; out.length < count && guard < 2000; guard++) {
    if (!cron.expr.hasNext()) break;
    const d = cron.expr.next().toDate();
    if (cron.years && !cron.years(d.getFullYear())) {
      if (d.getFullYear() > FIELDS[6]!.max) break;
      continue;
    }
    out.push(d);
  }
  return out;
}

/** Full validation for saving a job: syntax, bounds, a future firing and the minimum interval. */
export function validateCron(expression: unknown, tz?: string): ParsedCron {
  const cron = parseCron(expression, tz);
  const runs = nextRuns(cron, new Date(), 3);
  if (!runs.length) throw bad('该表达式今后不会再触发');
  for (let i = 1; i < runs.length; i++)
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < MIN_INTERVAL_MS) throw bad(`执行间隔不能小于${MIN_INTERVAL_MS / 1000}秒`);
  return cron;
}
