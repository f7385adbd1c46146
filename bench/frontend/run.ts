import { execFileSync } from 'node:child_process';
import { createServer, request, type Server as HttpServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { roleId } from '../../server/seed/data/org.js';
import { type Figure, log, mainThreadCpuMs, median, percentile, processCpu } from '../lib.js';
import { API, OUT, prepareData, ROOT, startServer } from '../server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';

/**
 * Front-end bench (issue 7) in headless Chromium on the production build:
 * - navigation → "drawn and idle" of the schema-rendered list page demo/bench/BenchList (inside the
 *   real shell) at 50, 100 and 500 rows × 20 columns, against the floor: a hand-written React + antd
 *   Table page (bench/frontend/floor) showing the same rows from the same API. Interleaved, a cold
 *   browser context per navigation, median of RUNS; budget product ≤ 1.2 × floor;
 * - typing in the 200-field form demo/bench/BenchForm: keydown → the frame after the input painted;
 * - initial JS gzip per route (login and every menu route), measured by loading each route.
 * Run: npm run bench -- frontend (builds the product into bench/.out/dist and the floor into bench/.out/floor).
 * For iterations: BENCH_RUNS=3, BENCH_NO_BUILD=1 (reuse the builds), BENCH_LISTS_ONLY=1 (skip typing and JS per
 * route), BENCH_WATERFALL=1 (log one product navigation's requests and scripts, ms since navigation start).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIZES = [50, 100, 500];
const QUIET_MS = 500;
const API_PORT = Number(process.env.BENCH_FRONTEND_PORT ?? 18161);
const DIST = join(OUT, 'dist');
const FLOOR = join(OUT, 'floor');
const BUDGET = { ratio: 1.2, keystrokeMs: 50, loginKb: 350, routeKb: 900 };
const LIST_PATH = '/bench/list';
const FORM_PATH = '/bench/form';
const ROWS = '.ant-table-tbody > tr.ant-table-row';
// The product's CSP (no unsafe-eval) would refuse Playwright's string probes; bypassed for both pages alike.
const CONTEXT = { viewport: { width: 1440, height: 900 }, bypassCSP: true };

function build() {
  log('building the product (bench/.out/dist, with manifest) and the floor (bench/.out/floor)…');
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--outDir', DIST, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  execFileSync(process.execPath, [vite, 'build', '--config', 'bench/frontend/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' });
}

interface LoginResult {
  token: string;
  userInfo: unknown;
  sysAllDictItems?: unknown;
  tenantList?: Array<{ id: number }>;
}

async function call<T>(url: string, path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const r = await fetch(`${url}${API}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'X-Access-Token': token, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const j = (await r.json()) as { success: boolean; message: string; result: T };
  if (!j.success) throw new Error(`${path}: ${j.message}`);
  return j.result;
}

export async function signIn(url: string): Promise<LoginResult> {
  const r = await fetch(`${url}${API}/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Observe#2026' }) });
  const j = (await r.json()) as { code: number; message: string; result: LoginResult };
  if (j.code !== 200) throw new Error(`login failed: ${j.message}`);
  return j.result;
}

interface MenuNode {
  path: string;
  component?: string;
  hidden?: boolean;
  children?: MenuNode[];
  meta?: { internalOrExternal?: boolean; url?: string };
}

/**
 * The two bench screens as a configuration author adds them (menus via the API, granted to the admin
 * role) — the product itself is unchanged. Idempotent: the bench database is reused.
 */
export async function ensureMenus(url: string) {
  const token = (await signIn(url)).token;
  const roots = await call<Array<{ id: string; url?: string }>>(url, '/sys/permission/getSystemMenuList', token);
  const wanted = [
    { name: '性能基准列表', url: LIST_PATH, component: 'demo/bench/BenchList' },
    { name: '性能基准表单', url: FORM_PATH, component: 'demo/bench/BenchForm' },
  ];
  let added = false;
  for (const w of wanted)
    if (!roots.some((r) => r.url === w.url)) {
      await call(url, '/sys/permission/add', token, { method: 'POST', body: { ...w, menuType: 0, sortNo: 99, icon: 'dashboard' } });
      added = true;
    }
  if (!added) return;
  const ids = (await call<Array<{ id: string; url?: string }>>(url, '/sys/permission/getSystemMenuList', token)).filter((r) => wanted.some((w) => w.url === r.url)).map((r) => r.id);
  const role = roleId('admin');
  const have = await call<string[]>(url, `/sys/permission/queryRolePermission?roleId=${role}`, token);
  await call(url, '/sys/permission/saveRolePermission', token, { method: 'POST', body: { roleId: role, permissionIds: [...new Set([...have, ...ids])].join(',') } });
}

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves the floor under /floor/ and passes /jeecg-boot/* to the product server (same API, same origin for the floor). */
export function floorServer(apiUrl: string): Promise<{ url: string; server: HttpServer }> {
  const api = new URL(apiUrl);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.startsWith(`${API}/`)) {
      const up = request({ host: api.hostname, port: api.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.writeHead(502).end());
      req.pipe(up);
      return;
    }
    const rel = path.replace(/^\/floor\/?/, '') || 'index.html';
    const file = join(FLOOR, rel);
    if (!file.startsWith(FLOOR) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/**
 * Runs before any page script, identically for the floor and the product: the session in
 * localStorage (where the product keeps it after sign-in), and the probes of "drawn and idle":
 * `drawn` = the frame after `rows` table rows are in the DOM; long tasks, resource loads and
 * XHR/fetch in flight for the idle settle.
 */
export function initScript(session: LoginResult | null, rows: number, storage: Record<string, unknown> = {}): string {
  const expire = Date.now() + 86_400_000;
  const store = !session ? {} : {
    'Access-Token': { value: session.token, expire },
    Login_Userinfo: { value: session.userInfo, expire },
    UI_CACHE_DB_DICT_DATA: { value: session.sysAllDictItems ?? {}, expire },
    ...(session.tenantList?.length === 1 ? { TENANT_ID: { value: Number(session.tenantList[0]!.id), expire } } : {}),
  };
  return `(() => {
  const store = ${JSON.stringify({ ...store, ...storage })};
  for (const [k, v] of Object.entries(store)) localStorage.setItem(k, JSON.stringify(v));
  const s = { drawn: 0, longEnd: 0, resEnd: 0, reqEnd: 0, inflight: 0 };
  window.__bench = s;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) s.longEnd = Math.max(s.longEnd, e.startTime + e.duration); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) s.resEnd = Math.max(s.resEnd, e.responseEnd); }).observe({ type: 'resource', buffered: true });
  const done = () => { s.inflight--; s.reqEnd = performance.now(); };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...a) { s.inflight++; this.addEventListener('loadend', done); return send.apply(this, a); };
  const f = window.fetch;
  window.fetch = (...a) => { s.inflight++; const p = f(...a); p.then(done, done); return p; };
  const want = ${rows};
  if (!want) return;
  const mo = new MutationObserver(() => {
    if (document.querySelectorAll(${JSON.stringify(ROWS)}).length < want) return;
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => { s.drawn = performance.now(); }, 0));
  });
  document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { childList: true, subtree: true }));
})();`;
}

/** Waits for drawn (when asked) and then QUIET_MS without long tasks, loads or requests; returns that moment (ms since navigation start). */
export async function settle(page: Page, needDrawn: boolean, timeout = 120_000): Promise<number> {
  const fn = `(() => { const s = window.__bench; if (!s || (${needDrawn} && !s.drawn) || s.inflight > 0) return 0;
    const last = Math.max(s.drawn, s.longEnd, s.resEnd, s.reqEnd); return performance.now() - last >= ${QUIET_MS} ? last : 0; })()`;
  const h = await page.waitForFunction(fn, undefined, { timeout, polling: 50 });
  return (await h.jsonValue()) as number;
}

/** Emulated network conditions of a navigation: added round-trip time, download bandwidth (Mbit/s). */
export interface Network {
  latencyMs?: number;
  downloadMbps?: number;
}

/**
 * One navigation in a cold context, "drawn and idle" (ms). `storage`: extra localStorage entries;
 * `network`: a round-trip time added to every request and a download bandwidth (Chromium's emulation); `waterfall`: log its loads; `cpu`: the renderer main thread's CPU time (a trace); `machineCpu`: the
 * CPU time of every Chromium process and the servers from navigation start to "drawn" (/proc).
 */
export async function navigate(
  browser: Browser,
  session: LoginResult,
  url: string,
  rows: number,
  opts: { waterfall?: boolean; storage?: Record<string, unknown>; cpu?: number[]; machineCpu?: Array<Map<string, number>>; network?: Network } = {},
): Promise<number> {
  const ctx = await browser.newContext(CONTEXT);
  try {
    await ctx.addInitScript(initScript(session, rows, opts.storage));
    const page = await ctx.newPage();
    // A network's round trip and bandwidth (Chromium's emulation, on the bytes as sent), as on a campus network
    // instead of loopback. Set on a page of the same origin: a navigation to another site moves to a new renderer without it.
    const { latencyMs = 0, downloadMbps } = opts.network ?? {};
    if (latencyMs || downloadMbps) {
      await page.goto(`${new URL(url).origin}${API}/actuator/health`);
      const downloadThroughput = downloadMbps ? (downloadMbps * 1e6) / 8 : -1; // bytes per second
      await (await ctx.newCDPSession(page)).send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput, uploadThroughput: -1 });
    }
    if (opts.cpu) await browser.startTracing(page, { categories: ['devtools.timeline'] });
    const before = opts.machineCpu && processCpu();
    await page.goto(url, { waitUntil: 'commit' });
    if (before) {
      await page.waitForFunction('window.__bench && window.__bench.drawn > 0', undefined, { polling: 20, timeout: 120_000 });
      opts.machineCpu!.push(new Map([...processCpu()].map(([kind, ms]) => [kind, ms - (before.get(kind) ?? 0)])));
    }
    const t = await settle(page, true);
    if (opts.cpu) opts.cpu.push(mainThreadCpuMs(await browser.stopTracing()));
    const count = await page.locator(ROWS).count();
    if (count < rows) throw new Error(`${url}: ${count} rows drawn, expected ${rows}`);
    if (opts.waterfall) {
      const lines = (await page.evaluate(`[...performance.getEntriesByType('resource').map((e) => [e.startTime, e.responseEnd, new URL(e.name).pathname.replace(/^.*\\/(assets|jeecg-boot)\\//, '')]),
        [window.__bench.drawn, window.__bench.drawn, '(drawn)']].sort((a, b) => a[0] - b[0]).map(([s, e, n]) => Math.round(s) + '–' + Math.round(e) + ' ' + n)`)) as string[];
      log(`waterfall of ${url}:\n  ${lines.join('\n  ')}`);
    }
    return t;
  } finally {
    await ctx.close();
  }
}

/** keydown → the frame after the input's update painted, per keystroke, in the 200-field form. */
async function typing(browser: Browser, session: LoginResult, productUrl: string): Promise<number[]> {
  const ctx = await browser.newContext(CONTEXT);
  try {
    await ctx.addInitScript(initScript(session, 0));
    const page = await ctx.newPage();
    await page.goto(`${productUrl}${FORM_PATH}`);
    const input = page.getByLabel('字段1', { exact: true });
    await input.waitFor({ timeout: 120_000 });
    const fields = await page.locator('.ant-formily-item').count();
    if (fields < 200) throw new Error(`the bench form shows ${fields} fields, expected 200`);
    await settle(page, false);
    await input.click();
    await page.evaluate(`(() => {
      window.__keys = [];
      let t0 = 0;
      document.addEventListener('keydown', (e) => { t0 = e.timeStamp; }, true);
      document.addEventListener('input', () => {
        const start = t0;
        requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => window.__keys.push(performance.now() - start); c.port2.postMessage(0); });
      }, true);
    })()`);
    const text = 'supervisor lecture observation record abc';
    for (const ch of text) {
      await page.keyboard.press(ch === ' ' ? 'Space' : ch);
      await page.waitForTimeout(80);
    }
    await page.waitForTimeout(500);
    const typed = await input.inputValue();
    if (typed !== text) throw new Error(`typed "${typed}", expected "${text}"`);
    return (await page.evaluate('window.__keys')) as number[];
  } finally {
    await ctx.close();
  }
}

function leafRoutes(menu: MenuNode[]): string[] {
  const out: string[] = [];
  const walk = (ns: MenuNode[]) => {
    for (const n of ns) {
      if (n.children?.length) walk(n.children);
      else if (!n.meta?.internalOrExternal && !n.path.includes(':') && !/^https?:/.test(n.path) && n.path.startsWith('/')) out.push(n.path);
    }
  };
  walk(menu);
  return [...new Set(out)];
}

/** Initial JS per route: every script the page loads until idle, gzip-sized as the build compressed it. */
async function jsPerRoute(browser: Browser, session: LoginResult, productUrl: string): Promise<Array<{ route: string; kb: number; files: number }>> {
  const gz = new Map<string, number>();
  const size = (path: string) => {
    if (!gz.has(path)) {
      // What the server sends a gzip-only browser: the build's own .gz (vite.config.ts, `precompress`); files
      // under 1 kB have none and are gzipped here.
      const file = join(DIST, path);
      gz.set(path, existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : existsSync(file) ? gzipSync(readFileSync(file)).length : 0);
    }
    return gz.get(path)!;
  };
  const menu = (await call<{ menu: MenuNode[] }>(productUrl, '/sys/permission/getUserPermissionByToken', session.token)).menu;
  const routes = ['/user/login', ...leafRoutes(menu)];
  const out: Array<{ route: string; kb: number; files: number }> = [];
  const signedOut = await browser.newContext(CONTEXT);
  const signedIn = await browser.newContext(CONTEXT);
  await signedOut.addInitScript(initScript(null, 0));
  await signedIn.addInitScript(initScript(session, 0));
  try {
    for (const route of routes) {
      const page = await (route === '/user/login' ? signedOut : signedIn).newPage();
      await page.goto(`${productUrl}${route}`);
      await settle(page, false).catch(() => 0);
      const scripts = (await page.evaluate(`performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js'))`)) as string[];
      const uniq = [...new Set(scripts)];
      out.push({ route, kb: uniq.reduce((a, p) => a + size(p), 0) / 1024, files: uniq.length });
      await page.close();
    }
  } finally {
    await signedOut.close();
    await signedIn.close();
  }
  return out;
}

export async function benchFrontend(): Promise<Figure[]> {
  const started = Date.now();
  if (!process.env.BENCH_NO_BUILD) build();
  const target = prepareData(2000, ''); // the demo volume on embedded PGlite, whatever BENCH_DATABASE_URL says
  mkdirSync(OUT, { recursive: true });
  const config = join(OUT, 'frontend-config.json');
  writeFileSync(config, JSON.stringify({ staticDir: DIST }));
  const server = await startServer(target, API_PORT, { CONFIG_FILE: config });
  const floor = await floorServer(server.url);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const figures: Figure[] = [];
  try {
    await ensureMenus(server.url);
    const session = await signIn(server.url);
    const urls = (n: number) => ({ floor: `${floor.url}/floor/?n=${n}`, product: `${server.url}${LIST_PATH}?pageSize=${n}` });
    // Warm-up (server caches and JIT, page-schema compile; the machine settling after the builds), not counted.
    for (let i = 0; i < 3; i++) {
      await navigate(browser, session, urls(50).floor, 50);
      await navigate(browser, session, urls(50).product, 50);
    }
    if (process.env.BENCH_WATERFALL) await navigate(browser, session, urls(50).product, 50, { waterfall: true });
    for (const n of SIZES) {
      const t = { floor: [] as number[], product: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, alternating which goes first.
        for (const which of i % 2 ? (['product', 'floor'] as const) : (['floor', 'product'] as const)) t[which].push(await navigate(browser, session, urls(n)[which], n));
      }
      log(`${n} rows: floor ${t.floor.map(Math.round).join(' ')} ms; product ${t.product.map(Math.round).join(' ')} ms`);
      const f = median(t.floor);
      const p = median(t.product);
      figures.push(
        { name: `list ${n} rows × 20 columns, floor (antd Table), median of ${RUNS}`, value: f, unit: 'ms' },
        { name: `list ${n} rows × 20 columns, product (schema page in the shell), median of ${RUNS}`, value: p, unit: 'ms' },
        { name: `list ${n} rows: product / floor`, value: p / f, unit: '×', budget: BUDGET.ratio },
      );
    }
    if (process.env.BENCH_LISTS_ONLY) return figures;
    const typed = await typing(browser, session, server.url);
    log(`keystrokes in order (ms): ${typed.map(Math.round).join(' ')}`);
    const keys = [...typed].sort((a, b) => a - b);
    figures.push(
      { name: `typing in the 200-field form, keystroke → painted, median (${keys.length} keys)`, value: percentile(keys, 50), unit: 'ms', budget: BUDGET.keystrokeMs },
      { name: 'typing in the 200-field form, keystroke → painted, p95', value: percentile(keys, 95), unit: 'ms', budget: BUDGET.keystrokeMs },
    );
    const js = await jsPerRoute(browser, session, server.url);
    const login = js.find((r) => r.route === '/user/login')!;
    const routes = js.filter((r) => r !== login).sort((a, b) => b.kb - a.kb);
    log(`initial JS gzip, top routes:\n${routes.slice(0, 8).map((r) => `  ${r.route}: ${Math.round(r.kb)} kB (${r.files} files)`).join('\n')}`);
    figures.push(
      { name: 'initial JS gzip, /user/login', value: login.kb, unit: 'kB', budget: BUDGET.loginKb },
      { name: `initial JS gzip, largest of ${routes.length} menu routes (${routes[0]?.route})`, value: routes[0]?.kb ?? NaN, unit: 'kB', budget: BUDGET.routeKb },
      { name: `initial JS gzip, median menu route`, value: median(routes.map((r) => r.kb)), unit: 'kB' },
    );
  } finally {
    await browser.close();
    floor.server.close();
    await server.stop();
  }
  figures.push({ name: 'suite run time (incl. builds)', value: (Date.now() - started) / 1000, unit: 's' });
  return figures;
}
