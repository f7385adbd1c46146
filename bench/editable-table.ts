import { execSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { log, median, report, summarize } from './lib.ts';

/**
 * The editable table (JEditableTable, 1,000 rows × 20 columns) in headless Chromium, through the
 * static Storybook build: time to first render, and frame times while scrolling.
 * Run: npx tsx bench/editable-table.ts (builds Storybook first when it is missing).
 */
const ROOT = resolve(import.meta.dirname, '..');
const SB = join(ROOT, 'storybook-static');
const STORY = '可编辑表格-jeditabletable--rows-1000';
const RUNS = 3;
const BUDGET = { firstRenderMs: 3000, scrollP95Ms: 50, scrollP50Ms: 20 };

if (!existsSync(join(SB, 'index.json'))) {
  log('building Storybook…');
  execSync('npx storybook build --quiet', { cwd: ROOT, stdio: 'ignore' });
}
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = join(SB, path);
  if (!file.startsWith(SB) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/iframe.html?id=${encodeURIComponent(STORY)}&viewMode=story`;

const SCROLL_SCRIPT = `new Promise((done) => {
  const vp = document.querySelector('.ag-grid-viewport');
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

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const firsts: number[] = [];
let frames: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url);
    await page.waitForSelector('.ag-row[row-index="0"] [col-id="name"].j-cell-boxed', { timeout: 60_000 });
    firsts.push(await page.evaluate(() => performance.now()));
    if (i === RUNS - 1) {
      // A string, not a function: tsx would inject helpers the page does not have.
      frames = (await page.evaluate(SCROLL_SCRIPT)) as number[];
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
const s = summarize(frames);
const ok = report('Editable table (1,000 × 20, headless Chromium)', [
  { name: 'time to first render (navigation → first row), median', value: median(firsts), unit: 'ms', budget: BUDGET.firstRenderMs },
  { name: `scroll frame time p50 (${s.n} frames)`, value: s.p50, unit: 'ms', budget: BUDGET.scrollP50Ms },
  { name: 'scroll frame time p95', value: s.p95, unit: 'ms', budget: BUDGET.scrollP95Ms },
]);
process.exitCode = ok ? 0 : 1;
