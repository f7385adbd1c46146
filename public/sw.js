/*
 * The offline shell (issue 30): a phone that loses the network in a classroom can still reopen the
 * observation form. Hashed build files are served from the cache first (they never change); the app's
 * page and the API's GET answers come from the network, and from the last copy only when the network
 * fails. Nothing but GET is touched: saves always go to the server (offline drafts live in the page,
 * core/offline/drafts.ts). The page clears the API copies at sign-out (core/offline/shell.ts).
 */
const SHELL = 'shell-v1';
const API = 'api-v1';
const API_BASE = '/jeecg-boot/';
// Paths with a page of their own (a light entry: 扫码听课's scan.html, app/scan.tsx), kept under their own key; an
// offline visit without that copy falls back to the main shell's page, which draws every path.
const PAGES = { '/lecture/scan': '/__scan' };

// At install: the app's page and the build files it names (the entry, its chunks and its stylesheet; the rest come
// with the page's message). Scripts cached while the worker installs get their compiled code cached with them (Chromium), so a
// repeat visit does not compile them again (issue 30 bench: repeat visit ≤ 1.5 s on a slow phone).
async function precacheShell() {
  try {
    const c = await caches.open(SHELL);
    const res = await fetch('/');
    if (!res.ok) return;
    const html = await res.clone().text();
    await c.put('/__shell', res);
    const urls = [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) || [])];
    await Promise.all(urls.map((u) => c.match(u).then((hit) => hit || c.add(u)).catch(() => undefined)));
  } catch {
    // Offline or refused: the page's precache message fills the cache later.
  }
}

self.addEventListener('install', (e) => {
  self.skipWaiting();
  e.waitUntil(precacheShell());
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

// The page lists the build files it loaded before this worker controlled it.
self.addEventListener('message', (e) => {
  const d = e.data || {};
  if (d.type !== 'precache' || !Array.isArray(d.urls)) return;
  const assets = d.urls.filter((u) => typeof u === 'string' && new URL(u, self.location.origin).pathname.startsWith('/assets/'));
  e.waitUntil(
    caches.open(SHELL).then((c) =>
      Promise.all([
        // The app's page (the same for every route), for a navigation without network.
        c.match('/__shell').then((hit) => hit || fetch('/').then((res) => (res.ok ? c.put('/__shell', res) : undefined))).catch(() => undefined),
        // The page of a light entry that sent this list (its files are in it); online navigations keep it fresh.
        typeof d.page === 'string' && PAGES[d.page]
          ? c.match(PAGES[d.page]).then((hit) => hit || fetch(d.page).then((res) => (res.ok ? c.put(PAGES[d.page], res) : undefined))).catch(() => undefined)
          : undefined,
        ...assets.map((u) => c.match(u).then((hit) => hit || c.add(u).catch(() => undefined))),
      ]),
    ),
  );
});

async function networkFirst(req, cacheName, key, fallbackKey) {
  const cache = await caches.open(cacheName);
  try {
    const res = await fetch(req);
    if (res.ok && res.type === 'basic') cache.put(key || req, res.clone()).catch(() => undefined);
    return res;
  } catch (err) {
    const hit = (await cache.match(key || req)) || (fallbackKey && (await cache.match(fallbackKey)));
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) cache.put(req, res.clone()).catch(() => undefined);
  return res;
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') return e.respondWith(networkFirst(req, SHELL, PAGES[url.pathname] || '/__shell', '/__shell'));
  if (url.pathname.startsWith('/assets/')) return e.respondWith(cacheFirst(req));
  // Files and downloads are not kept (large, and private); JSON answers are.
  if (url.pathname.startsWith(API_BASE) && !/\/(sys\/common\/static|exportXls|qrSheet|download)/.test(url.pathname) && req.headers.get('upgrade') !== 'websocket') {
    // Kept under the url without its cache-busting `_t` parameter.
    url.searchParams.delete('_t');
    return e.respondWith(networkFirst(req, API, url.href));
  }
});
