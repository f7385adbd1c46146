import { sql } from 'kysely';
import { type Figure, log, summarize } from './lib.js';
import { API, login, openTarget, prepareData, startServer } from './server.js';

/**
 * Reports (DESIGN §7): GET /supervisor/report/frequency and /performance over the current term, which
 * holds ≥ 100k lecture records (a ~205k-record database: about half per term). Sequential calls as the
 * administrator (whole university, the widest scope) after a warm-up. Budget: p95 ≤ 300 ms.
 * BENCH_REPORTS_DATABASE_URL runs it on a PostgreSQL server database instead of embedded PGlite.
 */
const CALLS = Number(process.env.BENCH_REPORT_CALLS ?? 30);

export async function benchReports(): Promise<{ label: string; figures: Figure[] }> {
  const target = prepareData(205_000, process.env.BENCH_REPORTS_DATABASE_URL);
  const database = await openTarget(target);
  let termId: string;
  let inTerm: number;
  try {
    const r = await sql<{ id: string; n: number }>`select t.id, (select count(*)::int from sup_lecture_record r where r.term_id = t.id) as n from sup_term t where t.is_current = true`.execute(database.db);
    termId = r.rows[0]!.id;
    inTerm = r.rows[0]!.n;
  } finally {
    await database.close();
  }
  const label = `Reports, ${target.label.split(',')[0]}, a term of ≥ 100k records`;
  log(`${label}`);
  const server = await startServer(target, 18310);
  const figures: Figure[] = [];
  try {
    const token = await login(server.url);
    for (const report of ['frequency', 'performance']) {
      const url = `${server.url}${API}/supervisor/report/${report}?termId=${termId}`;
      const once = async () => {
        const t = performance.now();
        const r = await fetch(url, { headers: { 'X-Access-Token': token } });
        const j = (await r.json()) as { success: boolean; message: string; result: unknown[] };
        if (!j.success) throw new Error(`${report}: ${j.message}`);
        return { ms: performance.now() - t, rows: j.result.length };
      };
      const first = await once();
      for (let i = 0; i < 3; i++) await once();
      const lat: number[] = [];
      for (let i = 0; i < CALLS; i++) lat.push((await once()).ms);
      const s = summarize(lat);
      figures.push({ name: `${report}: first call (cold), ${first.rows} rows`, value: first.ms, unit: 'ms' });
      figures.push({ name: `${report} p50`, value: s.p50, unit: 'ms' });
      figures.push({ name: `${report} p95`, value: s.p95, unit: 'ms', budget: 300 });
    }
    figures.push({ name: 'lecture records in the term', value: inTerm, unit: '', budget: 100_000, higherIsBetter: true });
  } finally {
    await server.stop();
  }
  return { label, figures };
}
