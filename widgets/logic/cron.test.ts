import { describe, expect, it } from 'vitest';
import { changePart, CRON_BOUNDS, defaultModel, formatCron, formatPart, parseCron, parsePart, previewRuns, toParserExpression, YEAR_CHOICES } from './cron';

describe('cron model', () => {
  it('round-trips every mode', () => {
    for (const e of ['0/5 * * * * ? *', '1-10 2,4,6 0-23 ? * 2#3 *', '0 0 1 L * ? *', '0 0 1 LW * ? 2020-2030', '0 0 1 15W * ? *', '0 0 1 L-3 * ? *', '0 0 1 ? * 6L 2024', '0 0 12 ? 1/2 2-6 2019/5'])
      expect(formatCron(parseCron(e))).toBe(e);
  });

  it('parses parts into choices', () => {
    expect(parsePart('second', '3/7')).toMatchObject({ mode: 'loop', loopStart: 3, loopInterval: 7 });
    expect(parsePart('week', '2#3')).toMatchObject({ mode: 'nth', weekday: 2, nth: 3 });
    expect(parsePart('day', '?').mode).toBe('unset');
    expect(parsePart('minute', '5,1,3')).toMatchObject({ mode: 'specify', specify: [5, 1, 3] });
  });

  it('clamps to the SPEC bounds', () => {
    const base = parsePart('second', '*');
    expect(formatPart('second', { ...base, mode: 'loop', loopStart: 99, loopInterval: 0 })).toBe('59/1');
    expect(formatPart('second', { ...base, mode: 'range', rangeStart: 0, rangeEnd: 70 })).toBe('1-59');
    expect(formatPart('minute', { ...base, mode: 'loop', loopStart: 0, loopInterval: 60 })).toBe('0/60');
    expect(formatPart('week', { ...parsePart('week', '?'), mode: 'nth', weekday: 9, nth: 9 })).toBe('7#5');
    expect(formatPart('month', { ...base, mode: 'range', rangeStart: 0, rangeEnd: 13 })).toBe('1-12');
    expect(formatPart('year', { ...base, mode: 'range', rangeStart: 1900, rangeEnd: 3000 })).toBe('2019-2119');
    expect(CRON_BOUNDS.year.loopInterval).toEqual({ min: 1, max: 99 });
    expect(YEAR_CHOICES).toHaveLength(100);
    expect(YEAR_CHOICES[0]).toBe(2019);
  });

  it('cascades defaults', () => {
    let m = parseCron('* * * * * ? *');
    m = changePart(m, 'minute', parsePart('minute', '5'));
    expect(formatCron(m)).toBe('0 5 * * * ? *');
    m = changePart(parseCron('* * * * * ? *'), 'hour', parsePart('hour', '3'));
    expect(formatCron(m)).toBe('* 0 3 * * ? *');
    m = changePart(parseCron('* * * * * ? *'), 'day', parsePart('day', '2'));
    expect(formatCron(m)).toBe('* * 0 2 * ? *');
    m = changePart(parseCron('* * * ? * * *'), 'month', parsePart('month', '2'));
    expect(formatCron(m)).toBe('* * * ? 2 1 *');
    m = changePart(parseCron('* * * * * ? *'), 'month', parsePart('month', '2'));
    expect(formatCron(m)).toBe('* * * 1 2 ? *');
    m = changePart(parseCron('* * * * * ? *'), 'year', parsePart('year', '2030'));
    expect(formatCron(m)).toBe('* * * * 1 ? 2030');
  });

  it('day and week exclude each other', () => {
    let m = changePart(parseCron('0 0 0 5 * ? *'), 'week', parsePart('week', '2'));
    expect(formatCron(m)).toBe('0 0 0 ? * 2 *');
    m = changePart(m, 'day', parsePart('day', 'L'));
    expect(formatCron(m)).toBe('0 0 0 L * ? *');
    expect(formatCron(defaultModel())).toBe('* * * * * ?'); // an unset year is omitted (Quartz has no ? there)
    expect(formatCron(parseCron('0 0 12 * * ? 2030'))).toBe('0 0 12 * * ? 2030');
  });

  it('previews the next 10 runs, year ignored, Quartz weekdays', () => {
    expect(toParserExpression('0 0 8 ? * 2-6/1 2030')).toBe('0 0 8 * * 1-5/1');
    const from = new Date(2026, 0, 1, 0, 0, 0); // Thursday
    const runs = previewRuns('0 30 8 ? * 2 *', 10, from);
    expect(runs).toHaveLength(10);
    expect(runs[0]).toBe('2026-01-05 08:30:00'); // the first Monday
    expect(runs[1]).toBe('2026-01-12 08:30:00');
    expect(() => previewRuns('bad')).toThrow('Cron表达式格式不正确');
  });
});
