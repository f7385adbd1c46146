// First: its requests leave before the rest of the entry is evaluated (app/boot.ts).
import { layoutAtBoot } from './boot';
// antd's pre-built component styles (production builds, vite.config.ts), then antd's reset and the app's
// base styles, ahead of every component's: one stylesheet.
import 'virtual:antd-static.css';
import './app.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { registerOfflineShell } from '@core/offline/shell';

// A transition: the first render (the whole layout and page, ~0.2 s) yields, so the page's early
// requests (core/session/prefetch.ts) go out as soon as their answers come in, not after it.
const render = () =>
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
// A signed-in visit renders once its main layout and renderer are there (app/boot.ts); index.html shows a spinner meanwhile.
if (layoutAtBoot) void layoutAtBoot.then(render);
else render();

// The offline shell: a phone can reopen the observation form without network (core/offline/shell.ts).
registerOfflineShell();
