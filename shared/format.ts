/**
 * Display formats of a value (detail and dashboard fields, issue 26): pure functions, one per format.
 * Empty values (undefined, null, '') show as ''.
 */
export type DisplayFormat = 'text' | 'date' | 'datetime' | 'number' | 'percent' | 'bytes' | 'duration' | 'money';

export interface FormatOptions {
  /** Decimals of number / percent / money (number: as given; percent 1; money 2). */
  precision?: number;
}

const empty = (v: unknown) => v === undefined || v === null || v === '';
const num = (v: unknown) => (typeof v === 'number' ? v : Number(String(v).trim()));
const grouped = (n: number, precision?: number) =>
  n.toLocaleString('en-US', precision === undefined ? { maximumFractionDigits: 20 } : { minimumFractionDigits: precision, maximumFractionDigits: precision });

/** `2026-10-20T10:00:00.000Z`, `2026-10-20 10:00:00` → `2026-10-20` (date) / `2026-10-20 10:00:00` (datetime), as written (no time zone shift). */
function dateText(v: unknown, withTime: boolean): string {
  const s = String(v).trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?/.exec(s);
  if (!m) return s;
  if (!withTime || !m[2]) return m[1]!;
  return `${m[1]} ${m[2].length === 5 ? `${m[2]}:00` : m[2]}`;
}

/** Bytes in B / KB / MB / GB / TB (1024 steps, one decimal past B). */
function bytesText(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let i = 0;
  let x = Math.abs(n);
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${n < 0 ? '-' : ''}${i ? x.toFixed(1).replace(/\.0$/, '') : String(x)} ${units[i]}`;
}

/** Milliseconds as 天 / 小时 / 分 / 秒 (the two largest parts), under a second as 毫秒. */
function durationText(ms: number): string {
  if (Math.abs(ms) < 1000) return `${Math.round(ms)}毫秒`;
  const parts: Array<[number, string]> = [
    [86_400_000, '天'],
    [3_600_000, '小时'],
    [60_000, '分'],
    [1000, '秒'],
  ];
  let rest = Math.round(Math.abs(ms));
  const out: string[] = [];
  for (const [unit, name] of parts) {
    const n = Math.floor(rest / unit);
    rest -= n * unit;
    if (n || out.length) out.push(`${n}${name}`);
  }
  // The two largest parts, without a trailing zero part ("2小时", not "2小时0分").
  const shown = out.slice(0, 2).filter((p, i) => i === 0 || !/^0\D/.test(p));
  return `${ms < 0 ? '-' : ''}${shown.join('')}`;
}

/** A value as text in the given format; a value the format cannot read is shown as it is. */
export function formatValue(v: unknown, format: DisplayFormat | undefined, opts: FormatOptions = {}): string {
  if (empty(v)) return '';
  switch (format) {
    case 'date':
    case 'datetime':
      return dateText(v, format === 'datetime');
    case 'number':
    case 'percent':
    case 'bytes':
    case 'duration':
    case 'money': {
      const n = num(v);
      if (!Number.isFinite(n)) return String(v);
      if (format === 'number') return grouped(n, opts.precision);
      if (format === 'percent') return `${(n * 100).toFixed(opts.precision ?? 1).replace(/\.0+$/, '')}%`;
      if (format === 'bytes') return bytesText(n);
      if (format === 'duration') return durationText(n);
      return `¥${grouped(n, opts.precision ?? 2)}`;
    }
    default:
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}
