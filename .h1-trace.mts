import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
const SB = process.env.DIR ?? '/work/main/bench/.out/editable-table';
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = join(SB, path);
  if (!existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', ...(process.env.ARGS ? process.env.ARGS.split(' ') : [])] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(url);
await page.waitForSelector('.ag-row[row-index="0"] [col-id="code"]', { timeout: 120_000 });
await page.waitForTimeout(1000);
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'viz'] });
const frames = await page.evaluate(`new Promise((done) => {
  const vp = document.querySelector('.ag-grid-viewport');
  const out = []; let last = performance.now(); const end = last + 3000;
  const step = (t) => { out.push(t - last); last = t;
    vp.scrollTop = vp.scrollTop + 180 >= vp.scrollHeight - vp.clientHeight ? 0 : vp.scrollTop + 180;
    if (t < end) requestAnimationFrame(step); else done(out.slice(1)); };
  requestAnimationFrame(step); })`) as number[];
const buf = await browser.stopTracing();
const s = [...frames].sort((a, b) => a - b);
console.log('frames', s.length, 'p50', s[Math.floor(s.length / 2)]?.toFixed(1), 'p95', s[Math.floor(s.length * 0.95)]?.toFixed(1));
const ev = JSON.parse(buf.toString()).traceEvents as any[];
const threads = new Map<string, string>();
for (const e of ev) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
const agg = new Map<string, number>();
for (const e of ev) if (e.ph === 'X' && e.dur) { const th = threads.get(`${e.pid}:${e.tid}`) ?? '?'; if (!/CrRendererMain|Compositor|Raster|VizCompositor|CrGpuMain/.test(th)) continue; const k = `${th} ${e.name}`; agg.set(k, (agg.get(k) ?? 0) + e.dur); }
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 12))) console.log((v / 1000).toFixed(0).padStart(7), k);
// CPU time of the renderer main thread (tdur) — what a quiet machine would spend.
let cpu = 0, wall = 0;
const tasks = ev.filter((e) => e.ph === 'X' && e.name === 'RunTask' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
for (const e of tasks) { cpu += e.tdur ?? 0; wall += e.dur; }
const rafs = ev.filter((e) => e.ph === 'X' && e.name === 'FireAnimationFrame' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
const rafCpu = rafs.map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => a - b);
console.log('main thread: wall', (wall / 1000).toFixed(0), 'ms, cpu', (cpu / 1000).toFixed(0), 'ms; per frame cpu', (cpu / 1000 / s.length).toFixed(1), 'ms; rAF cpu p50', rafCpu[Math.floor(rafCpu.length / 2)]?.toFixed(1), 'p95', rafCpu[Math.floor(rafCpu.length * 0.95)]?.toFixed(1), 'n', rafCpu.length);
await browser.close(); server.close();
