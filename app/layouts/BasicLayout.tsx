import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Breadcrumb, Drawer, Layout } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { Link, Navigate, Routes, useLocation, useNavigate, type Location } from 'react-router-dom';
import { settingsAtom } from '@core/settings';
import type { MenuNode } from '@core/session/store';
import { tokenAtom } from '@core/session/store';
import { setLowAppIdSource, API_BASE } from '@core/http/client';
import { HOME_PATH } from '@core/session/actions';
import { feedback } from '@core/feedback';
import { APP_TITLE, COPYRIGHT } from '@core/branding';
import { containerRedirects, menuRoutes, resolveUrlPlaceholders } from '@core/menu';
import { STATIC_REDIRECTS, STATIC_ROUTES } from '@app/router/static-routes';
import { routeLookup } from '@app/router/lookup';
import { SideMenu } from '@app/layouts/SideMenu';
import { Logo } from '@app/layouts/Logo';
import { ErrorBoundary } from '@core/ui/ErrorBoundary';
import { HeaderBar } from '@app/layouts/HeaderBar';
import { PageTabs, type TabAction } from '@app/layouts/PageTabs';
import { useDevice } from '@app/layouts/useDevice';
import { closeMany, closeTab, refreshTab, visit, type PageTab } from '@app/layouts/tabs';


/** A tab's address: its path with the parameters it was last opened with. */
const urlOf = (tabs: PageTab[], key: string) => {
  const t = tabs.find((x) => x.key === key);
  return t ? t.pathname + t.search : key;
};
export function BasicLayout({ menu }: { menu: MenuNode[] }) {
  const [settings, setSettings] = useAtom(settingsAtom);
  const token = useAtomValue(tokenAtom);
  const device = useDevice();
  const isMobile = device === 'mobile';
  const loc = useLocation();
  const nav = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [headerHidden, setHeaderHidden] = useState(false);

  const defs = useMemo(() => {
    const fromMenu = menuRoutes(menu);
    const own = new Set(fromMenu.map((d) => d.path));
    return [...fromMenu, ...STATIC_ROUTES.filter((d) => !own.has(d.path))];
  }, [menu]);
  const redirects = useMemo(() => ({ ...STATIC_REDIRECTS, ...containerRedirects(menu) }), [menu]);
  const lookup = useMemo(() => routeLookup(defs), [defs]);

  const pathname = loc.pathname.length > 1 ? loc.pathname.replace(/\/+$/, '') : loc.pathname;
  const redirect = redirects[pathname];
  const found = redirect ? undefined : lookup(pathname);
  // One tab per screen: the same path with other parameters (a link's ?recordId=, a drill-down) reuses its tab.
  const key = pathname;

  // X-Low-App-ID for routes named low-app* (SPEC §7).
  const lowApp = useRef<string | undefined>(undefined);
  lowApp.current = found && found.def.name.startsWith('low-app') ? (found.params.appId ?? Object.values(found.params)[0]) : undefined;
  useEffect(() => {
    setLowAppIdSource(() => lowApp.current);
  }, []);

  const multipage = settings.multipage && !isMobile;
  const opened = () => ({ key, pathname, search: loc.search, title: found!.def.title, keepAlive: found!.def.keepAlive });
  // The first screen's tab is there in the first render: no second render of the whole layout for it.
  const [tabs, setTabs] = useState<PageTab[]>(() => (found ? visit([], opened(), multipage, HOME_PATH) : []));
  const firstVisit = useRef(!!found);
  useLayoutEffect(() => {
    if (!found) return;
    if (firstVisit.current) firstVisit.current = false;
    else setTabs((t) => visit(t, opened(), multipage, HOME_PATH));
    document.title = pathname === HOME_PATH ? APP_TITLE : `${found.def.title} - ${APP_TITLE}`;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, loc.search, found?.def, multipage]);

  // Auto-hide header after 100 px of scroll (needs fixed header).
  useEffect(() => {
    if (!settings.fixedHeader || !settings.autoHideHeader) return setHeaderHidden(false);
    const f = () => setHeaderHidden(window.scrollY > 100);
    window.addEventListener('scroll', f, { passive: true });
    return () => window.removeEventListener('scroll', f);
  }, [settings.fixedHeader, settings.autoHideHeader]);

  const apply = useCallback((r: { tabs: PageTab[]; activate?: string; error?: string }) => {
    if (r.error) return void feedback.message.warning(r.error);
    setTabs(r.tabs);
    if (r.activate) nav(urlOf(r.tabs, r.activate));
  }, [nav]);

  const onPick = (n: MenuNode) => {
    if (isMobile) setDrawerOpen(false);
    if (n.meta?.internalOrExternal && n.meta.url) {
      const url = resolveUrlPlaceholders(n.meta.url, { domianURL: window.location.origin + API_BASE, token, ACCESS_TOKEN: token });
      window.open(url, '_blank', 'noopener');
      return;
    }
    nav(n.path);
  };

  if (redirect) return <Navigate to={redirect + loc.search} replace />;
  if (!found) return <Navigate to="/404" replace />;

  const collapsed = device === 'tablet' ? true : settings.collapsed;
  const topMenu = settings.layout === 'topmenu' && !isMobile;
  const selected = [pathname, found.def.path];
  const onTabAction = (k: string, action: TabAction) => {
    if (action === 'refresh') {
      setTabs((t) => refreshTab(t, k));
      if (k !== key) nav(urlOf(tabs, k));
    } else apply(closeMany(tabs, k, action, key, HOME_PATH));
  };
  const visibleTabs = tabs.some((t) => t.key === key) ? tabs : [...(multipage ? tabs : []), { key, pathname, search: loc.search, title: found.def.title, keepAlive: found.def.keepAlive, version: 0 }];

  const menuEl = (
    <SideMenu menu={menu} mode={topMenu ? 'horizontal' : 'inline'} theme={settings.navTheme} collapsed={collapsed} selected={selected} onPick={onPick} />
  );
  const crumbs = [
    { title: <Link to={HOME_PATH}>首页</Link> },
    ...found.def.parents.map((p) => ({ title: p.title })),
    ...(pathname === HOME_PATH ? [] : [{ title: found.def.title }]),
  ];

  return (
    <Layout className={`basic-layout nav-${settings.navTheme} ${topMenu ? 'topmenu' : 'sidemenu'} ${settings.fixSiderbar && !topMenu ? 'fixed-sider' : ''}`}>
      {!topMenu && !isMobile && (
        <Layout.Sider className="layout-sider" width={208} collapsedWidth={64} collapsed={collapsed} trigger={null} theme={settings.navTheme}>
          <Logo collapsed={collapsed} theme={settings.navTheme} />
          {menuEl}
        </Layout.Sider>
      )}
      {isMobile && (
        <Drawer placement="left" width={200} open={drawerOpen} onClose={() => setDrawerOpen(false)} closable={false} styles={{ body: { padding: 0, background: settings.navTheme === 'dark' ? '#001529' : '#fff' } }}>
          <Logo theme={settings.navTheme} />
          <SideMenu menu={menu} mode="inline" theme={settings.navTheme} selected={selected} onPick={onPick} />
        </Drawer>
      )}
      <Layout className="layout-main">
        <HeaderBar
          menu={menu}
          settings={settings}
          device={device}
          collapsed={collapsed}
          hidden={headerHidden}
          topMenu={topMenu ? menuEl : undefined}
          onToggle={() => (isMobile ? setDrawerOpen((o) => !o) : setSettings((s) => ({ ...s, collapsed: !s.collapsed })))}
        />
        {multipage && (
          <div className="layout-tabs">
            <PageTabs
              tabs={visibleTabs.map((t) => ({ key: t.key, title: t.key === HOME_PATH ? '首页' : t.title, closable: t.key !== HOME_PATH }))}
              activeKey={key}
              onPick={(k) => nav(urlOf(tabs, k))}
              onClose={(k) => apply(closeTab(tabs, k, key, HOME_PATH))}
              onAction={onTabAction}
            />
          </div>
        )}
        <Layout.Content className="layout-content">
          <div className={settings.contentWidth === 'Fixed' && topMenu ? 'content-fixed' : ''}>
            <Breadcrumb className="layout-breadcrumb" items={crumbs} />
            {visibleTabs
              .filter((t) => t.key === key || (t.keepAlive && multipage))
              .map((t) => (
                <div key={`${t.key}#${t.version}`} className="page-pane" style={t.key === key ? undefined : { display: 'none' }}>
                  <ErrorBoundary>
                    <Routes location={{ pathname: t.pathname, search: t.search, hash: '', state: null, key: t.key } as Location}>{lookup(t.pathname)?.route}</Routes>
                  </ErrorBoundary>
                </div>
              ))}
          </div>
        </Layout.Content>
        <Layout.Footer className="layout-footer">{COPYRIGHT}</Layout.Footer>
      </Layout>
    </Layout>
  );
}
