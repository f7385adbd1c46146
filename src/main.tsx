import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, bootPrefetch } from './App';
import 'antd/dist/reset.css';

bootPrefetch();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
