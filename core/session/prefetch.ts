import { getDefaultStore } from 'jotai';
import { axiosInstance, type Envelope } from '@core/http/client';
import { normalPath } from '@core/menu';
import { tokenAtom } from '@core/session/store';

/**
 * Early page requests. Opening a screen directly (a reload, a link) would otherwise wait for
 * entry → menu → layout render → page-schema request → page render → first list request. Instead:
 * - as soon as the menu arrives, the page's schema request starts (before the layout renders), and
 *   the first list request as soon as the schema is there (renderer/warm.ts);
 * - at boot, the same requests start in parallel with the menu, as "guesses", for the page the server
 *   says the path leads to (GET /schema/route, asked by core/session/early-requests.ts while the page
 *   loaded; its answer carries the schema and a list page's first rows): quiet (no error UI; an HTTP
 *   failure resolves to undefined and the page asks again the normal way), dropped when the menu
 *   routes the path elsewhere.
 * A page uses an early request only when it is exactly the request it would have made (same page,
 * URL search, url and parameters), within GUESS_TTL_MS, until it commits. The server checks permissions anyway.
 */
/** An early request older than this is not used (it was meant for the page being opened). */
export const GUESS_TTL_MS = 15_000;

interface Early {
  at: number;
  key: string;
  p: Promise<Envelope | undefined>;
  /** The answer, when it was known on registering (a list answer that came with the route answer). */
  value?: Envelope;
}

const schemas = new Map<string, Early>();
const lists = new Map<string, Early>();
/** List requests a page has already asked for (an early one arriving later is not started). */
const listed = new Set<string>();
/** The boot-time guess: the path opened and the page the server says it leads to (unknown while it is asked). */
interface Boot {
  path: string;
  pageId?: string;
  /** The page URL's search. */
  search: string;
  /** GET /schema/route. */
  route: Promise<Envelope | undefined>;
}
let boot: Boot | undefined;

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

/** GET /schema/route's answer: the page a path leads to, with its schema and, for a list page, its first list request's answer. */
interface RouteAnswer {
  component?: string;
  schema?: unknown;
  list?: { url: string; params: Record<string, unknown>; answer: Envelope };
}

type EarlyName = 'permissions' | 'route' | 'notices';

/** What core/session/early-requests.ts (inline in index.html) asked for before the entry loaded. */
type EarlyRequests = { path: string; search: string; token: string; arrived?: Partial<Record<EarlyName, Envelope>> } & {
  [name in EarlyName]?: Promise<Envelope | undefined>;
};

/** The early requests, when they were asked for this session and this page. */
function earlyRequests(): EarlyRequests | undefined {
  const early = (window as { __early?: EarlyRequests }).__early;
  const same = !!early && early.token === getDefaultStore().get(tokenAtom) && early.path === window.location.pathname && early.search === window.location.search;
  return same ? early : undefined;
}

/**
 * An answer core/session/early-requests.ts asked for while the page loaded (consumed once): the menu,
 * where the path leads, or the header's notice list. Undefined when it did not ask, or asked for
 * another session or page. The promise resolves to undefined on anything but HTTP 200 (the caller
 * then asks the usual way).
 */
export function takeEarly(name: EarlyName): Promise<Envelope | undefined> | undefined {
  const early = (window as { __early?: EarlyRequests }).__early;
  const p = early?.[name];
  if (!early || !p) return undefined;
  early[name] = undefined;
  return earlyRequests() ? p : undefined;
}

/**
 * The successful answer to early request `name` if it has already come in and is not yet taken, for a
 * first render that shows it at once (not consumed: the component then takes it with `takeEarly`).
 */
export function arrivedEarly(name: EarlyName): Envelope | undefined {
  const early = earlyRequests();
  const answer = early?.[name] && early.arrived?.[name];
  return answer?.success ? answer : undefined;
}

/** Early request `name`'s answer when it comes in, without taking it (undefined when it was not asked for this session and page). */
export function peekEarly(name: EarlyName): Promise<Envelope | undefined> | undefined {
  const early = earlyRequests();
  return early?.[name];
}

/** Registers what a route answer leading to `pageId` carries: the page's schema and its first list request's answer. */
function adoptRoute(r: Envelope | undefined, pageId: string, search: string): Envelope | undefined {
  const schema = routeSchema(r, pageId);
  const list = schema && (r!.result as RouteAnswer).list;
  if (list) putListGuess(pageId, search, list.url, list.params, () => Promise.resolve(list.answer), list.answer);
  return schema;
}

/** The schema envelope inside a /schema/route answer, when it leads to `pageId`. */
function routeSchema(r: Envelope | undefined, pageId: string): Envelope | undefined {
  const found = r?.success ? (r.result as RouteAnswer | null) : undefined;
  return found?.component === pageId && found.schema ? { ...r!, result: found.schema } : undefined;
}

/**
 * At boot, signed in, on `path` (URL `search`): where the path leads for this user (GET /schema/route,
 * the answer core/session/early-requests.ts asked for while the page loaded, else asked now), and
 * that page's early requests as soon as it answers — its schema and first rows come with the answer —
 * unless the menu has answered first, which then takes them over. Resolves to the page guessed, if any.
 */
export function startBootPrefetch(path: string, search: string): Promise<string | undefined> {
  const at = normalPath(path);
  const ask: Boot = { path: at, search, route: takeEarly('route') ?? quietGet('/schema/route', { path: at, search }) };
  boot = ask;
  return ask.route.then((r) => {
    const pageId = r?.success ? (r.result as RouteAnswer | null)?.component : undefined;
    if (boot !== ask || !pageId) return undefined;
    const schema = adoptRoute(r, pageId, search);
    if (!schema) return undefined;
    ask.pageId = pageId;
    startSchema(pageId, Promise.resolve(schema));
    warmPage(pageId, search, true);
    return pageId;
  });
}

/**
 * The menu arrived (path → page id): drops the boot guesses when it routes the boot path elsewhere,
 * and returns the page id it routes `path` to.
 */
export function onMenu(routes: Record<string, string>, path: string): string | undefined {
  const at = normalPath(path);
  const pageId = routes[at];
  // The menu answered before the boot's route question: its answer carries this page's schema (and
  // first rows) when it leads the path to the same page (else the schema is asked for on its own).
  const pending = boot && !boot.pageId && boot.path === at ? boot : undefined;
  if (boot && routes[boot.path] !== boot.pageId) dropEarly();
  boot = undefined;
  // The page's schema request goes out now, without waiting for the warmer's chunk (which takes it over).
  if (pageId && !fresh(schemas.get(pageId)))
    startSchema(pageId, pending?.route.then((r) => adoptRoute(r, pageId, pending.search) ?? quietGet(`/schema/page/${pageId}`)));
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
export function putListGuess(pageId: string, search: string, url: string, params: Record<string, unknown>, start: () => Promise<Envelope | undefined>, value?: Envelope): boolean {
  const k = listKey(pageId, search);
  const key = requestKey(url, params);
  if (listed.has(k) || sameList(k, key)) return false;
  lists.set(k, { at: Date.now(), key, p: start(), value });
  return true;
}

/**
 * The answer to a list page's first request when it is already at hand (it came with the route
 * answer, core/session/early-requests.ts) and is exactly this request: the page draws its rows in its
 * first render. Not consumed (firstList takes the request as usual).
 */
export function knownFirstList(pageId: string, search: string, url: string, params: Record<string, unknown>): Envelope | undefined {
  return sameList(listKey(pageId, search), requestKey(url, params))?.value;
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

type Warmer = { warmPage(pageId: string, search: string, guess: boolean): void };
let warmerLoader: () => Promise<Warmer> = () => Promise.reject(new Error('no page warmer installed'));
/** The app installs the page warmer's loader (renderer/warm.ts, in the renderer chunk): core never imports the renderer. */
export function installWarmer(load: () => Promise<Warmer>) {
  warmerLoader = load;
}
/** The page warmer, loaded at boot. */
export const loadWarmer = () => warmerLoader();

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
}
