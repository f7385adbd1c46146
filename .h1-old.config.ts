import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { alias } from '/work/main/vite.config.ts';
export default defineConfig({
  root: '/work/main/bench/editable-table', base: './', mode: 'production', plugins: [react()],
  resolve: { alias: { ...alias, '@widgets': '/work/main/.h1-old/widgets' } },
  define: { __API_BASE__: JSON.stringify('/jeecg-boot') }, logLevel: 'warn',
  build: { outDir: '/tmp/h1/old-out', emptyOutDir: true, chunkSizeWarningLimit: 5000 },
});
