import { lazy, Suspense, useEffect, useState } from 'react';
import { Result, Spin } from 'antd';
import { fetchPageSchema, PageSchemaError, peekPageSchema } from './loader';
import { ListPage } from './ListPage';
import type { PageSchema } from '../shared/page-schema';

export { hasPageSchema } from './loader';

const FormPage = lazy(() => import('./FormPage'));
const StaticPages = lazy(() => import('./StaticPages'));
const OnlinePage = lazy(() => import('./OnlinePage'));

/** Draws the page schema `pageId` (GET /schema/page/<id>); a bad schema shows an error page. */
export function SchemaPage({ pageId }: { pageId: string }) {
  // A schema that has already arrived (e.g. requested at boot) is drawn in the first render.
  const [state, setState] = useState<{ id: string; schema?: PageSchema; error?: PageSchemaError }>(() => ({ id: pageId, schema: peekPageSchema(pageId) }));
  useEffect(() => {
    let live = true;
    fetchPageSchema(pageId).then(
      (schema) => live && setState((s) => (s.id === pageId && s.schema === schema ? s : { id: pageId, schema })),
      (error: unknown) => live && setState({ id: pageId, error: error instanceof PageSchemaError ? error : new PageSchemaError(String((error as Error)?.message ?? error)) }),
    );
    return () => {
      live = false;
    };
  }, [pageId]);

  if (state.id !== pageId || (!state.schema && !state.error))
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  if (state.error)
    return (
      <Result
        status="error"
        title="页面配置有误"
        subTitle={state.error.problems.length ? `${pageId}：请修正下列问题后刷新页面` : state.error.message}
        extra={
          state.error.problems.length > 0 && (
            <ul style={{ textAlign: 'left', display: 'inline-block' }} className="schema-problems">
              {state.error.problems.map((p, i) => (
                <li key={i}>
                  {p.file} <code>{p.path}</code>：{p.reason}
                </li>
              ))}
            </ul>
          )
        }
      />
    );
  const s = state.schema!;
  if (s.online)
    return (
      <Suspense fallback={<Spin />}>
        <OnlinePage key={pageId} pageId={pageId} schema={s} />
      </Suspense>
    );
  switch (s.kind) {
    case 'list':
    case 'master-detail':
    case 'tree-list':
      return <ListPage key={pageId} pageId={pageId} schema={s} />;
    case 'form':
      return (
        <Suspense fallback={<Spin />}>
          <FormPage key={pageId} schema={s} />
        </Suspense>
      );
    default:
      return (
        <Suspense fallback={<Spin />}>
          <StaticPages key={pageId} schema={s} />
        </Suspense>
      );
  }
}
