import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/** The front-end bench's floor app (bench/frontend/floor) → bench/.out/floor, served under /floor/. */
export default defineConfig({
  root: fileURLToPath(new URL('./floor', import.meta.url)),
  base: '/floor/',
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: fileURLToPath(new URL('../.out/floor', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 5000 },
});
