import { report } from './lib.js';
import { benchApi } from './api.js';
import { benchScreens } from './screens.js';
import { benchFrontend } from './frontend/run.js';
import { benchImport } from './import.js';
import { benchLogin } from './login.js';
import { benchReports } from './reports.js';
import { benchPhone } from './phone.js';
import { benchWorkflow, WORKFLOW_PG } from './workflow.js';
import { benchDocs } from './docs.js';

/**
 * `npm run bench [-- suite …]`: each suite prints its figures next to its budget and records them in
 * bench/RESULTS.md; the run exits non-zero when any figure is over budget. Not part of `npm test`.
 * BENCH_DATABASE_URL=postgres://… runs the API suite on a PostgreSQL server with 1M records;
 * BENCH_REPORTS_DATABASE_URL the reports suite; BENCH_WORKFLOW_DATABASE_URL the workflow suite (a database it recreates). Suites: api, reports, login, import, workflow, docs, frontend, phone (each runs alone).
 */
const suites: Record<string, () => Promise<boolean>> = {
  api: async () => {
    const pg = process.env.BENCH_DATABASE_URL;
    return report(pg ? 'API, PostgreSQL server, 1M records' : 'API, embedded PGlite, 100k records', await benchApi(pg ? 1_000_000 : 100_000));
  },
  screens: async () => {
    const r = await benchScreens();
    return report(r.label, r.figures);
  },
  reports: async () => {
    const r = await benchReports();
    return report(r.label, r.figures);
  },
  login: async () => report('Login storm, embedded PGlite', await benchLogin()),
  workflow: async () => report(`Approval workflow, ${WORKFLOW_PG ? 'PostgreSQL server' : 'embedded PGlite'}, 1,000 running instances`, await benchWorkflow()),
  docs: async () => report('Online documents, embedded PGlite, loopback', await benchDocs()),
  import: async () => report('Timetable import, embedded PGlite', await benchImport()),
  phone: async () => report('Phone record form, headless Chromium 390×844, 4× CPU, 1.6 Mbit/s, 150 ms RTT', await benchPhone()),
  frontend: async () => report('Front end, headless Chromium, production build vs antd Table floor', await benchFrontend()),
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
