import { sql } from 'kysely';
import type { AppConfig } from './config.js';
import type { ServerContext } from './context.js';
import { openDatabase, type Database } from './db/index.js';
import { analyzeStaleTables, keepStatistics } from './db/statistics.js';
import { runMigrations } from './db/migrate.js';
import { loadEntities } from './crud/entities.js';
import { syncEntities } from './crud/sync.js';
import { runSeeds } from './seed/index.js';
import { buildApp, type BuiltApp } from './app.js';
import { attachDbStats } from './ops/metrics.js';

export interface Running extends BuiltApp {
  ctx: ServerContext;
  database: Database;
  /** Resolves once tables, migrations and seed are done and the server reports UP. */
  prepared: Promise<void>;
  stop(): Promise<void>;
}

// Arbitrary constant: one process at a time creates tables, migrates and seeds.
const STARTUP_LOCK = 7_202_611;

/** Tables from entity schemas, then versioned migrations, then seeds, then planner statistics — under a cluster-wide lock. */
export async function prepareDatabase(ctx: ServerContext): Promise<void> {
  await ctx.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(conn);
    try {
      const report = await syncEntities(conn, ctx.entities);
      for (const r of report.refused) ctx.entities.problems.push({ file: `entities/${r.entity}`, path: '/', reason: r.reason });
      await runMigrations(conn);
      await runSeeds({ ...ctx, db: conn });
      await analyzeStaleTables({ ...ctx, db: conn });
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(conn);
    }
  });
}

/**
 * Starts the whole product: loads schemas, builds and binds the HTTP server (health answers DOWN),
 * then prepares the database in the background and flips to UP.
 */
export async function startServer(cfg: AppConfig, opts: { logger?: boolean; logStream?: { write(line: string): void }; listen?: boolean } = {}): Promise<Running> {
  process.env.TZ = cfg.timezone;
  const database = await openDatabase(cfg);
  const entities = loadEntities();
  const ctx: ServerContext = { cfg, db: database.db, dbKind: database.kind, entities, ready: false, draining: false };
  attachDbStats(cfg, database.stats);
  const built = await buildApp(ctx, opts);
  for (const p of entities.problems) built.app.log.error(p, 'bad entity schema');
  if (opts.listen !== false) await built.app.listen({ port: cfg.port, host: cfg.host });
  else await built.app.ready();
  let stopStatistics = () => undefined as void;
  const prepared = prepareDatabase(ctx).then(() => {
    ctx.ready = true;
    stopStatistics = keepStatistics(ctx, (err) => built.app.log.warn({ err }, 'analyze failed'));
  });
  prepared.catch((err) => built.app.log.error({ err }, 'database preparation failed'));
  return {
    ...built,
    ctx,
    database,
    prepared,
    async stop() {
      ctx.draining = true;
      stopStatistics();
      await built.app.close(); // waits for in-flight requests
      await prepared.catch(() => undefined);
      await database.close();
    },
  };
}
