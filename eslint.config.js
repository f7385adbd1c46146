import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './scripts/eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'storybook-static', '.tmp', 'data', 'test-results', 'playwright-report', 'bench/.out'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, layers },
    rules: {
      // shared ← core ← widgets ← renderer ← app; server → shared (scripts/eslint/layers.js).
      'layers/direction': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Schemas drive the product: nothing may evaluate strings as code (DESIGN §6, CSP without unsafe-eval).
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  // The offline shell's service worker (issue 30) runs in the service-worker global scope.
  {
    files: ['public/sw.js'],
    languageOptions: { sourceType: 'script', globals: Object.fromEntries(['self', 'caches', 'fetch', 'URL', 'Request', 'Response', 'clients'].map((g) => [g, 'readonly'])) },
  },
);
