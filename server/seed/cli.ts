import { sql } from 'kysely';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/index.js';
import { loadEntities } from '../crud/entities.js';
import type { ServerContext } from '../context.js';
import { prepareDatabase } from '../start.js';
import { bulkLectureRecords, seedLectureRecords } from './lecture.js';

/**
 * `npm run seed -- --scale N`: prepares the database (tables, migrations, demo seed) under
 * DATA_DIR / DATABASE_URL, then adds N× the demo volume of lecture records (with index scores) and
 * improvement tasks (with subtasks and logs): `--scale 10` gives about ten times the demo data.
 */
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const scale = Number(arg('scale') ?? 0);
if (!Number.isFinite(scale) || scale < 0 || scale > 10_000) {
  console.error('用法：npm run seed -- --scale N（N 为 0 到 10000 的数字）');
  process.exit(2);
}
const cfg = loadConfig({}, process.env);
process.env.TZ = cfg.timezone;
const database = await openDatabase(cfg);
const ctx: ServerContext = { cfg, db: database.db, dbKind: database.kind, entities: loadEntities(), ready: false, draining: false };
const t0 = Date.now();
// Tables, migrations and the base/demo seed exactly as at server start.
await prepareDatabase(ctx);
if (scale > 0) {
  // Up to --scale 20 the demo generator itself runs N more times over (same spread of listeners, terms,
  // statuses, flagged records and improvement tasks in every state, in bulk multi-row inserts); beyond
  // that (benchmark volumes) records come from set-based SQL and tasks from the generator at scale 1.
  if (scale <= 20) await ctx.db.transaction().execute((trx) => seedLectureRecords({ ...ctx, db: trx }, scale, 1000 + Math.round(scale * 97)));
  else {
    const added = await ctx.db.transaction().execute((trx) => bulkLectureRecords(trx, scale));
    console.log(`added ${added} lecture records`);
    await ctx.db.transaction().execute((trx) => seedLectureRecords({ ...ctx, db: trx }, 1, Date.now() % 100_000));
  }
  await sql`analyze`.execute(ctx.db);
}
const n = await ctx.db.selectFrom('sup_lecture_record').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
console.log(`seed done in ${((Date.now() - t0) / 1000).toFixed(1)} s; lecture records: ${n?.n}`);
await database.close();
