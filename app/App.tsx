import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { App as AntApp } from 'antd';
import { Provider as MotionProvider } from 'rc-motion';
import { PageSpin } from '@core/ui/PageSpin';
import { ErrorBoundary } from '@core/ui/ErrorBoundary';
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { settingsAtom } from '@core/settings';
import { appTheme, ThemedConfigProvider, withBuiltMapToken } from '@core/theme';
import builtMapToken from 'virtual:antd-map-token';
import { setFeedback } from '@core/feedback';
import { tokenAtom } from '@core/session/store';
import { afterLoginTarget, loginRedirectUrl, prefetchPermissions } from '@core/session/actions';
import { loadMainApp } from '@app/boot';
import { lazyModule } from '@core/ui/moduleLoader';
import { UserLayout } from '@app/layouts/UserLayout';
// The sign-in page is the entry screen: part of the initial bundle (see docs/decisions.md); every other page is lazy.
import Login from '@app/pages/user/Login';
// The main layout's styles with the entry's: one stylesheet request fewer on a signed-in visit (a few kB on the sign-in page).
import '@app/layouts/basic-layout.css';

dayjs.locale('zh-cn');

const Register = lazy(() => import('@app/pages/user/Register'));
const RegisterResult = lazy(() => import('@app/pages/user/RegisterResult'));
const Alteration = lazy(() => import('@app/pages/user/Alteration'));
const OAuth2Login = lazy(() => import('@app/pages/user/OAuth2Login'));
const Exception = lazy(() => import('@app/pages/exception/Exception'));
// The menu request starts with the main layout's download (MainApp waits for the same request); a
// main layout already downloaded at boot renders at once.
const MainApp = lazy(() => {
  prefetchPermissions();
  return lazyModule(loadMainApp, (m) => m.default);
});

function FeedbackBridge() {
  const api = AntApp.useApp();
  // Once committed: a render React throws away (the first render is a transition that may suspend)
  // would take what is shown with it.
  useLayoutEffect(() => setFeedback(api), [api]);
  return null;
}

function ScrollTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** Login paths with a stored token go home, or to the redirect query right after sign-in (SPEC §2 guard). */
function OpenOnly({ children }: { children: React.ReactNode }) {
  const token = useAtomValue(tokenAtom);
  const loc = useLocation();
  return token ? <Navigate to={afterLoginTarget(loc.search)} replace /> : <>{children}</>;
}

/** Any other path needs a token; without one → login with the full path as redirect. */
function RequireToken({ children }: { children: React.ReactNode }) {
  const token = useAtomValue(tokenAtom);
  const loc = useLocation();
  return token ? <>{children}</> : <Navigate to={loginRedirectUrl(loc.pathname + loc.search)} replace />;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageSpin />}>
      <Routes>
        <Route path="/user" element={<UserLayout />}>
          <Route index element={<Navigate to="/user/login" replace />} />
          <Route path="login" element={<OpenOnly><Login /></OpenOnly>} />
          <Route path="register" element={<OpenOnly><Register /></OpenOnly>} />
          <Route path="register-result" element={<OpenOnly><RegisterResult /></OpenOnly>} />
          <Route path="alteration" element={<OpenOnly><Alteration /></OpenOnly>} />
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Route>
        <Route path="/oauth2-app" element={<UserLayout />}>
          <Route index element={<Navigate to="/oauth2-app/login" replace />} />
          <Route path="login" element={<OpenOnly><OAuth2Login /></OpenOnly>} />
        </Route>
        {(['403', '404', '500'] as const).map((c) => (
          <Route key={c} path={`/${c}`} element={<RequireToken><Exception type={c} standalone /></RequireToken>} />
        ))}
        <Route path="/*" element={<RequireToken><MainApp /></RequireToken>} />
      </Routes>
    </Suspense>
  );
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the system asks for reduced motion (followed live). */
function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia?.(REDUCED_MOTION).matches ?? false);
  useEffect(() => {
    const q = window.matchMedia?.(REDUCED_MOTION);
    if (!q) return;
    const f = () => setReduced(q.matches);
    q.addEventListener('change', f);
    return () => q.removeEventListener('change', f);
  }, []);
  return reduced;
}

export function App() {
  const s = useAtomValue(settingsAtom);
  const reducedMotion = useReducedMotion();
  const themeConfig = useMemo(() => withBuiltMapToken(appTheme(s.primaryColor), builtMapToken), [s.primaryColor]);
  useEffect(() => {
    document.body.classList.toggle('colorWeak', s.colorWeak);
  }, [s.colorWeak]);
  useEffect(() => {
    document.documentElement.style.setProperty('--app-primary', s.primaryColor);
  }, [s.primaryColor]);
  return (
    <ThemedConfigProvider locale={zhCN} theme={themeConfig}>
      {/* With reduced motion asked for, antd's opening and closing animations are off (the theme, and so the pre-built styles, stay the same). */}
      <MotionProvider motion={!reducedMotion}>
        <AntApp>
          <FeedbackBridge />
          <BrowserRouter>
            <ScrollTop />
            <ErrorBoundary>
              <AppRoutes />
            </ErrorBoundary>
          </BrowserRouter>
        </AntApp>
      </MotionProvider>
    </ThemedConfigProvider>
  );
}
