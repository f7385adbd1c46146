import { getDefaultStore } from 'jotai';
import { axiosInstance, type Envelope } from '@/http/client';
import { normalPath } from '@/router/menu';
import { userInfoAtom } from '@/session/store';

/**
 * Early page requests. Opening a screen directly (a reload, a link) would otherwise wait for
 * entry → menu → layout render → page-schema request → page render → first list request. Instead:
 * - as soon as the menu arrives, the page's schema request starts (before the layout renders), and
 *   the first list request as soon as the schema is there (renderer/warm.ts);
 * - at boot, the same requests start in parallel with the menu, as "guesses", for the page this
 *   user's previous menu (kept in localStorage) routed the path to, or else the page the server says
 *   the path leads to (GET /schema/route): quiet (no error UI; an HTTP failure resolves to undefined
 *   and the page asks again the normal way), dropped when the menu routes the path elsewhere.
 * A page uses an early request only when it is exactly the request it would have made (same page,
 * URL search, url and parameters), within GUESS_TTL_MS, until it commits. The server checks permissions anyway.
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
/** The boot-time guess: the path opened and the page it is believed to lead to (unknown while the server is asked). */
interface Boot {
  path: string;
  pageId?: string;
  /** GET /schema/route in flight (the page was unknown at boot). */
  route?: Promise<Envelope | undefined>;
}
let boot: Boot | undefined;

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

const listKey = (pageId: string, search: string) => `${pageId}?${search.replace(/^\?/, '')}`;
export const requestKey = (url: string, params: Record<string, unknown>) => `${url} ${JSON.stringify(params)}`;
const fresh = (e: Early | undefined) => !!e && Date.now() - e.at < GUESS_TTL_MS;
/** The list request registered under `k` when it is fresh and exactly `key`. */
const sameList = (k: string, key: string) => {
  const e = lists.get(k);
  return fresh(e) && e!.key === key ? e : undefined;
};

/** Registers `pageId`'s early schema request: `p`, or a new quiet one. */
function startSchema(pageId: string, p: Promise<Envelope | undefined> = quietGet(`/schema/page/${pageId}`)) {
  schemas.set(pageId, { at: Date.now(), key: pageId, p });
}

/** A quiet GET: the same request as http.get (the interceptors add token, tenant and _t), without the error UI. */
export function quietGet(url: string, params?: Record<string, unknown>): Promise<Envelope | undefined> {
  return axiosInstance
    .request<Envelope>({ method: 'GET', url, params, validateStatus: () => true })
    .then((r) => (r.status === 200 && r.data && typeof r.data === 'object' ? r.data : undefined), () => undefined);
}

/** GET /schema/route's answer: the page a path leads to, with its schema. */
interface RouteAnswer {
  component?: string;
  schema?: unknown;
}

/** The schema envelope inside a /schema/route answer, when it leads to `pageId`. */
function routeSchema(r: Envelope | undefined, pageId: string): Envelope | undefined {
  const found = r?.success ? (r.result as RouteAnswer | null) : undefined;
  return found?.component === pageId && found.schema ? { ...r!, result: found.schema } : undefined;
}

/**
 * At boot, signed in, on `path` (URL `search`): when this user's previous menu routed `path` to a
 * page, starts that page's early requests (quiet guesses) at once; otherwise (a first visit on this
 * browser, or a path new to the menu) asks the server which page the path leads to for this user
 * (GET /schema/route, with the page's schema) and starts them as soon as it answers — unless the menu
 * has answered first, which then starts them itself. Resolves to the page guessed, if any.
 */
export function startBootPrefetch(path: string, search: string): Promise<string | undefined> {
  const user = currentUser();
  if (!user) return Promise.resolve(undefined);
  const at = normalPath(path);
  const known = readRoutes(user)[at];
  const ask: Boot = { path: at, pageId: known };
  boot = ask;
  if (known) {
    startSchema(known);
    warmPage(known, search, true);
    return Promise.resolve(known);
  }
  ask.route = quietGet('/schema/route', { path: at });
  return ask.route.then((r) => {
    const pageId = r?.success ? (r.result as RouteAnswer | null)?.component : undefined;
    const schema = pageId ? routeSchema(r, pageId) : undefined;
    if (boot !== ask || !pageId || !schema) return undefined;
    ask.pageId = pageId;
    startSchema(pageId, Promise.resolve(schema));
    warmPage(pageId, search, true);
    return pageId;
  });
}

/**
 * The menu arrived (path → page id): drops the boot guesses when it routes the boot path elsewhere,
 * remembers the map for the next boot, and returns the page id it routes `path` to.
 */
export function onMenu(routes: Record<string, string>, path: string): string | undefined {
  const at = normalPath(path);
  const pageId = routes[at];
  // The menu answered before the boot's route question: its answer carries this page's schema when it
  // leads the path to the same page (else the schema is asked for on its own).
  const route = boot?.route && !boot.pageId && boot.path === at ? boot.route : undefined;
  if (boot && routes[boot.path] !== boot.pageId) dropEarly();
  boot = undefined;
  // The page's schema request goes out now, without waiting for the warmer's chunk (which takes it over).
  if (pageId && !fresh(schemas.get(pageId)))
    startSchema(pageId, route?.then((r) => routeSchema(r, pageId) ?? quietGet(`/schema/page/${pageId}`)));
  const user = currentUser();
  if (user)
    try {
      localStorage.setItem(KEY, JSON.stringify({ user, routes } satisfies Stored));
    } catch {
      /* storage full or denied: no guess next time */
    }
  return pageId;
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
  if (listed.has(k) || sameList(k, key)) return false;
  lists.set(k, { at: Date.now(), key, p: start() });
  return true;
}

/**
 * A list page's first request: the early one when it is exactly this request (page, URL search, url,
 * parameters), else `start()`'s. Kept until the page commits (`firstListDone`): React may discard a
 * render before committing it (an interrupted transition, a suspension) and mount the page again,
 * which then gets the same request instead of sending another.
 */
export function firstList(pageId: string, search: string, url: string, params: Record<string, unknown>, start: () => Promise<Envelope | undefined>): Promise<Envelope | undefined> {
  const k = listKey(pageId, search);
  const key = requestKey(url, params);
  listed.add(k);
  const e = sameList(k, key);
  if (e) return e.p;
  const p = start();
  lists.set(k, { at: Date.now(), key, p });
  return p;
}

/** The page has committed with its first request: a later visit asks afresh. */
export function firstListDone(pageId: string, search: string) {
  lists.delete(listKey(pageId, search));
}

/** The page warmer (renderer/warm.ts, in the renderer chunk), loaded at boot. */
export const loadWarmer = () => import('@renderer/warm');

/** Starts page `pageId`'s early requests at `search` (as soon as the warmer's chunk is there). */
export function warmPage(pageId: string, search: string, guess: boolean) {
  void loadWarmer().then((m) => m.warmPage(pageId, search, guess), () => undefined);
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
