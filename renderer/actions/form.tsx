import { lazy, Suspense } from 'react';
import { registerAction } from '../registry';

const ActionForm = lazy(() => import('../ActionForm'));

// A small form in a dialog (`fields`, initial `values`); its values with the row id (`idField`) and `body` go to `url` (`{field}` from the row and the page's bound parameters).
registerAction('form', (a, ctx) => {
  if (!a.url) return;
  const data = { ...ctx.params, ...(ctx.record ?? {}) };
  ctx.openDialog({
    kind: 'bare',
    title: a.title ?? a.label,
    render: (close) => (
      <Suspense fallback={null}>
        <ActionForm action={a} record={ctx.record} data={data} rowKey={ctx.rowKey} onClose={close} />
      </Suspense>
    ),
  });
});
