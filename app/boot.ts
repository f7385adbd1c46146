import { getDefaultStore } from 'jotai';
import { installHttpErrorHandling } from '@core/http/errors';
import { tokenAtom } from '@core/session/store';
import { prefetchPermissions } from '@core/session/actions';
import { installWarmer, loadWarmer, peekEarly, startBootPrefetch } from '@core/session/prefetch';
import { moduleLoader } from '@core/ui/moduleLoader';

/*
 * The first module main.tsx evaluates: light (axios, jotai, the session modules — no react-dom, no
 * antd), so a signed-in visit's requests leave while the rest of the entry (React, antd, the app)
 * is still being evaluated, and the main layout's and renderer's downloads start with them.
 */

installHttpErrorHandling();
installWarmer(() => import('@renderer/warm'));

/** The main layout's chunk (App's lazy MainApp waits for the same download). */
export const loadMainApp = moduleLoader(() => import('@app/layouts/MainApp'));
/** The renderer's chunk (schema pages: app/router/resolve.tsx waits for the same download). */
export const loadRenderer = moduleLoader(() => import('@renderer/index'));

/**
 * Signed in on a main-layout path: the menu, the main layout, the renderer and the page's first
 * requests (core/session/prefetch.ts) start now.
 */
function bootPrefetch(): Promise<unknown> | undefined {
  const path = window.location.pathname;
  if (!getDefaultStore().get(tokenAtom) || /^\/(user|oauth2-app|403|404|500)(\/|$)/.test(path)) return undefined;
  // Requests first: the browser queues requests beyond six per host in the order they were made, and
  // the page's route question (and its list request, after the warmer's chunk) are on the critical path.
  prefetchPermissions();
  preloadPageWidget(); // before startBootPrefetch takes the early route answer
  startBootPrefetch(path, window.location.search);
  void loadWarmer().catch(() => undefined);
  return Promise.all([loadMainApp(), loadRenderer()]).catch(() => undefined);
}

/**
 * A page that is one widget (a `dashboard` with `widget` and no `panels`, e.g. 扫码听课 on a phone): its
 * code starts loading as soon as the early route answer names it and the widget registry is there, beside
 * the renderer, instead of after it (~0.5 s sooner on a slow phone link).
 */
function preloadPageWidget() {
  const route = peekEarly('route');
  if (!route) return;
  void route
    .then(async (answer) => {
      const schema = (answer?.success ? (answer.result as { schema?: { kind?: string; widget?: string; panels?: unknown[] } | null }) : undefined)?.schema;
      if (schema?.kind !== 'dashboard' || !schema.widget || schema.panels?.length) return;
      const [, registry] = await Promise.all([import('@widgets/index'), import('@widgets/registry')]);
      await registry.preloadWidget(schema.widget);
    })
    .catch(() => undefined);
}

/**
 * Settled when the main layout and the renderer started at boot have arrived (or failed); undefined
 * when boot did not start them. The entry renders after it: a first render before them would commit
 * a spinner (a Suspense fallback), and React then holds back the page's reveal until 500 ms after
 * that spinner (its fallback throttle) — about half a second of nothing on every signed-in reload.
 */
export const layoutAtBoot = bootPrefetch();
