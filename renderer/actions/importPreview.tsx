import { lazy, Suspense } from 'react';
import { registerAction } from '../registry';

const ImportPreview = lazy(() => import('../ImportPreview'));

// Two-step import: files to `preview` (nothing written), its summary and rows, then the same files to `commit`.
registerAction('importPreview', (a, ctx) => {
  if (!a.preview || !a.commit) return;
  const data = { ...ctx.params, ...(ctx.record ?? {}) };
  ctx.openDialog({
    kind: 'bare',
    title: a.title ?? a.label,
    render: (close) => (
      <Suspense fallback={null}>
        <ImportPreview action={a} data={data} onClose={close} />
      </Suspense>
    ),
  });
});
