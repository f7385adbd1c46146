import { chromium } from 'playwright-core';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { median } from '../lib.js';
import { prepareData, startServer } from '../server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { ensureMenus, floorServer, navigate, signIn } from './run.js';

/**
 * A/B of product builds on the front-end bench's list navigation (run.ts's `navigate`: cold context,
 * drawn and idle), interleaved, median of RUNS, one server per build on its own copy of the bench database:
 *   VARIANTS='[{"name":"base","dist":"/tmp/a/dist"},{"name":"new","dist":"/tmp/b/dist","ls":{"APP_SETTINGS":{"multipage":false}}}]' \
 *   FLOOR=1 RUNS=7 N=50 npx tsx bench/frontend/ab.ts
 * `ls`: extra localStorage entries for that variant; `env`: extra environment of its server; FLOOR=1 also runs the floor after each round;
 * LATENCY_MS=40 adds that round-trip time to every request and DOWNLOAD_MBPS=20 caps the download bandwidth (Chromium's
 * network emulation, on the bytes as sent), as on a real network.
 * Also prints the renderer main thread's CPU time per navigation (thread time, steady under load), and the CPU
 * time of every Chromium process and the servers from navigation start to "drawn": on a 2-core machine the wall
 * time follows that total, not the main thread alone (docs/architecture.md, front-end bench).
 * Builds: npx vite build --outDir <dist> --emptyOutDir. Changes smaller than the run-to-run noise need more RUNS.
 */
const variants = JSON.parse(process.env.VARIANTS!) as Array<{ name: string; dist: string; ls?: Record<string, unknown>; env?: Record<string, string> }>;
const N = Number(process.env.N ?? 50);
const RUNS = Number(process.env.RUNS ?? 7);
const network = { latencyMs: Number(process.env.LATENCY_MS ?? 0), downloadMbps: Number(process.env.DOWNLOAD_MBPS ?? 0) || undefined };
const src = prepareData(2000, '');
const servers = await Promise.all(variants.map(async (v, i) => {
  const dir = `/tmp/bench-ab-db-${i}`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(src.env.DATA_DIR!, dir, { recursive: true });
  writeFileSync(`/tmp/bench-ab-${i}.json`, JSON.stringify({ staticDir: v.dist }));
  return startServer({ env: { DATA_DIR: dir, DATABASE_URL: '' }, label: '' }, 18181 + i, { CONFIG_FILE: `/tmp/bench-ab-${i}.json`, ...v.env });
}));
const floor = process.env.FLOOR ? await floorServer(servers[0]!.url) : undefined;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const s of servers) await ensureMenus(s.url); // a fresh bench database has no bench screens yet
  const sessions = await Promise.all(servers.map((s) => signIn(s.url)));
  const cpu: number[][] = variants.map(() => []);
  const floorCpu: number[] = [];
  const machine: Array<Array<Map<string, number>>> = variants.map(() => []);
  const floorMachine: Array<Map<string, number>> = [];
  const product = (i: number) => navigate(browser, sessions[i]!, `${servers[i]!.url}/bench/list?pageSize=${N}`, N, { storage: variants[i]!.ls, cpu: cpu[i], machineCpu: machine[i], network });
  const runs: number[][] = variants.map(() => []);
  const floorRuns: number[] = [];
  for (let i = 0; i < variants.length; i++) await product(i); // warm-up, not counted
  cpu.forEach((c) => c.splice(0));
  machine.forEach((m) => m.splice(0));
  for (let r = 0; r < RUNS; r++) {
    const order = variants.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) runs[i]!.push(await product(i));
    if (floor) floorRuns.push(await navigate(browser, sessions[0]!, `${floor.url}/floor/?n=${N}`, N, { cpu: floorCpu, machineCpu: floorMachine, network }));
  }
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const kinds = (navs: Array<Map<string, number>>) =>
    [...new Set(navs.flatMap((m) => [...m.keys()]))].map((k) => [k, Math.round(median(navs.map((m) => m.get(k) ?? 0)))] as const).filter(([, ms]) => ms > 0).map(([k, ms]) => `${k} ${ms}`).join(', ');
  // With the floor: each round's ratio to the floor's navigation of the same round, steadier than a ratio of medians
  // when the machine's speed drifts during the run.
  const perRound = (t: number[]) => (floor && t !== floorRuns ? `;  per-round ratio to the floor, median ${median(t.map((ms, r) => ms / floorRuns[r]!)).toFixed(3)}` : '');
  const line = (name: string, t: number[], c: number[], m: Array<Map<string, number>>) =>
    `${name}: median ${Math.round(median(t))} ms  (${t.map(Math.round).join(' ')});  main-thread CPU median ${Math.round(median(c))} ms  (${c.map(Math.round).join(' ')})${perRound(t)};\n` +
    `  CPU of all processes to drawn, median ${Math.round(median(m.map(total)))} ms  (${kinds(m)})`;
  variants.forEach((v, i) => console.log(line(v.name, runs[i]!, cpu[i]!, machine[i]!)));
  if (floor) console.log(line('floor', floorRuns, floorCpu, floorMachine));
} finally {
  await browser.close();
  floor?.server.close();
  await Promise.all(servers.map((s) => s.stop()));
}
