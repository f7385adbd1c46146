import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { seedSteps } from './steps.js';

export interface SeedStep {
  /** Stable name; a step that has run is recorded and never runs again. */
  name: string;
  /** Demo data (skipped when seedDemo is off); base data such as dictionaries always runs. */
  demo?: boolean;
  run(ctx: ServerContext): Promise<void>;
}


/**
 * Runs every step not yet recorded, each in its own transaction with its record, so a second
 * start adds nothing twice and an interrupted seed resumes where it stopped.
 */
export async function runSeeds(ctx: ServerContext): Promise<string[]> {
  await sql`create table if not exists seed_log (name varchar(200) primary key, applied_at timestamp(0) not null default localtimestamp)`.execute(ctx.db);
  const done = new Set((await sql<{ name: string }>`select name from seed_log`.execute(ctx.db)).rows.map((r) => r.name));
  const ran: string[] = [];
  for (const step of seedSteps) {
    if (done.has(step.name) || (step.demo && !ctx.cfg.seedDemo)) continue;
    const outer = ctx.db;
    await outer.transaction().execute(async (trx) => {
      await step.run({ ...ctx, db: trx });
      await sql`insert into seed_log (name) values (${step.name})`.execute(trx);
    });
    ran.push(step.name);
  }
  return ran;
}
