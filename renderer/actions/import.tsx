import { lazy, Suspense } from 'react';
import { urlsOf } from '@shared/urls';
import { registerAction } from '../registry';

const ImportModal = lazy(() => import('../ImportModal'));

// 导入: an Excel file to the page's importExcel url (bad rows come back as a downloadable report).
registerAction('import', (a, ctx) => {
  const url = a.url ?? urlsOf(ctx.schema).importExcel;
  if (!url) return;
  ctx.openDialog({
    kind: 'bare',
    title: a.label,
    render: (close) => (
      <Suspense fallback={null}>
        <ImportModal url={url} accept={a.accept} onClose={() => close(false)} onDone={() => close(true)} />
      </Suspense>
    ),
  });
});
