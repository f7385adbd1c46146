import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addSample, chartOption, fillTemplate, formatted, pick, rawValue, sourceKey, spanProps, unwrap, type History } from '@renderer/dashboard-data';
import { startPolling } from '@renderer/polling';
import { evaluate } from '@shared/expr';
import type { DashboardChart } from '@shared/page-schema';

describe('dashboard data', () => {
  it('reads an envelope, a failed envelope and a bare (Actuator) answer', () => {
    expect(unwrap({ success: true, result: { a: 1 } })).toEqual({ a: 1 });
    expect(() => unwrap({ success: false, message: '无权限' })).toThrow('无权限');
    expect(unwrap({ traces: [1] })).toEqual({ traces: [1] });
    expect(pick({ a: { b: [{ c: 3 }] } }, 'a.b.0.c')).toBe(3);
    expect(pick({ a: 1 }, 'x.y')).toBeUndefined();
  });

  it('fills templates: one expression keeps its value, mixed parts become text', () => {
    const scope = { $data: { n: 3, rows: [{ t: 2 }, { t: 5 }], o: { '2xx': 4, '5xx': 1 } }, $user: { realname: '张三' } };
    expect(fillTemplate('{{ $data.n }}', scope)).toBe(3);
    expect(fillTemplate('{{ $user.realname }}，您好！第 {{ $data.n + 1 }} 周', scope)).toBe('张三，您好！第 4 周');
    expect(fillTemplate('共 {{ sum($data.rows, "t") }} 次', scope)).toBe('共 7 次');
    expect(fillTemplate("{{ join($data.o, ' · ') }}", scope)).toBe('2xx 4 · 5xx 1');
    expect(fillTemplate('{{ nope( }}', scope)).toBeUndefined();
    expect(fillTemplate('plain', scope)).toBe('plain');
    expect(evaluate("fmt(0.256, 'percent')", {})).toBe('25.6%');
    expect(evaluate('round(12.345, 1)', {})).toBe(12.3);
  });

  it('formats values: field or template, scale, format, suffix, dictionary', () => {
    const data = { up: 90061, ratio: 0.5, size: 1536 };
    expect(formatted({ format: 'duration' }, rawValue({ field: 'up', scale: 1000 }, data, {}))).toBe('1天1小时');
    expect(formatted({ format: 'percent' }, rawValue({ field: 'ratio' }, data, {}))).toBe('50%');
    expect(formatted({ format: 'bytes', suffix: '（已用）' }, data.size)).toBe('1.5 KB（已用）');
    expect(formatted({ dict: 'g' }, 'A', (code, v) => `${code}:${String(v)}`)).toBe('g:A');
    expect(formatted({ format: 'number' }, null)).toBe('');
    expect(rawValue({ value: '{{ $data.ratio * 2 }}' }, data, { $data: data })).toBe(1);
  });

  it('spans one column on phones and shares a request between panels with the same url and params', () => {
    expect(spanProps(undefined)).toEqual({ xs: 24 });
    expect(spanProps(6)).toEqual({ xs: 24, lg: 6 });
    expect(spanProps({ sm: 12, xl: 6 })).toEqual({ xs: 24, sm: 12, xl: 6 });
    expect(sourceKey('/a', { b: 1, a: 2 })).toBe(sourceKey('/a', { a: 2, b: 1 }));
    expect(sourceKey('/a', { a: 1 })).not.toBe(sourceKey('/a', { a: 2 }));
  });

  it('keeps the last N samples of a rolling history', () => {
    const chart: DashboardChart = { type: 'line', history: 3, series: [{ name: 'cpu', field: 'cpu', scale: 100 }, { name: 'p99', field: 'lat.p99' }] };
    let h: History = { t: [], v: [] };
    for (let i = 1; i <= 5; i++) h = addSample(h, chart, { cpu: i / 10, lat: { p99: i } }, new Date(2026, 0, 1, 8, 0, i));
    expect(h.t).toEqual(['08:00:03', '08:00:04', '08:00:05']);
    expect(h.v).toEqual([[30, 40, 50], [3, 4, 5]]);
    const o = chartOption(chart, {}, h) as { xAxis: { data: string[] }; series: Array<{ data: number[]; type: string }> };
    expect(o.xAxis.data).toEqual(h.t);
    expect(o.series[0]).toMatchObject({ type: 'line', data: [30, 40, 50] });
  });

  it('builds bar (stacked, horizontal), area, pie and gauge options from rows or an object', () => {
    const rows = [{ key: '', A: 1, B: 2 }, { key: '数学系', A: 3, B: 0 }];
    const bar = chartOption({ type: 'bar', horizontal: true, stack: true, x: 'key', emptyX: '未分配', series: [{ name: 'A', field: 'A', color: '#f00' }, { name: 'B', field: 'B' }] }, rows) as any;
    expect(bar.yAxis).toMatchObject({ type: 'category', data: ['未分配', '数学系'] });
    expect(bar.xAxis.type).toBe('value');
    expect(bar.series[0]).toMatchObject({ type: 'bar', stack: 'total', data: [1, 3], itemStyle: { color: '#f00' } });
    const area = chartOption({ type: 'area', x: 'key', series: [{ name: 'A', field: 'A' }] }, rows) as any;
    expect(area.series[0]).toMatchObject({ type: 'line', areaStyle: {} });
    const pie = chartOption({ type: 'pie', series: [{ name: '2xx', field: 's.2xx' }, { name: '5xx', field: 's.5xx' }] }, { s: { '2xx': 9, '5xx': 1 } }) as any;
    expect(pie.series[0].data).toEqual([{ name: '2xx', value: 9, itemStyle: undefined }, { name: '5xx', value: 1, itemStyle: undefined }]);
    const gauge = chartOption({ type: 'gauge', unit: '%', series: [{ name: 'CPU', field: 'cpu', scale: 100 }] }, { cpu: 0.42 }) as any;
    expect(gauge.series[0]).toMatchObject({ type: 'gauge', max: 100, data: [{ name: 'CPU', value: 42 }] });
  });
});

describe('polling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const fakeDoc = () => {
    const listeners = new Set<() => void>();
    const doc = {
      hidden: false,
      addEventListener: (_: string, f: () => void) => listeners.add(f),
      removeEventListener: (_: string, f: () => void) => listeners.delete(f),
      set: (hidden: boolean) => {
        doc.hidden = hidden;
        listeners.forEach((f) => f());
      },
      listeners,
    };
    return doc;
  };

  it('ticks every interval after the previous call has finished, never two at once', async () => {
    const doc = fakeDoc();
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const tick = () => {
      calls++;
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<void>((r) => setTimeout(() => (inFlight--, r()), 3000)); // slower than the interval
    };
    const stop = startPolling(tick, 1000, doc as never);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(3999); // the answer at 4000, the next call 1000 later
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(most).toBe(1);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(2);
    expect(doc.listeners.size).toBe(0);
  });

  it('pauses while the page is hidden and ticks at once when it shows again', async () => {
    const doc = fakeDoc();
    const tick = vi.fn(async () => undefined);
    const stop = startPolling(tick, 1000, doc as never);
    doc.set(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(tick).not.toHaveBeenCalled();
    doc.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(tick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(tick).toHaveBeenCalledTimes(2);
    stop();
  });

  it('goes on after a failed call', async () => {
    const doc = fakeDoc();
    const tick = vi.fn().mockRejectedValueOnce(new Error('x')).mockResolvedValue(undefined);
    const stop = startPolling(tick, 1000, doc as never);
    await vi.advanceTimersByTimeAsync(2000);
    expect(tick).toHaveBeenCalledTimes(2);
    stop();
  });
});
