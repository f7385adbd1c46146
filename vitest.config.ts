import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { alias } from './vite.config.ts';

export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  define: { __API_BASE__: JSON.stringify('/jeecg-boot') },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['tests/unit/**/*.test.{ts,tsx}', 'widgets/**/*.test.{ts,tsx}', 'renderer/**/*.test.{ts,tsx}', 'app/**/*.test.{ts,tsx}', 'core/**/*.test.{ts,tsx}', 'shared/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/helpers/unit-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/api-global-setup.ts'],
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        // Several processes on one PostgreSQL server, and fault injection: run by .ci/run only.
        extends: true,
        test: {
          name: 'cluster',
          sequence: { groupOrder: 2 },
          include: ['tests/cluster/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/api-global-setup.ts'],
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
