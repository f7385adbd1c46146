import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from '/work/main/node_modules/playwright-core/index.mjs';
const SB = process.env.DIR ?? '/work/main/bench/.out/editable-table';
const STORY = process.env.STORY ?? '可编辑表格-jeditabletable--rows-1000';
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = join(SB, path);
  if (!file.startsWith(SB) || !existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
const mode = process.env.MODE ?? 'load';
if (mode === 'load') await cdp.send('Profiler.start');
await page.goto(url);
await page.waitForSelector('.ag-row[row-index="0"] [col-id="name"]', { timeout: 120_000 });
const t = await page.evaluate(() => performance.now());
const m0 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m: any) => [m.name, m.value]));
console.log('first', Math.round(t), 'script', m0.ScriptDuration.toFixed(2), 'layout', m0.LayoutDuration.toFixed(2), 'style', m0.RecalcStyleDuration.toFixed(2), 'task', m0.TaskDuration.toFixed(2), 'nodes', m0.Nodes);
if (mode === 'scroll') {
  await page.waitForTimeout(1000);
  await cdp.send('Profiler.start');
}
const m1 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m: any) => [m.name, m.value]));
const frames = mode === 'scroll' ? await page.evaluate(`new Promise((done) => {
  const vp = document.querySelector('.ag-grid-viewport') ;
  const out = []; let last = performance.now(); const end = last + 3000;
  const step = (t) => { out.push(t - last); last = t;
    vp.scrollTop = vp.scrollTop + 180 >= vp.scrollHeight - vp.clientHeight ? 0 : vp.scrollTop + 180;
    if (t < end) requestAnimationFrame(step); else done(out.slice(1)); };
  requestAnimationFrame(step); })`) as number[] : [];
const m2 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m: any) => [m.name, m.value]));
if (mode === 'scroll') {
  const s = [...frames].sort((a, b) => a - b);
  console.log('frames', s.length, 'p50', s[Math.floor(s.length / 2)]?.toFixed(1), 'p95', s[Math.floor(s.length * 0.95)]?.toFixed(1), 'script', (m2.ScriptDuration - m1.ScriptDuration).toFixed(2), 'layout', (m2.LayoutDuration - m1.LayoutDuration).toFixed(2), 'style', (m2.RecalcStyleDuration - m1.RecalcStyleDuration).toFixed(2), 'task', (m2.TaskDuration - m1.TaskDuration).toFixed(2));
}
const { profile } = await cdp.send('Profiler.stop');
// self time by function
const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const agg = new Map<string, number>();
for (const [id, us] of self) { const n = byId.get(id); const cf = n.callFrame; const k = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}:${cf.columnNumber}`; agg.set(k, (agg.get(k) ?? 0) + us); }
const byFile = new Map<string, number>();
for (const [id, us] of self) { const n = byId.get(id); const k = n.callFrame.url.split('/').pop() || n.callFrame.functionName; byFile.set(k, (byFile.get(k) ?? 0) + us); }
console.log('--- by file'); for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((v / 1000).toFixed(0).padStart(7), k);
console.log('--- by fn'); for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1000).toFixed(0).padStart(7), k);
writeFileSync(`/tmp/h1/${mode}.cpuprofile`, JSON.stringify(profile));
await browser.close(); server.close();
