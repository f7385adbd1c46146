/**
 * Registers the offline shell (public/sw.js) in production builds, once the page has loaded and settled, and hands
 * it the build files this page already loaded (they were fetched before it controlled the page).
 * `page`: the path of a page of its own (the light entry of 扫码听课, app/scan.tsx), which the worker
 * keeps for an offline visit to that path, beside the main shell's page.
 * `clearOfflineCache` drops the copies of API answers (sign-out: they are the user's data).
 */
const API_CACHE = 'api-v1';
/** How long after load the worker is registered: the first page's own requests and drawing come first. */
const SETTLE_MS = 1500;

/** The screens the offline shell is for (the observation form): a visit to one — or a sign-in leading to one — registers it at once. */
const OFFLINE_PATHS = ['/lecture/scan'];
const offlineTarget = () => {
  const redirect = new URLSearchParams(location.search).get('redirect') ?? '';
  return OFFLINE_PATHS.some((p) => location.pathname === p || redirect.startsWith(p));
};

export function registerOfflineShell({ page }: { page?: string } = {}): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const start = () =>
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((reg) => {
        const urls = performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((u) => u.startsWith(`${location.origin}/assets/`));
        reg.active?.postMessage({ type: 'precache', urls, page });
      })
      .catch(() => undefined);
  // A first install fetches the whole shell again (the worker's precache): not while the first page is drawn, where it
  // competed with the page the user waits for, but a while after load, when the main thread is idle. A page the worker
  // already serves registers at once (the files came from its cache; nothing to compete with), and so does the
  // observation form's (its API answers are kept from its first request, for a tab reopened offline).
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(start, { timeout: 3000 }) : start());
  const later = () => (navigator.serviceWorker.controller || page || offlineTarget() ? setTimeout(start, 0) : setTimeout(idle, SETTLE_MS));
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

export function clearOfflineCache(): void {
  if (typeof caches !== 'undefined') void caches.delete(API_CACHE).catch(() => undefined);
}
