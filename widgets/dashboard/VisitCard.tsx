import { lazy, Suspense } from 'react';
import { Card } from 'antd';

// The chart lives with the monitoring pages (echarts): loaded only when the card is drawn.
const VisitChart = lazy(() => import('./VisitChart').then((m) => ({ default: m.VisitChart })));

/** The home page's 7-day visits card, shared by the welcome page and the term dashboard. */
export function VisitCard() {
  return (
    <Card variant="borderless" title="最近一周访问量">
      <Suspense fallback={null}>
        <VisitChart />
      </Suspense>
    </Card>
  );
}
