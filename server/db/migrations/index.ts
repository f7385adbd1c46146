import type { Migration } from '../migrate.js';

/** Append new migrations; never edit one that has shipped. */
export const migrations: Migration[] = [];
