import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { type Figure, log, summarize } from './lib.js';
import { API, login, openTarget, prepareData, ROOT, startServer, type Target } from './server.js';

/**
 * Lecture screens at `npm run seed -- --scale 10` (≈ ten times the demo data): the first list call of
 * every supervisor / improvement / statistics / timetable page schema with its default parameters,
 * the reports and the dashboard, as the administrator and as a leader and a teacher (data scope);
 * budget p95 ≤ 300 ms per call. Then headless Chromium on the production build opening the main
 * screens until their rows show; budget ≤ 3 s each.
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 15);
const API_BUDGET = 300;
const SCREEN_BUDGET = 3000;
const PORT = 18390;
const DIRS = ['supervisor', 'improvement', 'statistics', 'timetable', 'dashboard'];

interface Call {
  name: string;
  url: string;
}

/** The list call a list page makes on opening (renderer/list/useListController.ts: page 1, default size and sort, query defaults). */
function screenCalls(): Call[] {
  const out: Call[] = [];
  for (const dir of DIRS)
    for (const f of readdirSync(join(ROOT, 'schemas/pages', dir)).filter((x) => x.endsWith('.json'))) {
      const s = JSON.parse(readFileSync(join(ROOT, 'schemas/pages', dir, f), 'utf8')) as Record<string, any>;
      if (s.kind !== 'list' && s.kind !== 'tree-list' && s.kind !== 'master-detail') continue;
      const list: string | undefined = s.api?.list ?? (s.resource ? `${s.resource}/list` : undefined);
      if (!list) continue;
      const sort = s.defaultSort ?? { column: 'createTime', order: 'desc' };
      const p = new URLSearchParams({ pageNo: '1', pageSize: String(s.pageSize ?? s.pageSizes?.[0] ?? 10), column: sort.column, order: sort.order });
      for (const q of s.query?.fields ?? []) if (q.default !== undefined) p.set(q.name, String(q.default));
      out.push({ name: `${dir}/${f.replace('.json', '')}`, url: `${list}?${p}` });
    }
  return out;
}

async function timeCalls(base: string, token: string, url: string): Promise<number[] | 'denied'> {
  const lat: number[] = [];
  for (let i = 0; i < CALLS + 2; i++) {
    const t = performance.now();
    const r = (await (await fetch(`${base}${API}${url}`, { headers: { 'X-Access-Token': token } })).json()) as { success: boolean; code: number; message: string };
    const ms = performance.now() - t;
    if (!r.success) {
      if (r.code === 510 || /权限|无权/.test(r.message)) return 'denied';
      throw new Error(`${url}: ${r.message}`);
    }
    if (i >= 2) lat.push(ms); // two warm-up calls
  }
  return lat;
}

async function fixtures(target: Target) {
  const database = await openTarget(target);
  try {
    const t = await sql<{ id: string }>`select id from sup_term where is_current = true limit 1`.execute(database.db);
    const teacher = await sql<{ teacher_id: string }>`select teacher_id from sup_course_task where term_id = ${t.rows[0]!.id} group by teacher_id order by count(*) desc limit 1`.execute(database.db);
    const n = await sql<{ n: number }>`select count(*)::int as n from sup_lecture_record`.execute(database.db);
    const k = await sql<{ n: number }>`select count(*)::int as n from imp_task`.execute(database.db);
    return { teacherId: teacher.rows[0]!.teacher_id, records: n.rows[0]!.n, tasks: k.rows[0]!.n };
  } finally {
    await database.close();
  }
}

export async function benchScreens(): Promise<{ label: string; figures: Figure[] }> {
  const target = prepareData(22_000, ''); // scale 10, always embedded PGlite (not BENCH_DATABASE_URL)
  const fx = await fixtures(target);
  log(`screens bench on ${fx.records} lecture records, ${fx.tasks} improvement tasks`);
  const server = await startServer(target, PORT);
  // The machine's load while measuring (a shared 2-core box inflates every figure).
  const figures: Figure[] = [{ name: 'load average (1 min) at start', value: loadavg()[0]!, unit: '' }];
  try {
    const calls: Call[] = [
      ...screenCalls(),
      { name: 'report frequency by department', url: '/supervisor/report/frequencyByDepart' },
      { name: 'report weekly', url: '/supervisor/report/weekly' },
      { name: 'report grade distribution', url: '/supervisor/report/gradeDistribution?by=depart' },
      { name: 'report drill-down (teacher)', url: `/supervisor/report/detail?teacherId=${fx.teacherId}&side=teacher&pageNo=1&pageSize=20` },
      { name: 'dashboard summary', url: '/supervisor/dashboard/summary' },
      { name: 'timetable grid (teacher)', url: `/supervisor/courseSchedule/timetable?teacherId=${fx.teacherId}` },
      { name: 'lesson picker (week 3)', url: '/supervisor/courseSchedule/lessons?week=3' },
    ];
    for (const user of ['admin', 'leader', 'teacher']) {
      const token = await login(server.url, user);
      for (const c of calls) {
        const lat = await timeCalls(server.url, token, c.url);
        if (lat === 'denied') continue;
        const s = summarize(lat);
        figures.push({ name: `${c.name} as ${user}, p95 (p50 ${Math.round(s.p50)} ms)`, value: s.p95, unit: 'ms', budget: API_BUDGET });
        log(`${user} ${c.name}: p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms`);
      }
    }

    // Headless Chromium on the production build the server serves: sign in, then open each screen.
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
      await page.goto(`${server.url}/user/login`);
      await page.getByPlaceholder('请输入账户名').fill('admin');
      await page.getByPlaceholder('请输入密码').fill('Observe#2026');
      await page.getByRole('button', { name: /登\s*录/ }).click();
      await page.locator('.basic-layout').waitFor({ timeout: 60_000 });
      const screens: Array<[string, string, string]> = [
        ['听课记录', '/supervisor/lectureRecord', '.ant-table-tbody tr.ant-table-row'],
        ['听课频次', '/statistics/frequency', '.ant-table-tbody tr.ant-table-row'],
        ['听课成绩', '/statistics/performance', '.ant-table-tbody tr.ant-table-row'],
        ['课表（周视图）', '/timetable/schedule', '[data-testid=timetable-grid]'],
      ];
      for (const [label, path, sel] of screens) {
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t = performance.now();
          await page.goto(`${server.url}${path}`);
          await page.locator(sel).first().waitFor({ timeout: 30_000 });
          times.push(performance.now() - t);
        }
        const s = summarize(times);
        figures.push({ name: `screen ${label} (navigation → rows visible), worst of 3`, value: Math.max(...times), unit: 'ms', budget: SCREEN_BUDGET });
        log(`screen ${label}: median ${s.p50.toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms`);
        await page.screenshot({ path: join(ROOT, 'bench', '.out', `screen-${path.replace(/\//g, '_')}.png`) });
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
  figures.unshift({ name: 'lecture records in the database', value: fx.records, unit: '' }, { name: 'improvement tasks in the database', value: fx.tasks, unit: '' });
  return { label: 'Lecture screens, embedded PGlite, --scale 10', figures };
}
