import { ensureTemplate } from './template-db.js';

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  provide('dbTemplate', await ensureTemplate());
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: string;
  }
}
