import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { alias } from '../../vite.config.ts';

/** The editable-table bench page (bench/editable-table) → bench/.out/editable-table, production mode. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  mode: 'production',
  plugins: [react()],
  resolve: { alias },
  define: { __API_BASE__: JSON.stringify('/jeecg-boot') },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../.out/editable-table', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 5000,
    rollupOptions: { input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), floor: fileURLToPath(new URL('./floor.html', import.meta.url)) } },
  },
});
