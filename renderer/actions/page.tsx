import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { registerAction } from '../registry';

const Region = lazy(() => import('../Region'));

/** `{field}` placeholders of a text, filled from the row (not encoded). */
const fillText = (text: string, record?: Record<string, unknown>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(record?.[k] ?? ''));

// A page schema in a drawer for the row: a region whose `params` ("{field}") are bound from the row (e.g. a job's 执行记录).
registerAction('page', (a, ctx) => {
  if (!a.page) return;
  const region = { page: a.page, params: a.params };
  ctx.openDialog({
    kind: 'drawer',
    title: fillText(a.title ?? a.label, ctx.record),
    width: a.width ?? 900,
    render: () => (
      <Suspense fallback={<Spin />}>
        <Region region={region} parent={ctx.record} />
      </Suspense>
    ),
  });
});
