import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { log } from './lib.js';

export const ROOT = resolve(import.meta.dirname, '..');
export const OUT = join(ROOT, 'bench', '.out');
export const API = '/jeecg-boot';
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

export interface Target {
  /** DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL server). */
  env: Record<string, string>;
  label: string;
}

/** A database with about `records` lecture records, made once with `npm run seed -- --scale N` and reused. */
export function prepareData(records: number): Target {
  const scale = Math.max(0, Math.round(records / 2000) - 1);
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    log(`seeding ${url} to ~${records} lecture records (scale ${scale}) if needed…`);
    const env = { ...process.env, DATABASE_URL: url };
    const have = Number(execFileSync(process.execPath, [TSX, 'bench/count.ts'], { cwd: ROOT, env }).toString().trim() || 0);
    if (have < records * 0.9) execFileSync(process.execPath, [TSX, 'server/seed/cli.ts', '--scale', String(Math.max(1, Math.round((records - have) / 2000)))], { cwd: ROOT, env, stdio: 'inherit' });
    return { env: { DATABASE_URL: url }, label: `PostgreSQL server, ${records.toLocaleString()} records` };
  }
  const dir = join(OUT, `pglite-${records}`);
  if (!existsSync(join(dir, 'pg', 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    log(`seeding embedded PGlite in ${dir} (scale ${scale})…`);
    execFileSync(process.execPath, [TSX, 'server/seed/cli.ts', '--scale', String(scale)], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }, stdio: 'inherit' });
  }
  return { env: { DATA_DIR: dir, DATABASE_URL: '' }, label: `embedded PGlite, ${records.toLocaleString()} records` };
}

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(target: Target, port: number, extra: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, [TSX, 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...target.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', CONFIG_FILE: '/nonexistent.json', ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      if ((await fetch(`${url}${API}/actuator/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('bench server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

export async function login(url: string, username = 'admin', password = 'Observe#2026'): Promise<string> {
  const r = await fetch(`${url}${API}/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const j = (await r.json()) as { code: number; result: { token: string }; message: string };
  if (j.code !== 200) throw new Error(`login failed: ${j.message}`);
  return j.result.token;
}

/**
 * Closed-loop load: `concurrency` clients each send the next request as soon as the last answered,
 * for `seconds`. Returns every latency (ms) and the throughput.
 */
export async function load(concurrency: number, seconds: number, once: (i: number) => Promise<void>) {
  const lat: number[] = [];
  const end = Date.now() + seconds * 1000;
  let i = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          await once(i++);
          lat.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { lat, rps: lat.length / seconds, errors };
}
