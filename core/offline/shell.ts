/**
 * Registers the offline shell (public/sw.js) in production builds, once the page has loaded, and hands
 * it the build files this page already loaded (they were fetched before it controlled the page).
 * `page`: the path of a page of its own (the light entry of 扫码听课, app/scan.tsx), which the worker
 * keeps for an offline visit to that path, beside the main shell's page.
 * `clearOfflineCache` drops the copies of API answers (sign-out: they are the user's data).
 */
const API_CACHE = 'api-v1';

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
  if (document.readyState === 'complete') setTimeout(start, 0);
  else window.addEventListener('load', () => setTimeout(start, 0), { once: true });
}

export function clearOfflineCache(): void {
  if (typeof caches !== 'undefined') void caches.delete(API_CACHE).catch(() => undefined);
}
