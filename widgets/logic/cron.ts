import { CronExpressionParser } from 'cron-parser';
import dayjs from 'dayjs';

/**
 * Quartz cron model of the cron builder (SPEC §3–§5): seven parts
 * `second minute hour day month week year`; week uses 1 = Sunday … 7 = Saturday.
 */
export type CronField = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'week' | 'year';
export const CRON_FIELDS: CronField[] = ['second', 'minute', 'hour', 'day', 'month', 'week', 'year'];

/** every `*`, unset `?`, range `a-b`, loop `a/b`, specify `a,b`, workday `nW`, lastWorkday `LW`,
 * last `L` (day: last day; week: `nL` last given weekday), daysBeforeEom `L-n`, nth `d#n`. */
export type CronMode = 'every' | 'unset' | 'range' | 'loop' | 'specify' | 'workday' | 'lastWorkday' | 'last' | 'daysBeforeEom' | 'nth';

export interface CronPart {
  mode: CronMode;
  rangeStart: number;
  rangeEnd: number;
  loopStart: number;
  loopInterval: number;
  specify: number[];
  /** day: nearest weekday of; week: weekday for `nL` and `d#n`. */
  weekday: number;
  /** day: days before month end; week: nth occurrence. */
  nth: number;
}

export type CronModel = Record<CronField, CronPart>;

interface Bound {
  min: number;
  max: number;
}
export interface FieldBounds {
  loopInterval: Bound;
  loopStart: Bound;
  rangeStart: Bound;
  rangeEnd: Bound;
  specify: Bound;
  weekday?: Bound;
  nth?: Bound;
  modes: CronMode[];
}

const thisYear = () => new Date().getFullYear();

/** SPEC §5 bounds, verbatim. */
export const CRON_BOUNDS: Record<CronField, FieldBounds> = {
  second: { loopInterval: { min: 1, max: 59 }, loopStart: { min: 0, max: 59 }, rangeStart: { min: 1, max: 59 }, rangeEnd: { min: 0, max: 59 }, specify: { min: 0, max: 59 }, modes: ['every', 'range', 'loop', 'specify'] },
  minute: { loopInterval: { min: 1, max: 60 }, loopStart: { min: 0, max: 59 }, rangeStart: { min: 1, max: 60 }, rangeEnd: { min: 0, max: 59 }, specify: { min: 0, max: 59 }, modes: ['every', 'range', 'loop', 'specify'] },
  hour: { loopInterval: { min: 0, max: 23 }, loopStart: { min: 0, max: 23 }, rangeStart: { min: 0, max: 23 }, rangeEnd: { min: 0, max: 23 }, specify: { min: 0, max: 23 }, modes: ['every', 'range', 'loop', 'specify'] },
  day: { loopInterval: { min: 1, max: 31 }, loopStart: { min: 1, max: 31 }, rangeStart: { min: 1, max: 31 }, rangeEnd: { min: 1, max: 31 }, specify: { min: 1, max: 31 }, weekday: { min: 1, max: 31 }, nth: { min: 1, max: 31 }, modes: ['every', 'unset', 'range', 'loop', 'specify', 'workday', 'lastWorkday', 'last', 'daysBeforeEom'] },
  month: { loopInterval: { min: 0, max: 12 }, loopStart: { min: 0, max: 12 }, rangeStart: { min: 1, max: 12 }, rangeEnd: { min: 1, max: 12 }, specify: { min: 1, max: 12 }, modes: ['every', 'range', 'loop', 'specify'] },
  week: { loopInterval: { min: 1, max: 7 }, loopStart: { min: 1, max: 7 }, rangeStart: { min: 1, max: 7 }, rangeEnd: { min: 1, max: 7 }, specify: { min: 1, max: 7 }, weekday: { min: 1, max: 7 }, nth: { min: 1, max: 5 }, modes: ['every', 'unset', 'range', 'loop', 'specify', 'last', 'nth'] },
  year: { loopInterval: { min: 1, max: 99 }, loopStart: { min: 2019, max: 2119 }, rangeStart: { min: 2019, max: 2119 }, rangeEnd: { min: 2019, max: 2119 }, specify: { min: 2019, max: 2118 }, modes: ['every', 'unset', 'range', 'loop', 'specify'] },
};

/** The specific-year list: 100 years from 2019. */
export const YEAR_CHOICES = Array.from({ length: 100 }, (_, i) => 2019 + i);

export const clamp = (n: number, b: Bound) => Math.min(b.max, Math.max(b.min, Math.trunc(Number.isFinite(n) ? n : b.min)));

export function defaultPart(field: CronField): CronPart {
  const b = CRON_BOUNDS[field];
  const y = thisYear();
  return {
    mode: field === 'week' || field === 'year' ? 'unset' : 'every',
    rangeStart: field === 'year' ? y : field === 'hour' ? 0 : b.rangeStart.min,
    rangeEnd: field === 'year' ? Math.min(y + 100, b.rangeEnd.max) : field === 'hour' ? 23 : b.rangeEnd.min === 0 ? 2 : Math.max(b.rangeStart.min + 1, 2),
    loopStart: field === 'year' ? y : b.loopStart.min,
    loopInterval: field === 'hour' ? 1 : Math.max(b.loopInterval.min, 1),
    specify: [],
    weekday: b.weekday?.min ?? 1,
    nth: b.nth?.min ?? 1,
  };
}

export function defaultModel(): CronModel {
  return Object.fromEntries(CRON_FIELDS.map((f) => [f, defaultPart(f)])) as CronModel;
}

/** The default expression of a new value. */
export const DEFAULT_CRON = '* * * * * ? *';

export function formatPart(field: CronField, p: CronPart): string {
  const b = CRON_BOUNDS[field];
  switch (p.mode) {
    case 'every':
      return '*';
    case 'unset':
      return '?';
    case 'range':
      return `${clamp(p.rangeStart, b.rangeStart)}-${clamp(p.rangeEnd, b.rangeEnd)}`;
    case 'loop':
      return `${clamp(p.loopStart, b.loopStart)}/${clamp(p.loopInterval, b.loopInterval)}`;
    case 'specify': {
      const list = [...new Set(p.specify.map((n) => clamp(n, b.specify)))].sort((a, c) => a - c);
      return list.length ? list.join(',') : String(b.specify.min);
    }
    case 'workday':
      return `${clamp(p.weekday, b.weekday ?? b.specify)}W`;
    case 'lastWorkday':
      return 'LW';
    case 'last':
      return field === 'week' ? `${clamp(p.weekday, b.weekday!)}L` : 'L';
    case 'daysBeforeEom':
      return `L-${clamp(p.nth, b.nth!)}`;
    case 'nth':
      return `${clamp(p.weekday, b.weekday!)}#${clamp(p.nth, b.nth!)}`;
  }
}

/** Parses one field back into a choice; unknown text falls back to the field's default. */
export function parsePart(field: CronField, text: string | undefined): CronPart {
  const p = defaultPart(field);
  const t = (text ?? '').trim().toUpperCase();
  const int = (s: string | undefined) => Number.parseInt(s ?? '', 10);
  let m: RegExpMatchArray | null;
  if (t === '') return p;
  if (t === '*') return { ...p, mode: 'every' };
  if (t === '?') return { ...p, mode: 'unset' };
  if (field === 'day' && t === 'LW') return { ...p, mode: 'lastWorkday' };
  if (field === 'day' && t === 'L') return { ...p, mode: 'last' };
  if (field === 'day' && (m = t.match(/^L-(\d+)$/))) return { ...p, mode: 'daysBeforeEom', nth: int(m[1]) };
  if (field === 'day' && (m = t.match(/^(\d+)W$/))) return { ...p, mode: 'workday', weekday: int(m[1]) };
  if (field === 'week' && (m = t.match(/^(\d)L$/))) return { ...p, mode: 'last', weekday: int(m[1]) };
  if (field === 'week' && (m = t.match(/^(\d)#(\d)$/))) return { ...p, mode: 'nth', weekday: int(m[1]), nth: int(m[2]) };
  if ((m = t.match(/^(\d+)-(\d+)$/))) return { ...p, mode: 'range', rangeStart: int(m[1]), rangeEnd: int(m[2]) };
  if ((m = t.match(/^(\d+|\*)\/(\d+)$/))) return { ...p, mode: 'loop', loopStart: m[1] === '*' ? CRON_BOUNDS[field].loopStart.min : int(m[1]), loopInterval: int(m[2]) };
  if (/^\d+(,\d+)*$/.test(t)) return { ...p, mode: 'specify', specify: t.split(',').map(int) };
  return p;
}

export function parseCron(expr: string | undefined): CronModel {
  const parts = (expr || DEFAULT_CRON).trim().split(/\s+/);
  return Object.fromEntries(CRON_FIELDS.map((f, i) => [f, parsePart(f, parts[i])])) as CronModel;
}

/** Quartz has no `?` for the year: a year left unset is simply omitted (a six-part expression). */
export function formatCron(model: CronModel): string {
  const fields = model.year.mode === 'unset' ? CRON_FIELDS.slice(0, 6) : CRON_FIELDS;
  return fields.map((f) => formatPart(f, model[f])).join(' ');
}

const isSet = (p: CronPart) => p.mode !== 'every' && p.mode !== 'unset';

/**
 * Applies a change of one part with the cascading defaults and the day/week exclusion of SPEC §4.
 * Returns a new model.
 */
export function changePart(model: CronModel, field: CronField, part: CronPart): CronModel {
  const next: CronModel = { ...model, [field]: part };
  const setEvery0 = (f: CronField, value = 0) => {
    if (next[f].mode === 'every') next[f] = { ...next[f], mode: 'specify', specify: [value] };
  };
  if (field === 'minute' && isSet(part)) setEvery0('second');
  if (field === 'hour' && isSet(part)) setEvery0('minute');
  if ((field === 'day' || field === 'week') && isSet(part)) setEvery0('hour');
  if (field === 'year' && isSet(part)) setEvery0('month', 1);
  if (field === 'month' && isSet(part)) {
    if (next.day.mode === 'unset' && next.week.mode === 'every') next.week = { ...next.week, mode: 'specify', specify: [1] };
    else if (next.week.mode === 'unset' && next.day.mode === 'every') next.day = { ...next.day, mode: 'specify', specify: [1] };
  }
  // Day of month and day of week exclude each other.
  if (field === 'day' && part.mode !== 'unset') next.week = { ...next.week, mode: 'unset' };
  if (field === 'week' && part.mode !== 'unset') next.day = { ...next.day, mode: 'unset' };
  return next;
}

export const PREVIEW_COUNT = 10;
export const PREVIEW_DEBOUNCE_MS = 500;

/** Quartz → cron-parser (6 fields, year ignored, week 1=Sunday → 0=Sunday). */
export function toParserExpression(expr: string): string {
  const parts = expr.trim().split(/\s+/).slice(0, 6);
  if (parts.length < 6) throw new Error('Cron表达式格式不正确');
  const week = parts[5]!;
  parts[5] = week.replace(/\d+/g, (d, offset: number, s: string) => (s[offset - 1] === '#' || s[offset - 1] === '/' ? d : String((Number(d) + 6) % 7)));
  // cron-parser has no `?`; it means "no constraint" here.
  return parts.map((p) => (p === '?' ? '*' : p)).join(' ');
}

/** The next `count` run times, formatted; throws with a Chinese message on an invalid expression. */
export function previewRuns(expr: string, count = PREVIEW_COUNT, from: Date = new Date()): string[] {
  let it;
  try {
    it = CronExpressionParser.parse(toParserExpression(expr), { currentDate: from });
  } catch {
    throw new Error('Cron表达式格式不正确');
  }
  const out: string[] = [];
  for (let i = 0; i < count && it.hasNext(); i++) out.push(dayjs(it.next().toDate()).format('YYYY-MM-DD HH:mm:ss'));
  return out;
}
