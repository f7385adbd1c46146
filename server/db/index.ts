import { Kysely, PostgresDialect, sql, type Dialect, type LogEvent } from 'kysely';
import { mkdirSync } from 'node:fs';
import type { AppConfig } from '../config.js';
import { attachReadCache, ReadCache, writtenTables } from './read-cache.js';

/** Tables are described by entity schemas at run time, so the query builder is untyped here. */
export type DB = Kysely<any>;

export interface Database {
  db: DB;
  kind: 'pglite' | 'pg';
  close(): Promise<void>;
  /** Connection figures for the metrics: the pg Pool's counts; PGlite (one connection) its queries in flight as `waiting`. */
  stats(): { total: number; idle: number; waiting: number };
}

/** A query builder with a read cache (read-cache.ts); every executed write drops the entries of the tables it wrote. */
function queryBuilder(dialect: Dialect): DB {
  const cache = new ReadCache();
  const log = (e: LogEvent) => {
    const tables = writtenTables(e.query.sql);
    if (tables.length) cache.written(tables);
  };
  const db: DB = new Kysely({ dialect, log });
  attachReadCache(db, cache);
  return db;
}

// Timestamps and dates travel as plain strings ("YYYY-MM-DD HH:mm:ss"): no time-zone drift between
// PGlite, node-postgres and the browser. numeric stays a string (callers convert), int8 a string (ids).
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const DATE = 1082;
const raw = (v: string) => v;

/**
 * An error of a lost or refused database connection (server restarting, network): the request is
 * answered 503 "try again", not as a server error. PostgreSQL classes 08 (connection exception) and
 * 57P01–57P03 (shut down, crashed, starting up), the socket's own errors, and node-postgres's messages.
 */
export function isDatabaseUnavailable(err: { message?: string; code?: string }): boolean {
  const code = String(err.code ?? '');
  if (/^(08|57P0[123])/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  return /ECONNREFUSED|ECONNRESET|Connection terminated|connection.*(closed|ended)|not queryable|timeout exceeded when trying to connect/i.test(String(err.message ?? ''));
}

export async function openDatabase(cfg: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (cfg.databaseUrl) {
    const pg = await import('pg');
    const types = pg.default.types;
    types.setTypeParser(TIMESTAMP, raw);
    types.setTypeParser(TIMESTAMPTZ, raw);
    types.setTypeParser(DATE, raw);
    const pool = new pg.default.Pool({ connectionString: cfg.databaseUrl, max: 10 });
    pool.on('error', () => undefined); // a dropped idle connection must not kill the process
    // Nor one dropped while checked out between two queries (the pool listens only to idle ones): the
    // query in flight fails on its own (→ 503), and the pool discards the dead connection on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = queryBuilder(new PostgresDialect({ pool }));
    return { db, kind: 'pg', close: () => db.destroy(), stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const dir = `${cfg.dataDir.replace(/\/+$/, '')}/pg`;
  mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir, {
    parsers: { [TIMESTAMP]: raw, [TIMESTAMPTZ]: raw, [DATE]: raw },
  });
  // PGlite runs one query at a time: count those in flight (the running one and the queue behind it).
  let inFlight = 0;
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const original = (pglite[name] as (...a: unknown[]) => Promise<unknown>).bind(pglite);
    (pglite as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      inFlight++;
      return original(...args).finally(() => inFlight--);
    };
  }
  const db = queryBuilder(new PGliteDialect(pglite));
  return {
    db,
    kind: 'pglite',
    stats: () => ({ total: 1, idle: inFlight ? 0 : 1, waiting: Math.max(0, inFlight - 1) }),
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

export { sql };
