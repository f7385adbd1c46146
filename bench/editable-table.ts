import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { log, mainThreadCpuMs, median, report, summarize } from './lib.ts';

/**
 * The editable table (JEditableTable, 1,000 rows × 20 columns, always-edit, as the Rows1000 story)
 * in headless Chromium, on a production build of bench/editable-table (Vite, mode production: React
 * production, minified; no Storybook instrumentation): time to first render, and frame times while
 * scrolling 180 px per frame for 3 s. Also prints the renderer main thread's CPU time per scroll
 * frame from a Chromium trace — what the frames cost without other processes competing (no budget;
 * it explains wall-clock figures taken on a loaded machine), and the same scroll on two floors
 * (bench/editable-table/floor.ts, vanilla AG Grid: plain text; native inputs with the pinned
 * selection column) — what this machine allows for the grid itself.
 * Run: npx tsx bench/editable-table.ts (BENCH_NO_BUILD=1 reuses bench/.out/editable-table).
 */
const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench/.out/editable-table');
const RUNS = 3;
const BUDGET = { firstRenderMs: 3000, scrollP95Ms: 50, scrollP50Ms: 20 };
// The first text cell's input look-alike (it becomes an input only when focused).
const FIRST_CELL = '.ag-row[row-index="0"] [col-id="name"] .j-cell-input';

if (!process.env.BENCH_NO_BUILD || !existsSync(join(OUT, 'index.html'))) {
  log('building bench/editable-table (production)…');
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'bench/editable-table/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' });
}
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = join(OUT, path);
  if (!file.startsWith(OUT) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`;

const SCROLL_SCRIPT = `new Promise((done) => {
  const vp = document.querySelector('.j-editable-table .ag-grid-viewport');
  const out = [];
  let last = performance.now();
  const end = last + 3000;
  const step = (t) => {
    out.push(t - last);
    last = t;
    vp.scrollTop = vp.scrollTop + 180 >= vp.scrollHeight - vp.clientHeight ? 0 : vp.scrollTop + 180;
    if (t < end) requestAnimationFrame(step);
    else done(out.slice(1));
  };
  requestAnimationFrame(step);
})`;

const load = loadavg()[0]!;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const firsts: number[] = [];
let frames: number[] = [];
let cpuPerFrame = NaN;
let boxHeight = 400;
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.waitForSelector(FIRST_CELL, { timeout: 60_000 });
    firsts.push(await page.evaluate(() => performance.now()));
    if (i === RUNS - 1) {
      await page.waitForTimeout(500);
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      // A string, not a function: tsx would inject helpers the page does not have.
      frames = (await page.evaluate(SCROLL_SCRIPT)) as number[];
      boxHeight = Math.round((await page.evaluate(`document.querySelector('.j-editable-table .ag-root-wrapper').getBoundingClientRect().height`)) as number);
      cpuPerFrame = mainThreadCpuMs(await browser.stopTracing()) / Math.max(1, frames.length);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
// The floors (bench/editable-table/floor.ts): vanilla AG Grid, plain text, then native inputs with the
// pinned selection column, in a box of the product's height — scrolled the same way.
const floors: Record<string, number> = {};
{
  const b = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const [name, q] of [['plain text', ''], ['inputs + pinned column', '&inputs=1&pinned=1']] as const) {
      const page = await b.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(url.replace('index.html', `floor.html?h=${boxHeight}${q}`));
      await page.waitForSelector('.ag-grid-viewport .ag-row', { timeout: 60_000 });
      await page.waitForTimeout(500);
      floors[name] = median((await page.evaluate(SCROLL_SCRIPT.replace('.j-editable-table .ag-grid-viewport', '.ag-grid-viewport'))) as number[]);
      await page.close();
    }
  } finally {
    await b.close();
    server.close();
  }
}
const s = summarize(frames);
log(`load average at start: ${load.toFixed(1)} (the budgets assume a quiet machine)`);
const ok = report('Editable table (1,000 × 20, headless Chromium)', [
  { name: 'time to first render (navigation → first row), median', value: median(firsts), unit: 'ms', budget: BUDGET.firstRenderMs },
  { name: `scroll frame time p50 (${s.n} frames)`, value: s.p50, unit: 'ms', budget: BUDGET.scrollP50Ms },
  { name: 'scroll frame time p95', value: s.p95, unit: 'ms', budget: BUDGET.scrollP95Ms },
  { name: `renderer main-thread CPU per scroll frame (load ${load.toFixed(1)})`, value: cpuPerFrame, unit: 'ms' },
  ...Object.entries(floors).map(([name, v]) => ({ name: `floor, vanilla AG Grid (${name}): scroll frame time p50`, value: v, unit: 'ms' })),
]);
process.exitCode = ok ? 0 : 1;
