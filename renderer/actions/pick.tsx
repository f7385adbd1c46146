import { lazy, Suspense } from 'react';
import { registerAction } from '../registry';

const PickDialog = lazy(() => import('../PickDialog'));

// Pick-then-post (添加已有…): rows picked from a list go to `url` as `{ids}` with the parent's fields (`body`).
registerAction('pick', (a, ctx) => {
  if (!a.url) return;
  const data = { ...ctx.params, ...(ctx.record ?? {}) };
  ctx.openDialog({
    kind: 'bare',
    title: a.title ?? a.label,
    render: (close) => (
      <Suspense fallback={null}>
        <PickDialog action={a} data={data} onClose={close} />
      </Suspense>
    ),
  });
});
