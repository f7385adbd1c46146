import { describe, expect, it } from 'vitest';
import { formatValue } from '@shared/format';

describe('display formats', () => {
  it('shows empty values as empty text in every format', () => {
    for (const f of ['date', 'datetime', 'number', 'percent', 'bytes', 'duration', 'money', undefined] as const) {
      expect(formatValue(undefined, f)).toBe('');
      expect(formatValue(null, f)).toBe('');
      expect(formatValue('', f)).toBe('');
    }
  });
  it('dates and times as written, without a time-zone shift', () => {
    expect(formatValue('2026-10-20 10:00:00', 'date')).toBe('2026-10-20');
    expect(formatValue('2026-10-20T23:30:05.000Z', 'datetime')).toBe('2026-10-20 23:30:05');
    expect(formatValue('2026-10-20 08:15', 'datetime')).toBe('2026-10-20 08:15:00');
    expect(formatValue('2026-10-20', 'datetime')).toBe('2026-10-20');
    expect(formatValue('不是日期', 'date')).toBe('不是日期');
  });
  it('numbers grouped, percent of a ratio, money with two decimals', () => {
    expect(formatValue(1234567.5, 'number')).toBe('1,234,567.5');
    expect(formatValue('42', 'number', { precision: 2 })).toBe('42.00');
    expect(formatValue(0.256, 'percent')).toBe('25.6%');
    expect(formatValue(0.5, 'percent')).toBe('50%');
    expect(formatValue(1, 'percent', { precision: 0 })).toBe('100%');
    expect(formatValue(1234.5, 'money')).toBe('¥1,234.50');
    expect(formatValue('abc', 'number')).toBe('abc');
  });
  it('bytes in 1024 steps', () => {
    expect(formatValue(512, 'bytes')).toBe('512 B');
    expect(formatValue(1536, 'bytes')).toBe('1.5 KB');
    expect(formatValue(1024 * 1024, 'bytes')).toBe('1 MB');
    expect(formatValue(5.25 * 1024 ** 3, 'bytes')).toBe('5.3 GB');
  });
  it('durations of milliseconds: the two largest parts', () => {
    expect(formatValue(350, 'duration')).toBe('350毫秒');
    expect(formatValue(5000, 'duration')).toBe('5秒');
    expect(formatValue(65_000, 'duration')).toBe('1分5秒');
    expect(formatValue(7_200_000, 'duration')).toBe('2小时');
    expect(formatValue(90_061_000, 'duration')).toBe('1天1小时');
  });
});
