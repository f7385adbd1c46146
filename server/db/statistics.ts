import { sql } from 'kysely';
import type { ServerContext } from '../context.js';

/**
 * Planner statistics for embedded PGlite, which has no autovacuum: without them the planner guesses
 * a few hundred rows per table and, say, sorts a whole term of records to show one page instead of
 * reading the ordered index. Tables never analysed, or grown by a fifth since, are analysed when the
 * database is prepared (every start) and, on PGlite, every STATISTICS_EVERY_MS while the server runs
 * (a PostgreSQL server's autovacuum does that by itself).
 */
export const STATISTICS_EVERY_MS = 10 * 60_000;

export async function analyzeStaleTables(ctx: ServerContext): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.2 + 8)`.execute(ctx.db);
  for (const r of rows) await sql`analyze ${sql.table(r.name)}`.execute(ctx.db);
  return rows.map((r) => r.name);
}

/** Keeps PGlite's statistics fresh while the server runs; returns the stopper. */
export function keepStatistics(ctx: ServerContext, log: (err: unknown) => void): () => void {
  if (ctx.dbKind !== 'pglite') return () => undefined;
  const every = setInterval(() => void analyzeStaleTables(ctx).catch(log), STATISTICS_EVERY_MS);
  every.unref();
  return () => clearInterval(every);
}
