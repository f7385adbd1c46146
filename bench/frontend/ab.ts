import { chromium } from 'playwright-core';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { prepareData, startServer } from '../server.js';
import { floorServer, initScript, settle } from './run.js';
/**
 * A/B of product builds on the front-end bench's list navigation (same probes as run.ts: drawn and idle),
 * interleaved, median of RUNS, one server per build on its own copy of the bench database:
 *   VARIANTS='[{"name":"base","dist":"/tmp/a/dist"},{"name":"new","dist":"/tmp/b/dist","ls":{"APP_SETTINGS":{"multipage":false}}}]' \
 *   FLOOR=1 RUNS=7 N=50 npx tsx bench/frontend/ab.ts
 * `ls`: extra localStorage entries for that variant; FLOOR=1 also runs the floor; DETAIL=1 prints each run's probes.
 * Builds: npx vite build --outDir <dist> --emptyOutDir. Changes smaller than the run-to-run noise need more RUNS.
 */
const variants = JSON.parse(process.env.VARIANTS!) as Array<{ name: string; dist: string; ls?: Record<string, unknown> }>;
const N = Number(process.env.N ?? 50);
const RUNS = Number(process.env.RUNS ?? 7);
const src = prepareData(2000, '');
const servers = await Promise.all(variants.map(async (v, i) => {
  const dir = `/tmp/bench-ab-db-${i}`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(src.env.DATA_DIR!, dir, { recursive: true });
  writeFileSync(`/tmp/bench-ab-${i}.json`, JSON.stringify({ staticDir: v.dist }));
  return startServer({ env: { DATA_DIR: dir, DATABASE_URL: '' }, label: '' }, 18181 + i, { CONFIG_FILE: `/tmp/bench-ab-${i}.json` });
}));
const floor = process.env.FLOOR ? await floorServer(servers[0]!.url) : undefined;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const sessions = await Promise.all(servers.map(async (s) => (await (await fetch(`${s.url}/jeecg-boot/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Observe#2026' }) })).json()).result));
  const runs: number[][] = variants.map(() => []);
  const floorRuns: number[] = [];
  const one = async (i: number, record: boolean) => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    await ctx.addInitScript(initScript(sessions[i], N));
    const ls = variants[i]!.ls ?? {};
    if (Object.keys(ls).length) await ctx.addInitScript(`for (const [k, v] of Object.entries(${JSON.stringify(ls)})) localStorage.setItem(k, JSON.stringify(v));`);
    const page = await ctx.newPage();
    await page.goto(`${servers[i]!.url}/bench/list?pageSize=${N}`, { waitUntil: 'commit' });
    const t = await settle(page, true);
    if (process.env.DETAIL) console.log(variants[i]!.name, await page.evaluate(`JSON.stringify(Object.fromEntries(Object.entries(window.__bench).map(([k, v]) => [k, Math.round(v)])))`), await page.evaluate(`JSON.stringify(performance.getEntriesByType('resource').filter((e) => e.responseEnd > window.__bench.drawn - 300).map((e) => [Math.round(e.startTime), Math.round(e.responseEnd), e.name.replace(/^.*\\//, '').slice(0, 40)]))`));
    await ctx.close();
    if (record) runs[i]!.push(t);
  };
  const oneFloor = async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    await ctx.addInitScript(initScript(sessions[0], N));
    const page = await ctx.newPage();
    await page.goto(`${floor!.url}/floor/?n=${N}`, { waitUntil: 'commit' });
    floorRuns.push(await settle(page, true));
    await ctx.close();
  };
  for (let i = 0; i < variants.length; i++) await one(i, false);
  for (let r = 0; r < RUNS; r++) {
    const order = variants.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) await one(i, true);
    if (floor) await oneFloor();
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  for (let i = 0; i < variants.length; i++) console.log(`${variants[i]!.name}: median ${Math.round(med(runs[i]!))} ms  (${runs[i]!.map(Math.round).join(' ')})`);
  if (floor) console.log(`floor: median ${Math.round(med(floorRuns))} ms  (${floorRuns.map(Math.round).join(' ')})`);
} finally {
  await browser.close();
  floor?.server.close();
  await Promise.all(servers.map((s) => s.stop()));
}
