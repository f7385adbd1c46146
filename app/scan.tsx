/*
 * The light entry of 扫码听课 (/lecture/scan, a classroom's QR code opened on a phone): scan.html, built
 * beside index.html (`scanEntry` in vite.config.ts) and sent by the server for a direct visit to that path
 * (server/app.ts). It draws the SAME page schema (lecture/Scan, from the route answer the HTML asked for
 * while it loaded: core/session/early-requests.ts) with the same renderer kind and widget as the main
 * shell, without the shell: no menu, header, tabs, notices or socket, and none of their code — on a slow
 * phone that is about half the bytes and most of the main thread's work before the form can be used
 * (docs/decisions.md, "Light entry for 扫码听课"). Any other path it is sent to (a button to 我的听课记录)
 * is loaded in full by the main shell. In-app visits (今日听课 → 开始听课) stay in the main shell.
 */
import { getDefaultStore, useAtomValue } from 'jotai';
import { installHttpErrorHandling } from '@core/http/errors';
import { tokenAtom } from '@core/session/store';
import { loginRedirectUrl } from '@core/session/actions';
import { installWarmer, startBootPrefetch } from '@core/session/prefetch';
import { registerOfflineShell } from '@core/offline/shell';
import 'virtual:antd-static.css';
import './app.css';
import './scan.css';
import { lazy, StrictMode, Suspense, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntApp, Button, Result } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import dayjs from 'dayjs';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { settingsAtom } from '@core/settings';
import { appTheme, ThemedConfigProvider, withBuiltMapToken } from '@core/theme';
import builtMapToken from 'virtual:antd-map-token';
import { setFeedback } from '@core/feedback';
import { PageSpin } from '@core/ui/PageSpin';
import { ErrorBoundary } from '@core/ui/ErrorBoundary';
import { fetchPageSchema } from '@renderer/loader';
import { KindPage } from '@renderer/KindPage';
import { pageKind } from '@renderer/registry';
// The kind a one-widget page is drawn by, and this page's widget (registered lazily in widgets/index.ts):
// imported here, they are in this entry's files, which its HTML names — no second round of downloads
// once the schema has named the widget. Any other kind loads the whole renderer (below).
import '@renderer/kinds/dashboard';
import '@widgets/domain/LectureMobile';
import { preloadWidget } from '@widgets/registry';
import type { PageSchema } from '@shared/page-schema';

dayjs.locale('zh-cn');
installHttpErrorHandling();
installWarmer(() => import('@renderer/warm'));

const { pathname, search } = window.location;
const signedIn = !!getDefaultStore().get(tokenAtom);
/** The page this path leads to for this user, with its schema (the route answer: asked by the HTML, else now). */
const page: Promise<{ pageId: string; schema: PageSchema }> | undefined = signedIn
  ? startBootPrefetch(pathname, search).then(async (pageId) => {
      if (!pageId) throw new Error('route');
      const schema = await fetchPageSchema(pageId);
      // The widget's lazy registration settles at once (its module is here): drawn in the first render, no Suspense round.
      if (schema.widget) await preloadWidget(schema.widget);
      return { pageId, schema };
    })
  : undefined;
/** The page once known: usually before React has loaded, so the first render draws it (no spinner committed first). */
let known: { pageId: string; schema: PageSchema } | undefined;
page?.then((p) => (known = p)).catch(() => undefined);

/** Any schema the light entry has no kind for: the whole renderer (every kind and action), loaded now. */
const SchemaPage = lazy(() => import('@renderer/index').then((m) => ({ default: m.SchemaPage })));

function ScanPage() {
  const [state, setState] = useState<{ pageId: string; schema: PageSchema } | 'error' | undefined>(known);
  useEffect(() => {
    let live = true;
    page!.then(
      (p) => live && setState(p),
      () => live && setState('error'),
    );
    return () => {
      live = false;
    };
  }, []);
  // The offline shell (public/sw.js) once the page is drawn: it then holds this page and every file it loaded.
  const drawn = !!state;
  useEffect(() => {
    if (drawn) registerOfflineShell({ page: pathname });
  }, [drawn]);
  if (state === 'error')
    return (
      <Result
        status="warning"
        title="无法打开扫码听课"
        subTitle="网络不可用或没有该页面的权限，请恢复网络后重试。"
        extra={<Button onClick={() => window.location.reload()}>重试</Button>}
      />
    );
  if (!state) return <PageSpin />;
  const light = !state.schema.online && !!pageKind(state.schema.kind);
  return (
    <>
      {/* The shell's header is not here: the page's title, and the way to the rest of the app (a full load). */}
      <header className="scan-top">
        <h1>{state.schema.title}</h1>
        <a href="/">返回首页</a>
      </header>
      <main className="scan-page">
        {light ? <KindPage pageId={state.pageId} schema={state.schema} /> : <SchemaPage pageId={state.pageId} schema={state.schema} />}
      </main>
    </>
  );
}

/** A path outside this entry (a button to another screen): loaded by the main shell. */
function FullLoad() {
  const { pathname: to, search: q } = useLocation();
  useEffect(() => window.location.assign(to + q), [to, q]);
  return <PageSpin />;
}

function FeedbackBridge() {
  const api = AntApp.useApp();
  useLayoutEffect(() => setFeedback(api), [api]);
  return null;
}

function ScanApp() {
  const s = useAtomValue(settingsAtom);
  const themeConfig = useMemo(() => withBuiltMapToken(appTheme(s.primaryColor), builtMapToken), [s.primaryColor]);
  useEffect(() => {
    document.body.classList.toggle('colorWeak', s.colorWeak);
    document.documentElement.style.setProperty('--app-primary', s.primaryColor);
  }, [s.colorWeak, s.primaryColor]);
  return (
    <ThemedConfigProvider locale={zhCN} theme={themeConfig}>
      <AntApp>
        <FeedbackBridge />
        <BrowserRouter>
          <ErrorBoundary>
            <Suspense fallback={<PageSpin />}>
              <Routes>
                <Route path={pathname} element={<ScanPage />} />
                <Route path="*" element={<FullLoad />} />
              </Routes>
            </Suspense>
          </ErrorBoundary>
        </BrowserRouter>
      </AntApp>
    </ThemedConfigProvider>
  );
}

// Signed out: sign in first, then back here (the main shell's login keeps the target).
if (!signedIn) window.location.replace(loginRedirectUrl(pathname + search));
else
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ScanApp />
    </StrictMode>,
  );
