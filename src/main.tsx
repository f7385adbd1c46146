// First: its requests leave before the rest of the entry is evaluated (src/boot.ts).
import { layoutAtBoot } from './boot';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import 'antd/dist/reset.css';

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// A signed-in visit renders once its main layout and renderer are there (src/boot.ts); index.html shows a spinner meanwhile.
if (layoutAtBoot) void layoutAtBoot.then(render);
else render();
