import { useEffect } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { AxiosError } from 'axios';
import { menuAtom } from '@core/session/store';
import { loadPermissions, loginRedirectUrl, logout } from '@core/session/actions';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import { PageSpin } from '@core/ui/PageSpin';
import { BasicLayout } from '@app/layouts/BasicLayout';

/** The part of the route guard that needs the menu (SPEC §2): load it once, then build the layout and routes. */
export default function MainApp() {
  const menu = useAtomValue(menuAtom);
  const nav = useNavigate();
  const loc = useLocation();
  useEffect(() => {
    if (menu !== null) return;
    let live = true;
    loadPermissions().catch(async (e: unknown) => {
      // An expired token gets the expiry dialog from the HTTP layer instead.
      if (!live || (e as AxiosError)?.response?.status === 401) return;
      feedback.notification.error({ message: '系统提示', description: `请求用户信息失败，请重试！${errorText(e)}` });
      const back = loginRedirectUrl(loc.pathname + loc.search);
      await logout();
      nav(back, { replace: true });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [menu]);
  if (menu === null) return <PageSpin />;
  if (menu.length === 0) return <Navigate to="/403" replace />;
  return <BasicLayout menu={menu} />;
}
