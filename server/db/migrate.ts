import { sql } from 'kysely';
import type { DB } from './index.js';
import { migrations } from './migrations/index.js';

export interface Migration {
  version: number;
  name: string;
  up(db: DB): Promise<void>;
}

/**
 * Versioned migrations for what entity schemas cannot express (functions, data fix-ups, special
 * indexes). Each runs once, in its own transaction, in version order.
 */
export async function runMigrations(db: DB): Promise<string[]> {
  await sql`create table if not exists schema_migrations (version integer primary key, name varchar(200) not null, applied_at timestamp(0) not null default localtimestamp)`.execute(db);
  const done = new Set((await sql<{ version: number }>`select version from schema_migrations`.execute(db)).rows.map((r) => r.version));
  const applied: string[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    await db.transaction().execute(async (trx) => {
      await m.up(trx);
      await sql`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`.execute(trx);
    });
    applied.push(`${m.version}_${m.name}`);
  }
  return applied;
}
