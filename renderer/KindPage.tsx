import { lazy, Suspense, useEffect, useState } from 'react';
import { Result, Spin } from 'antd';
import { fetchPageSchema, PageSchemaError, peekPageSchema } from './loader';
import type { PageSchema } from '@shared/page-schema';
import { pageKind, type PageKindProps } from './registry';

/*
 * Draws a page schema with the component its kind registered — without registering any kind itself:
 * SchemaPage (renderer/SchemaPage.tsx) registers every kind and action and draws with this; a light entry
 * (app/scan.tsx, the phone's 扫码听课 page) registers only the kind it needs first.
 */

const OnlinePage = lazy(() => import('./OnlinePage'));

/**
 * Draws the page schema `pageId` (GET /schema/page/<id>) with the component its kind registered; a bad
 * schema shows an error page. `params` / `parent` / `embedded`: a region of another page (see PageKindProps).
 * `schema`: draw this schema object instead of fetching one (the page designer's preview of a draft).
 */
export function KindPage({ schema, ...props }: Omit<PageKindProps, 'schema'> & { schema?: PageSchema }) {
  return schema ? <DrawSchema {...props} schema={schema} /> : <FetchedSchemaPage {...props} />;
}

function FetchedSchemaPage({ pageId, params, parent, embedded }: Omit<PageKindProps, 'schema'>) {
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
  return <DrawSchema pageId={pageId} schema={state.schema!} params={params} parent={parent} embedded={embedded} />;
}

function DrawSchema({ pageId, schema: s, params, parent, embedded }: PageKindProps) {
  if (s.online)
    return (
      <Suspense fallback={<Spin />}>
        <OnlinePage key={pageId} pageId={pageId} schema={s} params={params} />
      </Suspense>
    );
  const Kind = pageKind(s.kind);
  if (!Kind) return <Result status="warning" title="页面不存在" subTitle="该页面的类型无法显示，请联系管理员" />;
  return (
    <Suspense fallback={<Spin />}>
      <Kind key={pageId} pageId={pageId} schema={s} params={params} parent={parent} embedded={embedded} />
    </Suspense>
  );
}
