import { getDefaultStore } from 'jotai';
import { axiosInstance, type Envelope } from '@/http/client';
import { userInfoAtom } from '@/session/store';

/**
 * Early page requests. Opening a screen directly (a reload, a link) would otherwise wait for
 * entry → menu → layout render → page-schema request → page render → first list request. Instead:
 * - as soon as the menu arrives, the page's schema request starts (before the layout renders), and
 *   the first list request as soon as the schema is there (renderer/warm.ts);
 * - at boot, when this user's previous menu (kept in localStorage) routed the path to a page, the
 *   same requests start in parallel with the menu, as "guesses": quiet (no error UI; an HTTP failure
 *   resolves to undefined and the page asks again the normal way), dropped when the menu routes the
 *   path elsewhere.
 * A page consumes an early request only when it is exactly the request it would have made (same page,
 * URL search, url and parameters), once, within GUESS_TTL_MS. The server checks permissions anyway.
 */
const KEY = 'ROUTE_PREFETCH';
/** An early request older than this is not used (it was meant for the page being opened). */
export const GUESS_TTL_MS = 15_000;

interface Stored {
  user: string;
  /** Menu path → page id (the menu's component). */
  routes: Record<string, string>;
}

interface Early {
  at: number;
  key: string;
  p: Promise<Envelope | undefined>;
}

const schemas = new Map<string, Early>();
const lists = new Map<string, Early>();
/** List requests a page has already asked for (an early one arriving later is not started). */
const listed = new Set<string>();
let boot: { path: string; pageId: string } | undefined;

/** The identity the stored map belongs to: the signed-in user's id, else name. */
function currentUser(): string | undefined {
  const info = getDefaultStore().get(userInfoAtom);
  return info?.id || info?.username || undefined;
}

function readRoutes(user: string): Record<string, string> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    if (v && v.user === user && v.routes && typeof v.routes === 'object') return v.routes;
  } catch {
    /* unreadable: nothing to guess from */
  }
  return {};
}

export const normalPath = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
const listKey = (pageId: string, search: string) => `${pageId}?${search.replace(/^\?/, '')}`;
export const requestKey = (url: string, params: Record<string, unknown>) => `${url} ${JSON.stringify(params)}`;
const fresh = (e: Early | undefined) => !!e && Date.now() - e.at < GUESS_TTL_MS;

/** A quiet GET: the same request as http.get (the interceptors add token, tenant and _t), without the error UI. */
export function quietGet(url: string, params?: Record<string, unknown>): Promise<Envelope | undefined> {
  return axiosInstance
    .request<Envelope>({ method: 'GET', url, params, validateStatus: () => true })
    .then((r) => (r.status === 200 && r.data && typeof r.data === 'object' ? r.data : undefined), () => undefined);
}

/**
 * At boot, signed in, on `path`: when this user's previous menu routed `path` to a page, starts its
 * schema request (quiet) and returns the page id.
 */
export function startBootPrefetch(path: string): string | undefined {
  const user = currentUser();
  if (!user) return undefined;
  const pageId = readRoutes(user)[normalPath(path)];
  if (!pageId) return undefined;
  boot = { path: normalPath(path), pageId };
  schemas.set(pageId, { at: Date.now(), key: pageId, p: quietGet(`/schema/page/${pageId}`) });
  return pageId;
}

/**
 * The menu arrived (path → page id): drops the boot guesses when it routes the boot path elsewhere,
 * remembers the map for the next boot, and returns the page id it routes `path` to.
 */
export function onMenu(routes: Record<string, string>, path: string): string | undefined {
  if (boot && routes[boot.path] !== boot.pageId) dropEarly();
  boot = undefined;
  const user = currentUser();
  if (user)
    try {
      localStorage.setItem(KEY, JSON.stringify({ user, routes } satisfies Stored));
    } catch {
      /* storage full or denied: no guess next time */
    }
  return routes[normalPath(path)];
}

/** A page's early schema request, without consuming it. */
export function peekSchemaGuess(pageId: string): Promise<Envelope | undefined> | undefined {
  const e = schemas.get(pageId);
  return fresh(e) ? e!.p : undefined;
}

/** A page's early schema request (consumed once). */
export function takeSchemaGuess(pageId: string): Promise<Envelope | undefined> | undefined {
  const e = schemas.get(pageId);
  schemas.delete(pageId);
  return fresh(e) ? e!.p : undefined;
}

/** Registers an early first-list request of `pageId` at `search`, unless the page has already asked or one is there. */
export function putListGuess(pageId: string, search: string, url: string, params: Record<string, unknown>, start: () => Promise<Envelope | undefined>): boolean {
  const k = listKey(pageId, search);
  const key = requestKey(url, params);
  if (listed.has(k) || (fresh(lists.get(k)) && lists.get(k)!.key === key)) return false;
  lists.set(k, { at: Date.now(), key, p: start() });
  return true;
}

/** A list page's first request: the early one when it is exactly this request (consumed once). */
export function takeListGuess(pageId: string, search: string, url: string, params: Record<string, unknown>): Promise<Envelope | undefined> | undefined {
  const k = listKey(pageId, search);
  const e = lists.get(k);
  lists.delete(k);
  listed.add(k);
  return fresh(e) && e!.key === requestKey(url, params) ? e!.p : undefined;
}

type Warmer = (pageId: string, search: string, guess: boolean) => void;
let warmer: Warmer | undefined;
const waiting: Array<Parameters<Warmer>> = [];

/** The renderer registers how a page starts its early requests (renderer/warm.ts). */
export function setPageWarmer(fn: Warmer) {
  warmer = fn;
  for (const w of waiting.splice(0)) fn(...w);
}

/** Starts page `pageId`'s early requests at `search`: at once when the renderer is there, else once it has loaded. */
export function warmPage(pageId: string, search: string, guess: boolean) {
  if (warmer) return warmer(pageId, search, guess);
  waiting.push([pageId, search, guess]);
  void import('@renderer/index').catch(() => undefined);
}

export function dropEarly() {
  schemas.clear();
  lists.clear();
}

/** Sign-out: nothing of this user's is kept. */
export function clearPrefetch() {
  dropEarly();
  listed.clear();
  boot = undefined;
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}
