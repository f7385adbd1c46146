import { report } from './lib.js';
import { benchApi } from './api.js';

/**
 * `npm run bench [-- suite …]`: each suite prints its figures next to its budget and records them in
 * bench/RESULTS.md; the run exits non-zero when any figure is over budget. Not part of `npm test`.
 * BENCH_DATABASE_URL=postgres://… runs the API suite on a PostgreSQL server with 1M records.
 */
const suites: Record<string, () => Promise<boolean>> = {
  api: async () => {
    const pg = process.env.BENCH_DATABASE_URL;
    return report(pg ? 'API, PostgreSQL server, 1M records' : 'API, embedded PGlite, 100k records', await benchApi(pg ? 1_000_000 : 100_000));
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(suites);
let allOk = true;
for (const n of names) {
  const run = suites[n];
  if (!run) {
    console.error(`unknown bench suite "${n}"; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  if (!(await run())) allOk = false;
}
process.exit(allOk ? 0 : 1);
