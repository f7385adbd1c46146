import { describe, expect, it } from 'vitest';
import { closeMany, closeTab, HOME_CLOSE_MSG, LAST_CLOSE_MSG, refreshTab, visit, type PageTab } from '@app/layouts/tabs';
import { containerRedirects, menuRoutes, onlineKind, resolveUrlPlaceholders, searchableEntries } from '@core/menu';
import { normalizeSettings, DEFAULT_SETTINGS } from '@core/settings';
import { deviceOf } from '@app/layouts/useDevice';
import { greeting } from '@core/branding';
import type { MenuNode } from '@core/session/store';

const HOME = '/dashboard/analysis';
const t = (key: string, keepAlive = false): Omit<PageTab, 'version'> => ({ key, pathname: key, search: '', title: key.slice(1), keepAlive });
const keys = (tabs: PageTab[]) => tabs.map((x) => x.key);

describe('tab rules', () => {
  it('adds new paths, updates revisited ones, keeps one page with multi-tab off', () => {
    let tabs = visit([], t(HOME), true, HOME);
    tabs = visit(tabs, t('/a'), true, HOME);
    tabs = visit(tabs, t('/a'), true, HOME);
    expect(keys(tabs)).toEqual([HOME, '/a']);
    expect(keys(visit(tabs, t('/b'), false, HOME))).toEqual(['/b']);
  });
  it('one tab per screen: the same path with other parameters reuses its tab and draws it again with them', () => {
    let tabs = visit([], t(HOME), true, HOME);
    tabs = visit(tabs, t('/improvement/task'), true, HOME);
    tabs = visit(tabs, { ...t('/improvement/task'), search: '?recordId=r1' }, true, HOME);
    expect(keys(tabs)).toEqual([HOME, '/improvement/task']);
    expect(tabs[1]).toMatchObject({ search: '?recordId=r1', version: 1 });
    expect(visit(tabs, { ...t('/improvement/task'), search: '?recordId=r1' }, true, HOME)).toBe(tabs);
  });
  it('reloads home on revisit when home is not kept alive', () => {
    const tabs = visit(visit([], t(HOME), true, HOME), t(HOME), true, HOME);
    expect(tabs[0]!.version).toBe(1);
    const kept = visit(visit([], t(HOME, true), true, HOME), t(HOME, true), true, HOME);
    expect(kept[0]!.version).toBe(0);
  });
  it('refuses to close home and the last tab', () => {
    const tabs = [t(HOME), t('/a')].map((x) => ({ ...x, version: 0 }));
    expect(closeTab(tabs, HOME, HOME, HOME).error).toBe(HOME_CLOSE_MSG);
    expect(closeTab([tabs[1]!], '/a', '/a', HOME).error).toBe(LAST_CLOSE_MSG);
  });
  it('closing the active tab selects its left neighbour, or the right one', () => {
    const tabs = [HOME, '/a', '/b', '/c'].map((k) => ({ ...t(k), version: 0 }));
    expect(closeTab(tabs, '/b', '/b', HOME)).toMatchObject({ activate: '/a' });
    expect(closeTab(tabs, '/b', '/c', HOME).activate).toBeUndefined();
    const noHome = ['/a', '/b'].map((k) => ({ ...t(k), version: 0 }));
    expect(closeTab(noHome, '/a', '/a', HOME).activate).toBe('/b');
  });
  it('close left / right / others keep home and move the active tab when it went', () => {
    const tabs = [HOME, '/a', '/b', '/c'].map((k) => ({ ...t(k), version: 0 }));
    expect(keys(closeMany(tabs, '/b', 'left', '/c', HOME).tabs)).toEqual([HOME, '/b', '/c']);
    expect(closeMany(tabs, '/b', 'left', '/c', HOME).activate).toBeUndefined();
    expect(closeMany(tabs, '/b', 'right', '/c', HOME)).toMatchObject({ activate: '/b' });
    expect(keys(closeMany(tabs, '/b', 'others', HOME, HOME).tabs)).toEqual([HOME, '/b']);
    expect(refreshTab(tabs, '/a')[1]!.version).toBe(1);
  });
});

const menu: MenuNode[] = [
  { id: '1', path: HOME, name: 'home', component: 'dashboard/Analysis', meta: { title: '首页' } },
  {
    id: '2', path: '/sys', name: 'sys', component: 'layouts/RouteView', meta: { title: '系统' },
    children: [
      { id: '3', path: '/sys/hidden', name: 'h', component: 'x/H', hidden: true, meta: { title: '隐藏' } },
      { id: '4', path: '/sys/user', name: 'u', component: 'system/UserList', meta: { title: '用户', keepAlive: true } },
      { id: '5', path: '/sys/flag', name: 'f', component: 'x/F', route: '0', meta: { title: '非路由' } },
      { id: '6', path: '/online/list/:code', name: 'o', component: 'modules/online/cgform/auto/OnlCgformAutoList', meta: { title: '在线' } },
    ],
  },
];

describe('menu → routes', () => {
  it('leaves out containers and route flag "0", keeps hidden screens routable, records parents', () => {
    const r = menuRoutes(menu);
    expect(r.map((x) => x.path)).toEqual([HOME, '/sys/hidden', '/sys/user', '/online/list/:code']);
    expect(r[2]).toMatchObject({ title: '用户', keepAlive: true, parents: [{ title: '系统', path: '/sys' }] });
  });
  it('containers redirect to their first visible screen', () => {
    expect(containerRedirects(menu)).toEqual({ '/sys': '/sys/user' });
  });
  it('menu search lists visible non-container entries', () => {
    expect(searchableEntries(menu).map((n) => n.meta.title)).toEqual(['首页', '用户', '非路由', '在线']);
  });
  it('maps online list components', () => {
    expect(onlineKind('modules/online/cgform/auto/OnlCgformAutoList')).toBe('auto');
    expect(onlineKind('modules/online/cgreport/auto/OnlCgreportAutoList')).toBe('reportAuto');
    expect(onlineKind('system/UserList')).toBeUndefined();
  });
  it('evaluates {{ }} placeholders from a fixed set of names only', () => {
    const vars = { domianURL: 'http://h/jeecg-boot', token: 'T' };
    expect(resolveUrlPlaceholders("{{ window._CONFIG['domianURL'] }}/doc?t={{token}}", vars)).toBe('http://h/jeecg-boot/doc?t=T');
    expect(resolveUrlPlaceholders('{{ alert(1) }}x', vars)).toBe('x');
  });
});

describe('settings, device and greeting', () => {
  it('turning off the fixed header turns off auto-hide', () => {
    expect(normalizeSettings({ ...DEFAULT_SETTINGS, fixedHeader: false, autoHideHeader: true }).autoHideHeader).toBe(false);
  });
  it('breakpoints of SPEC §4', () => {
    expect([767, 768, 1087, 1088].map(deviceOf)).toEqual(['mobile', 'tablet', 'tablet', 'desktop']);
  });
  it('greets by time of day', () => {
    const at = (h: number) => greeting(new Date(2026, 0, 1, h, 30));
    expect([8, 9, 11, 12, 13, 14, 19, 20].map(at)).toEqual(['早上好', '上午好', '上午好', '中午好', '中午好', '下午好', '下午好', '晚上好']);
  });
});
