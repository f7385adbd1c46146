import { sql } from 'kysely';
import { type Figure, log } from './lib.js';
import { API, freshCopy, login, memoryOf, openTarget, serverPid, startServer, type Server } from './server.js';
import { timetableXlsx, uploadTimetable } from './timetable-file.js';

/**
 * Timetable import (DESIGN §7), on a fresh copy of the small seeded PGlite database:
 * - a 10k-row academic-affairs Excel file: preview + commit ≤ 10 s;
 * - a 50k-row file (within the product's 100k-row import limit, so it is imported, not refused):
 *   preview + commit on a fresh server process, whose resident memory may grow ≤ 500 MB
 *   (peak VmHWM during the import − RSS before it). The server holds the parsed rows of a
 *   preview/commit in memory; the row limit (config import.maxRows) and the 20 MB upload limit bound it.
 */
const SMALL = 10_000;
const LARGE = 50_000;

async function importBoth(server: Server, token: string, termId: string, file: { name: string; data: Buffer }) {
  const base = `${server.url}${API}/supervisor/courseSchedule`;
  const t0 = performance.now();
  const pre = await uploadTimetable(server.url, `${API}/supervisor/courseSchedule/importPreview?termId=${termId}`, token, [file]);
  if (!pre.success) throw new Error(`preview: ${pre.message}`);
  const t1 = performance.now();
  const done = await uploadTimetable(server.url, `${API}/supervisor/courseSchedule/importTimetable?termId=${termId}`, token, [file]);
  if (!done.success || done.code !== 200) throw new Error(`import: ${done.message}`);
  const t2 = performance.now();
  log(`${base}: ${done.message}`);
  return { preview: (t1 - t0) / 1000, commit: (t2 - t1) / 1000, tasks: done.result.summary.tasks.create as number };
}

export async function benchImport(): Promise<Figure[]> {
  const target = freshCopy('import');
  const database = await openTarget(target);
  let termId: string;
  let teachers: Array<{ workNo: string; realname: string }>;
  try {
    termId = (await sql<{ id: string }>`select id from sup_term where is_current = true`.execute(database.db)).rows[0]!.id;
    teachers = (await sql<{ work_no: string; realname: string }>`select work_no, realname from sys_user where work_no is not null and del_flag = 0 order by work_no limit 80`.execute(database.db)).rows.map(
      (u) => ({ workNo: u.work_no, realname: u.realname }),
    );
  } finally {
    await database.close();
  }
  const small = { name: `课表-${SMALL}.xlsx`, data: await timetableXlsx(SMALL, teachers, 'BS') };
  const large = { name: `课表-${LARGE}.xlsx`, data: await timetableXlsx(LARGE, teachers, 'BL') };
  log(`import files: ${(small.data.length / 1024).toFixed(0)} kB and ${(large.data.length / 1024).toFixed(0)} kB`);
  const figures: Figure[] = [];

  let server = await startServer(target, 18330);
  try {
    const token = await login(server.url);
    const r = await importBoth(server, token, termId, small);
    figures.push({ name: `${SMALL.toLocaleString('en')} rows: preview`, value: r.preview, unit: 's' });
    figures.push({ name: `${SMALL.toLocaleString('en')} rows: commit (${r.tasks} tasks, ${SMALL} lines)`, value: r.commit, unit: 's' });
    figures.push({ name: `${SMALL.toLocaleString('en')} rows: preview + commit`, value: r.preview + r.commit, unit: 's', budget: 10 });
  } finally {
    await server.stop();
  }

  server = await startServer(target, 18331);
  try {
    const pid = serverPid(server.child);
    const token = await login(server.url);
    const before = memoryOf(pid);
    const r = await importBoth(server, token, termId, large);
    const after = memoryOf(pid);
    figures.push({ name: `${LARGE.toLocaleString('en')} rows: preview + commit`, value: r.preview + r.commit, unit: 's' });
    figures.push({ name: `${LARGE.toLocaleString('en')} rows: server RSS before`, value: before.rssMb, unit: 'MB' });
    figures.push({ name: `${LARGE.toLocaleString('en')} rows: server peak RSS growth (VmHWM − before)`, value: after.peakMb - before.rssMb, unit: 'MB', budget: 500 });
  } finally {
    await server.stop();
  }
  return figures;
}
