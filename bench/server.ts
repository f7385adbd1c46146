import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { loadEntities } from '../server/crud/entities.js';
import { prepareDatabase } from '../server/start.js';
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
export function prepareData(records: number, url = process.env.BENCH_DATABASE_URL): Target {
  const scale = Math.max(0, Math.round(records / 2000) - 1);
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

/**
 * A fresh copy of the small seeded PGlite database (demo volume) for suites that write: each run
 * starts from the same data.
 */
export function freshCopy(suite: string): Target {
  const source = prepareData(0, '');
  const dir = join(OUT, `run-${suite}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source.env.DATA_DIR!, dir, { recursive: true });
  return { env: { DATA_DIR: dir, DATABASE_URL: '' }, label: 'embedded PGlite, demo data' };
}

/**
 * A PostgreSQL database for suites that write, made afresh on every run: `url` names a database the bench
 * owns — it is dropped, created and seeded (demo volume) like the PGlite copy of freshCopy.
 */
export async function freshPostgres(url: string): Promise<Target> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bench database name must be a plain identifier: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  log(`seeding ${name} on ${u.host}…`);
  execFileSync(process.execPath, [TSX, 'server/seed/cli.ts', '--scale', '0'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, DATA_DIR: '' }, stdio: 'inherit' });
  return { env: { DATABASE_URL: url }, label: `PostgreSQL server (${name}), demo data` };
}

/** The bench target's database, opened directly (PGlite: only while no server runs on it). */
export const openTarget = (target: Target) =>
  openDatabase(loadConfig(target.env.DATABASE_URL ? { databaseUrl: target.env.DATABASE_URL } : { dataDir: target.env.DATA_DIR, databaseUrl: undefined }, {}));

/** Brings the target's tables, indexes and migrations up to date, as a server start would (idempotent). */
export async function syncTarget(target: Target): Promise<void> {
  const cfg = loadConfig(target.env.DATABASE_URL ? { databaseUrl: target.env.DATABASE_URL } : { dataDir: target.env.DATA_DIR, databaseUrl: undefined }, {});
  const database = await openDatabase(cfg);
  try {
    await prepareDatabase({ cfg, db: database.db, dbKind: database.kind, entities: loadEntities(), ready: false, draining: false });
  } finally {
    await database.close();
  }
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
 * Load from `concurrency` clients for `seconds`. Back to back (`periodMs` 0, closed loop): each client
 * sends its next request as soon as the last answered — throughput at saturation, where latency is
 * simply clients ÷ throughput. Paced (`periodMs` > 0): each client, like a user, sends one request per
 * period (phases spread at random), or at once when its last answer came later than that.
 * Returns every latency (ms), the throughput and the number of failed requests.
 */
export async function load(concurrency: number, seconds: number, once: (i: number) => Promise<void>, periodMs = 0) {
  const lat: number[] = [];
  const end = Date.now() + seconds * 1000;
  let i = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      let next = Date.now() + Math.random() * periodMs;
      for (;;) {
        if (periodMs) {
          if (next > Date.now()) await new Promise((r) => setTimeout(r, next - Date.now()));
          next = Math.max(next + periodMs, Date.now());
        }
        if (Date.now() >= end) break;
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

/** The pid of the server process itself: `tsx` runs the entry as its child (one level down). */
export function serverPid(child: ChildProcess): number {
  const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  if (kids.length !== 1) throw new Error(`expected one server process under tsx (${child.pid}), found ${kids.length}`);
  return kids[0]!;
}

/** Peak (VmHWM) and current (VmRSS) resident memory of a process, in MB. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}
