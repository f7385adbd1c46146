import { useEffect, useRef } from 'react';

type ChartLike = { dispose(): void; resize(): void; setOption(o: unknown, notMerge?: boolean): void; on(ev: string, cb: (p: ChartClick) => void): void };
export interface ChartClick {
  seriesId?: string;
  seriesName?: string;
  dataIndex: number;
  name: string;
}

/** An echarts chart on a div: echarts is imported on first use, the chart resized with the window and disposed on unmount. */
export function EChart({ option, height, onClick, testId }: { option: object; height: number; onClick?: (p: ChartClick) => void; testId?: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartLike>();
  const click = useRef(onClick);
  click.current = onClick;
  // The latest option: it may change while echarts is still downloading.
  const latest = useRef(option);
  latest.current = option;
  useEffect(() => {
    let disposed = false;
    const onResize = () => chart.current?.resize();
    void import('@core/ui/echarts').then((echarts) => {
      if (disposed || !el.current) return;
      const c = echarts.init(el.current) as unknown as ChartLike;
      chart.current = c;
      c.setOption(latest.current, true);
      c.on('click', (p) => click.current?.(p));
      window.addEventListener('resize', onResize);
    });
    return () => {
      disposed = true;
      window.removeEventListener('resize', onResize);
      chart.current?.dispose();
      chart.current = undefined;
    };
    // The chart is created once; option changes are applied below.
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
    chart.current?.resize();
  }, [option, height]);
  return <div ref={el} data-testid={testId} style={{ height, width: '100%', cursor: onClick ? 'pointer' : undefined }} />;
}
