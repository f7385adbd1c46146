import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDefaultStore } from 'jotai';
import type { InternalAxiosRequestConfig } from 'axios';
import { axiosInstance } from '@/http/client';
import { tokenAtom, userInfoAtom, type MenuNode } from '@/session/store';
import {
  clearPrefetch, GUESS_TTL_MS, onMenu, peekSchemaGuess, putListGuess, quietGet, startBootPrefetch, takeListGuess, takeSchemaGuess,
} from '@/session/prefetch';
import { clearSession } from '@/session/actions';
import { prefetchRoutes } from '@/router/menu';
import { fetchPageSchema, clearPageCache } from '@renderer/loader';

// Requests are answered here instead of going on the wire: status by url.
let seen: InternalAxiosRequestConfig[] = [];
let status: Record<string, number> = {};
axiosInstance.defaults.adapter = async (config) => {
  seen.push(config);
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
  clearPrefetch();
  clearPageCache();
  localStorage.clear();
});
afterEach(() => {
  clearSession();
});

describe('path → page map (router/menu)', () => {
  it('keeps fixed page paths, normalised, and leaves out containers, iframes and parameterised paths', () => {
    expect(prefetchRoutes(menu)).toEqual({ '/records': 'supervisor/RecordList', '/sys/user': 'system/UserList' });
  });
});

describe('boot prefetch (src/session/prefetch.ts)', () => {
  it('guesses nothing on a first visit, then the page the previous menu of the same user routed the path to', async () => {
    signIn('u1');
    expect(startBootPrefetch('/records')).toBeUndefined();
    expect(seen).toHaveLength(0);
    expect(onMenu(prefetchRoutes(menu), '/records/')).toBe('supervisor/RecordList');
    // Next boot of the same user: the schema request starts at once, quietly.
    expect(startBootPrefetch('/records')).toBe('supervisor/RecordList');
    await tick();
    expect(seen.map((c) => c.url)).toEqual(['/schema/page/supervisor/RecordList']);
    expect(seen[0]!.headers['X-Access-Token']).toBe('tok');
    expect(seen[0]!.params).toMatchObject({ _t: expect.any(Number) });
    // The loader uses that request instead of asking again.
    const s = await fetchPageSchema('supervisor/RecordList');
    expect(s).toMatchObject({ kind: 'list' });
    expect(seen).toHaveLength(1);
  });

  it('is kept per user: another user on the same browser gets no guess', () => {
    signIn('u1');
    onMenu(prefetchRoutes(menu), '/');
    store.set(userInfoAtom, { id: 'u2', username: 'u2', realname: 'u2' });
    expect(startBootPrefetch('/records')).toBeUndefined();
    expect(seen).toHaveLength(0);
  });

  it('is cleared on sign-out', () => {
    signIn('u1');
    onMenu(prefetchRoutes(menu), '/');
    expect(localStorage.getItem('ROUTE_PREFETCH')).toContain('supervisor/RecordList');
    clearSession();
    expect(localStorage.getItem('ROUTE_PREFETCH')).toBeNull();
    signIn('u1');
    expect(startBootPrefetch('/records')).toBeUndefined();
  });

  it('drops the guesses when the menu no longer routes the path to that page (e.g. permission removed)', async () => {
    signIn('u1');
    onMenu(prefetchRoutes(menu), '/');
    expect(startBootPrefetch('/records')).toBe('supervisor/RecordList');
    putListGuess('supervisor/RecordList', '', '/r/list', { pageNo: 1 }, () => quietGet('/r/list', { pageNo: 1 }));
    expect(onMenu(prefetchRoutes(menu.slice(1)), '/records')).toBeUndefined();
    expect(peekSchemaGuess('supervisor/RecordList')).toBeUndefined();
    expect(takeListGuess('supervisor/RecordList', '', '/r/list', { pageNo: 1 })).toBeUndefined();
    // The page, if ever opened, asks the server itself.
    await fetchPageSchema('supervisor/RecordList');
    expect(seen.filter((c) => c.url === '/schema/page/supervisor/RecordList')).toHaveLength(2);
  });

  it('keeps the guesses when the menu agrees', () => {
    signIn('u1');
    onMenu(prefetchRoutes(menu), '/');
    startBootPrefetch('/records');
    onMenu(prefetchRoutes(menu), '/records');
    expect(takeSchemaGuess('supervisor/RecordList')).toBeDefined();
    expect(takeSchemaGuess('supervisor/RecordList')).toBeUndefined(); // consumed once
  });

  it('a quiet request shows no error and resolves to undefined on an HTTP failure; the loader then asks the normal way', async () => {
    signIn('u1');
    onMenu(prefetchRoutes(menu), '/');
    status['/schema/page/supervisor/RecordList'] = 500;
    startBootPrefetch('/records');
    await expect(peekSchemaGuess('supervisor/RecordList')).resolves.toBeUndefined();
    status = {};
    await expect(fetchPageSchema('supervisor/RecordList')).resolves.toMatchObject({ kind: 'list' });
    expect(seen.map((c) => c.url)).toEqual(['/schema/page/supervisor/RecordList', '/schema/page/supervisor/RecordList']);
  });
});

describe('early first list request', () => {
  const params = { column: 'createTime', order: 'desc', pageNo: 1, pageSize: 10 };
  it('is used only for exactly the same page, search, url and parameters, once', async () => {
    putListGuess('p1', '?a=1', '/r/list', params, () => quietGet('/r/list', params));
    expect(takeListGuess('p1', '?a=1', '/r/list', { ...params, pageSize: 20 })).toBeUndefined();
    putListGuess('p2', '?a=1', '/r/list', params, () => quietGet('/r/list', params));
    expect(takeListGuess('p2', '', '/r/list', params)).toBeUndefined();
    expect(takeListGuess('p2', '?a=1', '/r/other', params)).toBeUndefined();
    putListGuess('p3', '?a=1', '/r/list', params, () => quietGet('/r/list', params));
    const early = takeListGuess('p3', '?a=1', '/r/list', params);
    await expect(early).resolves.toMatchObject({ success: true });
    expect(takeListGuess('p3', '?a=1', '/r/list', params)).toBeUndefined();
    // The page has asked: a late early request is not started.
    let started = false;
    expect(putListGuess('p3', '?a=1', '/r/list', params, () => ((started = true), quietGet('/r/list', params)))).toBe(false);
    expect(started).toBe(false);
  });

  it('expires', () => {
    const now = Date.now;
    try {
      putListGuess('q', '', '/r/list', params, () => quietGet('/r/list', params));
      Date.now = () => now() + GUESS_TTL_MS + 1;
      expect(takeListGuess('q', '', '/r/list', params)).toBeUndefined();
    } finally {
      Date.now = now;
    }
  });
});
