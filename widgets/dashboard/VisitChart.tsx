import { useEffect, useMemo, useState } from 'react';
import { http } from '@core/http/client';
import { EChart } from '@widgets/statistics/Chart';

/** 7-day login chart of the home page (/sys/visitInfo): a dashboard `widget` panel (schemas/pages/dashboard/Analysis.json). */
export function VisitChart() {
  const [rows, setRows] = useState<Array<{ visit: number; ip: number; type: string }>>([]);
  useEffect(() => {
    void http.get('/sys/visitInfo').then((r) => r.success && setRows(r.result as typeof rows));
  }, []);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, data: ['访问次数', '访问IP'] },
      grid: { left: 40, right: 20, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: rows.map((x) => x.type) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '访问次数', type: 'bar', data: rows.map((x) => x.visit) },
        { name: '访问IP', type: 'line', data: rows.map((x) => x.ip) },
      ],
    }),
    [rows],
  );
  return <EChart option={option} height={280} testId="visit-chart" />;
}
