import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Result, Spin } from 'antd';
import { useAtomValue } from 'jotai';
import { API_BASE } from '@core/http/client';
import { tokenAtom } from '@core/session/store';
import { IFRAME_COMPONENT, onlineKind, resolveUrlPlaceholders, type RouteDef } from '@core/menu';
import { hasPageSchema, knownPageSchema } from '@renderer/loader';
import { lazyModule } from '@core/ui/moduleLoader';
import { loadRenderer } from '@app/boot';
import '@app/screens';

type Lazy = LazyExoticComponent<ComponentType<any>>;

// The renderer is a lazy chunk (Formily, ag-grid and charts load later, only where used). Most screens
// are schema pages, so it starts downloading with the main layout, while the shell waits for the
// menu; the page-schema loader is tiny and static, so a route asks for its schema at once.
// Once downloaded, the renderer is used directly: no Suspense round (a fallback render) on first use.
const SchemaPage = lazy(() => lazyModule(loadRenderer, (m) => m.SchemaPage));
void loadRenderer().catch(() => undefined);

/** Built-in pages of app/pages by menu `component` (second in the resolution order of DESIGN §2). */
export const BUILTIN_PAGES: Record<string, Lazy> = {
  'exception/403': lazy(() => import('@app/pages/exception/Exception403')),
  'exception/404': lazy(() => import('@app/pages/exception/Exception404')),
  'exception/500': lazy(() => import('@app/pages/exception/Exception500')),
};

/**
 * Menu components that name another page schema: JeecgBoot 3.4's view names of the settings panels (menu rows
 * under /account/settings) open 个人设置, whose `layout: "nav"` picks the panel from the URL's last segment.
 */
const SCHEMA_ALIASES: Record<string, string> = Object.fromEntries(
  ['BaseSetting', 'Security', 'Custom', 'Binding', 'Notification'].map((v) => [`account/settings/${v}`, 'account/settings/Index']),
);

/** A menu entry whose screen does not exist (yet): no internal names (component paths) are shown. */
export const NoSuchPage = () => <Result status="404" title="页面不存在" subTitle="该功能暂未提供，请联系管理员" />;

const Spinner = () => (
  <div className="page-spin">
    <Spin />
  </div>
);

function IframePage({ url }: { url: string }) {
  const token = useAtomValue(tokenAtom);
  const src = resolveUrlPlaceholders(url, { domianURL: window.location.origin + API_BASE, token, ACCESS_TOKEN: token });
  return <iframe title="iframe" src={src} style={{ width: '100%', height: 'calc(100vh - 200px)', border: 0, background: '#fff' }} />;
}

function ExternalPage({ url }: { url: string }) {
  return (
    <Result status="info" title="外部链接" subTitle="该页面已在新窗口打开" extra={<a href={url} target="_blank" rel="noopener noreferrer">{url}</a>} />
  );
}

function Schema({ pageId }: { pageId: string }) {
  return (
    <Suspense fallback={<Spinner />}>
      <SchemaPage pageId={pageId} />
    </Suspense>
  );
}

/** A screen by `component`: page schema → built-in page → online list → 页面不存在. */
export function ComponentPage({ component: named }: { component: string }) {
  const component = SCHEMA_ALIASES[named] ?? named;
  // Known at once when the lookup started before the layout rendered (core/session/prefetch.ts).
  const [hasSchema, setHasSchema] = useState<boolean | undefined>(() => knownPageSchema(component));
  useEffect(() => {
    if (hasSchema !== undefined) return;
    let live = true;
    void hasPageSchema(component).then((v) => {
      if (live) setHasSchema(v);
    });
    return () => {
      live = false;
    };
  }, [component, hasSchema]);
  if (hasSchema === undefined) return <Spinner />;
  if (hasSchema) return <Schema pageId={component} />;
  const Builtin = BUILTIN_PAGES[component];
  if (Builtin)
    return (
      <Suspense fallback={<Spinner />}>
        <Builtin />
      </Suspense>
    );
  const kind = onlineKind(component);
  if (kind) return <Schema pageId={`online/${kind}`} />;
  return <NoSuchPage />;
}

export function RouteElement({ def }: { def: RouteDef }) {
  if (def.pageId) return <Schema pageId={def.pageId} />;
  if (def.component === IFRAME_COMPONENT && def.url) return <IframePage url={def.url} />;
  if (def.external && def.url) return <ExternalPage url={def.url} />;
  if (def.component) return <ComponentPage component={def.component.replace(/^\/+/, '')} />;
  return <NoSuchPage />;
}
