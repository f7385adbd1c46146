import type { AppConfig } from './config.js';
import type { DB } from './db/index.js';
import type { EntityRegistry } from './crud/entities.js';

/**
 * What every module of the server shares. `db` is set once the database is open; requests are
 * refused with 503 until `ready` is true (see app.ts), so handlers may use it freely.
 */
export interface ServerContext {
  cfg: AppConfig;
  db: DB;
  dbKind: 'pglite' | 'pg';
  entities: EntityRegistry;
  ready: boolean;
  /** Set while shutting down: new requests get 503, in-flight ones finish. */
  draining: boolean;
}
