import type { AppConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { DbStorage } from './db.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { FileStorage } from './types.js';

export type { ByteRange, FileStorage, PendingUpload, StoredObject } from './types.js';
export { isValidKey } from './types.js';

/** The configured kind: `auto` is PostgreSQL chunks with DATABASE_URL (a cluster shares them), else the local folder. */
export function storageKind(cfg: Pick<AppConfig, 'storage' | 'databaseUrl'>): 'local' | 'db' | 's3' {
  const k = cfg.storage.kind;
  if (k === 'local' || k === 'db' || k === 's3') return k;
  if (k && k !== 'auto') throw new Error(`unknown storage.kind "${String(k)}" (local, db, s3 or auto)`);
  return cfg.databaseUrl ? 'db' : 'local';
}

export function createStorage(cfg: Pick<AppConfig, 'storage' | 'databaseUrl' | 'uploadDir'>, db: DB, kind = storageKind(cfg)): FileStorage {
  if (kind === 'db') return new DbStorage(db);
  if (kind === 's3') return new S3Storage(cfg.storage.s3);
  return new LocalStorage(cfg.uploadDir);
}

const byConfig = new WeakMap<object, FileStorage>();

/** The server's file storage (one per configuration, i.e. per server in a test process). */
export function storageOf(ctx: Pick<ServerContext, 'cfg' | 'db'>): FileStorage {
  let s = byConfig.get(ctx.cfg);
  if (!s) byConfig.set(ctx.cfg, (s = createStorage(ctx.cfg, ctx.db)));
  return s;
}
