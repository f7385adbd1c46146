import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDefaultStore } from 'jotai';
import type { InternalAxiosRequestConfig } from 'axios';
import { axiosInstance } from '@core/http/client';
import { tokenAtom, userInfoAtom, type MenuNode } from '@core/session/store';
import {
  arrivedEarly, clearPrefetch, firstList, firstListDone, GUESS_TTL_MS, onMenu, peekSchemaGuess, putListGuess, quietGet, startBootPrefetch, takeEarly, takeSchemaGuess,
} from '@core/session/prefetch';
import { clearSession, loadPermissions } from '@core/session/actions';
import { prefetchRoutes } from '@core/menu';
import { fetchPageSchema, clearPageCache } from '@renderer/loader';

// Requests are answered here instead of going on the wire: status by url; GET /schema/route from `routes`.
let seen: InternalAxiosRequestConfig[] = [];
let status: Record<string, number> = {};
let routes: Record<string, { component: string; schema: unknown }> = {};
let routeAnswered: Promise<unknown> = Promise.resolve();
axiosInstance.defaults.adapter = async (config) => {
  seen.push(config);
  if (config.url === '/schema/route') {
    await routeAnswered;
    const hit = routes[String(config.params?.path)];
    return { data: { success: !!hit, code: hit ? 200 : 404, message: hit ? '' : '菜单中没有该路径', result: hit ?? null }, status: 200, statusText: '', headers: {}, config };
  }
  const s = status[config.url ?? ''] ?? 200;
  return { data: { success: s === 200, code: s, message: s === 200 ? '' : 'no', result: s === 200 ? { kind: 'list', title: 'T', url: config.url } : null }, status: s, statusText: '', headers: {}, config };
};
const store = getDefaultStore();
const tick = () => new Promise((r) => setTimeout(r, 0));
const signIn = (id: string) => {
  store.set(tokenAtom, 'tok');
  store.set(userInfoAtom, { id, username: id, realname: id });
};
const menu: MenuNode[] = [
  { id: '1', path: '/records', name: 'records', component: 'supervisor/RecordList', meta: { title: '听课记录' } },
  { id: '2', path: '/sys', name: 'sys', component: 'layouts/RouteView', meta: { title: '系统' }, children: [
    { id: '3', path: '/sys/user/', name: 'user', component: '/system/UserList', meta: { title: '用户' } },
    { id: '4', path: '/sys/detail/:id', name: 'detail', component: 'system/Detail', meta: { title: '详情' } },
    { id: '5', path: '/sys/site', name: 'site', component: 'layouts/IframePageView', meta: { title: '站点', url: 'https://x' } },
  ] },
];

beforeEach(() => {
  seen = [];
  status = {};
  routes = {};
  routeAnswered = Promise.resolve();
  clearPrefetch();
  clearPageCache();
  localStorage.clear();
});
afterEach(() => {
  clearSession();
  delete (window as { __early?: unknown }).__early;
  history.replaceState(null, '', '/');
});

describe('path → page map (router/menu)', () => {
  it('keeps fixed page paths, normalised, and leaves out containers, iframes and parameterised paths', () => {
    expect(prefetchRoutes(menu)).toEqual({ '/records': 'supervisor/RecordList', '/sys/user': 'system/UserList' });
  });
});

describe('boot prefetch (core/session/prefetch.ts)', () => {
  it('asks the server where the path leads (with the URL search) and takes the schema from its answer; the menu agreeing asks nothing more', async () => {
    signIn('u1');
    routes['/records'] = { component: 'supervisor/RecordList', schema: { kind: 'list', title: '听课记录' } };
    await expect(startBootPrefetch('/records/', '?pageSize=20')).resolves.toBe('supervisor/RecordList');
    expect(seen.map((c) => [c.url, c.params?.path, c.params?.search])).toEqual([['/schema/route', '/records', '?pageSize=20']]);
    expect(seen[0]!.headers['X-Access-Token']).toBe('tok');
    // The menu agrees; the loader uses the schema that came with the answer instead of asking again.
    expect(onMenu(prefetchRoutes(menu), '/records/')).toBe('supervisor/RecordList');
    await expect(fetchPageSchema('supervisor/RecordList')).resolves.toEqual({ kind: 'list', title: '听课记录' });
    await tick();
    expect(seen).toHaveLength(1);
  });

  it('guesses nothing where the server routes no schema page', async () => {
    signIn('u1');
    await expect(startBootPrefetch('/nowhere', '')).resolves.toBeUndefined();
    routes['/home'] = { component: 'dashboard/Analysis', schema: null };
    await expect(startBootPrefetch('/home', '')).resolves.toBeUndefined();
  });

  it('when the menu comes first, its page takes the schema from the late route answer if it leads to that page, else asks for it', async () => {
    signIn('u1');
    const menuFirst = async (component: string) => {
      clearPrefetch();
      seen = [];
      let answer!: (v: unknown) => void;
      routeAnswered = new Promise((r) => (answer = r));
      routes['/records'] = { component, schema: { kind: 'list', title: '听课记录' } };
      const late = startBootPrefetch('/records', '');
      onMenu(prefetchRoutes(menu), '/records');
      answer(undefined);
      await expect(late).resolves.toBeUndefined(); // the menu took over
      return (await peekSchemaGuess('supervisor/RecordList'))?.result;
    };
    // The same page: no second request.
    await expect(menuFirst('supervisor/RecordList')).resolves.toEqual({ kind: 'list', title: '听课记录' });
    expect(seen.map((c) => c.url)).toEqual(['/schema/route']);
    // The server named another page (the menu decides): the schema is asked for on its own.
    await expect(menuFirst('other/Page')).resolves.toMatchObject({ url: '/schema/page/supervisor/RecordList' });
    expect(seen.map((c) => c.url)).toEqual(['/schema/route', '/schema/page/supervisor/RecordList']);
  });

  it('drops the guesses when the menu no longer routes the path to that page (e.g. permission removed)', async () => {
    signIn('u1');
    routes['/records'] = { component: 'supervisor/RecordList', schema: { kind: 'list', title: '听课记录' } };
    await expect(startBootPrefetch('/records', '')).resolves.toBe('supervisor/RecordList');
    putListGuess('supervisor/RecordList', '', '/r/list', { pageNo: 1 }, () => quietGet('/r/list', { pageNo: 1 }));
    expect(onMenu(prefetchRoutes(menu.slice(1)), '/records')).toBeUndefined();
    expect(peekSchemaGuess('supervisor/RecordList')).toBeUndefined();
    let own = false;
    await firstList('supervisor/RecordList', '', '/r/list', { pageNo: 1 }, () => ((own = true), quietGet('/r/list', { pageNo: 1 })));
    expect(own).toBe(true);
    // The page, if ever opened, asks the server itself.
    await fetchPageSchema('supervisor/RecordList');
    expect(seen.filter((c) => c.url === '/schema/page/supervisor/RecordList')).toHaveLength(1);
  });

  it('keeps the guesses when the menu agrees; the schema guess is consumed once', async () => {
    signIn('u1');
    routes['/records'] = { component: 'supervisor/RecordList', schema: { kind: 'list', title: '听课记录' } };
    await startBootPrefetch('/records', '');
    onMenu(prefetchRoutes(menu), '/records');
    expect(takeSchemaGuess('supervisor/RecordList')).toBeDefined();
    expect(takeSchemaGuess('supervisor/RecordList')).toBeUndefined();
  });

  it('a quiet request shows no error and resolves to undefined on an HTTP failure; the page then asks the normal way', async () => {
    signIn('u1');
    routeAnswered = Promise.reject(new Error('network down'));
    routeAnswered.catch(() => undefined);
    await expect(startBootPrefetch('/records', '')).resolves.toBeUndefined();
    expect(onMenu(prefetchRoutes(menu), '/records')).toBe('supervisor/RecordList');
    await expect(peekSchemaGuess('supervisor/RecordList')).resolves.toMatchObject({ result: { url: '/schema/page/supervisor/RecordList' } });
  });
});

describe('a list page\'s first request', () => {
  const params = { column: 'createTime', order: 'desc', pageNo: 1, pageSize: 10 };
  const early = () => quietGet('/r/list', params);
  /** firstList with a start that records its call. */
  const first = (pageId: string, search: string, url: string, p: Record<string, unknown>) => {
    const own = { started: false };
    const r = firstList(pageId, search, url, p, () => ((own.started = true), quietGet(url, p)));
    return { r, own };
  };

  it('is the early one only for exactly the same page, search, url and parameters', async () => {
    putListGuess('p1', '?a=1', '/r/list', params, early);
    expect(first('p1', '?a=1', '/r/list', { ...params, pageSize: 20 }).own.started).toBe(true);
    putListGuess('p2', '?a=1', '/r/list', params, early);
    expect(first('p2', '', '/r/list', params).own.started).toBe(true);
    expect(first('p2', '?a=1', '/r/other', params).own.started).toBe(true);
    putListGuess('p3', '?a=1', '/r/list', params, early);
    const hit = first('p3', '?a=1', '/r/list', params);
    expect(hit.own.started).toBe(false);
    await expect(hit.r).resolves.toMatchObject({ success: true });
    // Three early requests and the two pages' own that matched none.
    expect(seen.filter((c) => c.url === '/r/list')).toHaveLength(5);
  });

  it('is shared by renders of the page until it commits (React may discard a render and mount again), then asked afresh', async () => {
    const a = first('p', '', '/r/list', params);
    const b = first('p', '', '/r/list', params);
    expect([a.own.started, b.own.started]).toEqual([true, false]);
    expect(b.r).toBe(a.r);
    firstListDone('p', '');
    expect(first('p', '', '/r/list', params).own.started).toBe(true);
    await tick();
    expect(seen.filter((c) => c.url === '/r/list')).toHaveLength(2);
  });

  it('is not started early once the page has asked', () => {
    first('p4', '', '/r/list', params);
    firstListDone('p4', '');
    let started = false;
    expect(putListGuess('p4', '', '/r/list', params, () => ((started = true), early()))).toBe(false);
    expect(started).toBe(false);
  });

  it('expires', () => {
    const now = Date.now;
    try {
      putListGuess('q', '', '/r/list', params, early);
      Date.now = () => now() + GUESS_TTL_MS + 1;
      expect(first('q', '', '/r/list', params).own.started).toBe(true);
    } finally {
      Date.now = now;
    }
  });
});

describe('the early requests of the page load (core/session/early-requests.ts → takeEarly)', () => {
  const ok = (result: unknown) => ({ success: true, code: 200, message: '', result });
  const list = { url: '/r/list', params: { pageNo: 1, pageSize: 20 }, answer: ok({ records: [{ id: 'a' }], total: 1 }) };
  const routeAnswer = ok({ component: 'supervisor/RecordList', schema: { kind: 'list', title: 'T' }, list });
  const setEarly = (e: Record<string, unknown>) => ((window as { __early?: unknown }).__early = { path: '/records', search: '?pageSize=20', token: 'tok', ...e });
  const own = (pageId = 'supervisor/RecordList') => {
    const o = { started: false };
    const r = firstList(pageId, '?pageSize=20', list.url, list.params, () => ((o.started = true), quietGet(list.url, list.params)));
    return { r, o };
  };

  it('the route answer asked while the page loaded gives the page its schema and first rows, once: the app asks nothing itself', async () => {
    signIn('u1');
    history.replaceState(null, '', '/records?pageSize=20');
    setEarly({ route: Promise.resolve(routeAnswer) });
    await expect(startBootPrefetch('/records', '?pageSize=20')).resolves.toBe('supervisor/RecordList');
    const first = own();
    await expect(first.r).resolves.toEqual(list.answer);
    expect(first.o.started).toBe(false);
    await expect(fetchPageSchema('supervisor/RecordList')).resolves.toEqual({ kind: 'list', title: 'T' });
    expect(seen).toEqual([]);
    expect(takeEarly('route')).toBeUndefined(); // taken once
  });

  it('when the menu is handled first, the page still takes schema and rows from the early route answer', async () => {
    signIn('u1');
    history.replaceState(null, '', '/records?pageSize=20');
    let answer!: (v: unknown) => void;
    setEarly({ route: new Promise((r) => (answer = r)) });
    const boot = startBootPrefetch('/records', '?pageSize=20');
    expect(onMenu(prefetchRoutes(menu), '/records')).toBe('supervisor/RecordList');
    answer(routeAnswer);
    await expect(boot).resolves.toBeUndefined(); // the menu took over
    await expect(peekSchemaGuess('supervisor/RecordList')).resolves.toMatchObject({ result: { kind: 'list', title: 'T' } });
    const first = own();
    await expect(first.r).resolves.toEqual(list.answer);
    expect(first.o.started).toBe(false);
    expect(seen).toEqual([]);
  });

  it('the menu asked while the page loaded is used when it came back; otherwise the app asks itself (with its error handling)', async () => {
    signIn('u1');
    setEarly({ path: '/', search: '', permissions: Promise.resolve(ok({ menu, auth: [], allAuth: [] })) });
    await expect(loadPermissions()).resolves.toEqual(menu);
    expect(seen.map((c) => c.url)).not.toContain('/sys/permission/getUserPermissionByToken');
    setEarly({ path: '/', search: '', permissions: Promise.resolve(undefined) }); // e.g. HTTP 401
    await loadPermissions().catch(() => undefined);
    expect(seen.map((c) => c.url)).toContain('/sys/permission/getUserPermissionByToken');
  });

  it('an answer that has already come in is at hand for a first render, without taking it: only a successful one, for this session and page', async () => {
    signIn('u1');
    history.replaceState(null, '', '/records?pageSize=20');
    const notices = ok({ anntMsgTotal: 2 });
    setEarly({ notices: Promise.resolve(notices), arrived: { notices } });
    expect(arrivedEarly('notices')).toBe(notices);
    expect(arrivedEarly('notices')).toBe(notices); // looking does not take it
    await expect(takeEarly('notices')).resolves.toBe(notices);
    expect(arrivedEarly('notices')).toBeUndefined(); // taken
    setEarly({ notices: new Promise(() => undefined), arrived: {} });
    expect(arrivedEarly('notices')).toBeUndefined(); // still on its way
    setEarly({ notices: Promise.resolve(undefined), arrived: { notices: { success: false } } });
    expect(arrivedEarly('notices')).toBeUndefined();
    setEarly({ token: 'other', notices: Promise.resolve(notices), arrived: { notices } });
    expect(arrivedEarly('notices')).toBeUndefined();
    setEarly({ path: '/elsewhere', notices: Promise.resolve(notices), arrived: { notices } });
    expect(arrivedEarly('notices')).toBeUndefined();
  });

  it('is not used for another session or another page', () => {
    signIn('u1');
    history.replaceState(null, '', '/records?pageSize=20');
    setEarly({ token: 'other', route: Promise.resolve(routeAnswer), permissions: Promise.resolve(undefined) });
    expect(takeEarly('route')).toBeUndefined();
    expect(takeEarly('permissions')).toBeUndefined();
    setEarly({ path: '/elsewhere', route: Promise.resolve(routeAnswer) });
    expect(takeEarly('route')).toBeUndefined();
    setEarly({ search: '?pageSize=50', route: Promise.resolve(routeAnswer) });
    expect(takeEarly('route')).toBeUndefined();
  });
});
