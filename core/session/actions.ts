import { startTransition } from 'react';
import { getDefaultStore } from 'jotai';
import { http, type Envelope } from '@core/http/client';
import { prefetchRoutes } from '@core/menu';
import { clearPrefetch, onMenu, takeEarly, warmPage } from '@core/session/prefetch';
import { clearOfflineCache } from '@core/offline/shell';
import {
  allAuthAtom, authAtom, dictAtom, menuAtom, tenantAtom, tokenAtom, userInfoAtom,
  type AuthEntry, type DictItems, type MenuNode, type UserInfo,
} from '@core/session/store';

/** Home path (SPEC §9). */
export const HOME_PATH = '/dashboard/analysis';
export const LOGIN_PATH = '/user/login';
/** Paths reachable without a token (SPEC §2). */
export const OPEN_PATHS = ['/user/login', '/user/register', '/user/register-result', '/user/alteration', '/oauth2-app/login'];

export interface Depart {
  id: string;
  orgCode: string;
  departName: string;
  [k: string]: unknown;
}
export interface Tenant {
  id: number;
  name: string;
  [k: string]: unknown;
}
export interface LoginResult {
  token: string;
  userInfo: UserInfo;
  departs?: Depart[];
  multi_depart?: number;
  tenantList?: Tenant[];
  sysAllDictItems?: DictItems;
}

const store = getDefaultStore();

/** Stores a successful login (SPEC §4: token, user info and dictionaries for 7 days). */
export function acceptLogin(r: LoginResult, tenantId?: number) {
  store.set(tokenAtom, r.token);
  store.set(userInfoAtom, r.userInfo);
  store.set(dictAtom, r.sysAllDictItems ?? {});
  const tenants = r.tenantList ?? [];
  if (tenantId !== undefined) store.set(tenantAtom, tenantId);
  else if (tenants.length === 1) store.set(tenantAtom, Number(tenants[0]!.id));
  store.set(menuAtom, null);
}

/** Login types 1–3 succeed only on code 200 (SPEC §4); anything else is a rejection with the server's message. */
export function loginOutcome(res: { success: boolean; code: number; message: string; result: LoginResult }): LoginResult {
  if (Number(res.code) !== 200 || !res.result?.token) throw Object.assign(new Error(res.message || '登录失败'), { code: res.code });
  return res.result;
}

/** Clears every piece of session state, then tells the server (continuing if that fails). */
export async function logout(): Promise<void> {
  const token = store.get(tokenAtom);
  clearSession();
  if (token) {
    try {
      await http.post('/sys/logout', {}, { headers: { 'X-Access-Token': token } });
    } catch {
      /* the local session is gone either way */
    }
  }
}

export function clearSession() {
  store.set(tokenAtom, '');
  store.set(userInfoAtom, null);
  store.set(dictAtom, {});
  store.set(tenantAtom, 0);
  store.set(authAtom, []);
  store.set(allAuthAtom, []);
  store.set(menuAtom, null);
  clearPrefetch();
  clearOfflineCache();
}

export interface PermissionResult {
  menu: MenuNode[];
  auth: AuthEntry[];
  allAuth: AuthEntry[];
  sysSafeMode?: boolean;
}

let inflight: Promise<MenuNode[]> | undefined;

/** Loads menu and buttons (route guard). Throws with the reason on failure or an invalid menu. A call while one is in flight shares it. */
export function loadPermissions(): Promise<MenuNode[]> {
  inflight ??= fetchPermissions().finally(() => {
    inflight = undefined;
  });
  return inflight;
}

/** Starts loading the menu early (with a token, before the main layout has downloaded); failures are reported by the route guard's own call. */
export function prefetchPermissions() {
  if (store.get(tokenAtom) && store.get(menuAtom) === null) loadPermissions().catch(() => undefined);
}

async function fetchPermissions(): Promise<MenuNode[]> {
  // The menu asked for while the page loaded (core/session/early-requests.ts), when it came back; else asked now.
  const early = (await takeEarly('permissions')) as Envelope<PermissionResult> | undefined;
  const res = early?.success ? early : await http.get<PermissionResult>('/sys/permission/getUserPermissionByToken');
  if (!res.success) throw new Error(res.message || '请求失败');
  const menu = res.result?.menu;
  if (!Array.isArray(menu)) throw new Error('permissions must be a non-null array');
  store.set(authAtom, res.result.auth ?? []);
  store.set(allAuthAtom, res.result.allAuth ?? []);
  const info = store.get(userInfoAtom);
  if (info && res.result.sysSafeMode !== undefined) store.set(userInfoAtom, { ...info, sysSafeMode: res.result.sysSafeMode });
  // Before the menu is drawn: boot guesses it does not confirm are dropped, and the page it routes the path to starts its requests.
  const pageId = onMenu(prefetchRoutes(menu), window.location.pathname);
  if (pageId) warmPage(pageId, window.location.search, false);
  // A transition: the layout's long first render yields, so the page's requests go out meanwhile.
  startTransition(() => store.set(menuAtom, menu));
  return menu;
}

export function loginRedirectUrl(fullPath: string) {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(fullPath)}`;
}

/** Where to go after sign-in: the redirect query when it is a local path, else home. */
export function afterLoginTarget(search: string) {
  const r = new URLSearchParams(search).get('redirect');
  return r && r.startsWith('/') && !r.startsWith('//') && !OPEN_PATHS.some((p) => r.startsWith(p)) ? r : HOME_PATH;
}
