import { getDefaultStore } from 'jotai';
import { installHttpErrorHandling } from '@/http/errors';
import { tokenAtom } from '@/session/store';
import { prefetchPermissions } from '@/session/actions';
import { loadWarmer, startBootPrefetch } from '@/session/prefetch';

/*
 * The first module main.tsx evaluates: light (axios, jotai, the session modules — no react-dom, no
 * antd), so a signed-in visit's requests leave while the rest of the entry (React, antd, the app)
 * is still being evaluated, and the main layout's and renderer's downloads start with them.
 */

installHttpErrorHandling();

/** The main layout's chunk (App's lazy MainApp waits for the same download). */
export const loadMainApp = () => import('@/layouts/MainApp');

/**
 * Signed in on a main-layout path: the menu, the main layout, the renderer and the page's first
 * requests (src/session/prefetch.ts) start now.
 */
function bootPrefetch() {
  const path = window.location.pathname;
  if (!getDefaultStore().get(tokenAtom) || /^\/(user|oauth2-app|403|404|500)(\/|$)/.test(path)) return;
  prefetchPermissions();
  void loadMainApp().catch(() => undefined);
  void import('@renderer/index').catch(() => undefined);
  void loadWarmer().catch(() => undefined);
  startBootPrefetch(path, window.location.search);
}

bootPrefetch();
