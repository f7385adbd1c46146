import { lazy, Suspense } from 'react';
import { registerAction } from '../registry';

const TreeAssign = lazy(() => import('../TreeAssign'));

// Checkable-tree assignment: the tree of `treeUrl`, the keys checked by `checkedUrl`, saved to `saveUrl` with `body` ({checked}, {last}, the row's fields).
registerAction('treeAssign', (a, ctx) => {
  if (!a.treeUrl || !(a.saveUrl ?? a.url)) return;
  const data = { ...ctx.params, ...(ctx.record ?? {}) };
  ctx.openDialog({
    kind: 'bare',
    title: a.title ?? a.label,
    render: (close) => (
      <Suspense fallback={null}>
        <TreeAssign action={a} data={data} onClose={close} />
      </Suspense>
    ),
  });
});
