import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { loadConfig, type AppConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/index.js';
import { loadEntities } from '../../server/crud/entities.js';
import { prepareDatabase } from '../../server/start.js';
import type { ServerContext } from '../../server/context.js';

/**
 * Tests share one migrated, seeded database: built once per source version (a hash of server/
 * and schemas/), then copied per test file — a directory copy for PGlite, CREATE DATABASE …
 * TEMPLATE for a PostgreSQL server (DATABASE_URL).
 */
export const ROOT = resolve(import.meta.dirname, '../..');
export const TMP = join(ROOT, '.tmp');

function hashTree(dirs: string[]): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else {
        h.update(p);
        h.update(readFileSync(p));
      }
    }
  };
  dirs.forEach((d) => walk(join(ROOT, d)));
  return h.digest('hex').slice(0, 16);
}

export const sourceHash = () => hashTree(['server', 'shared', 'schemas']);

async function prepare(cfg: AppConfig) {
  const database = await openDatabase(cfg);
  const ctx: ServerContext = { cfg, db: database.db, dbKind: database.kind, entities: loadEntities(), ready: false, draining: false };
  try {
    await prepareDatabase(ctx);
  } finally {
    await database.close();
  }
}

function adminUrl(url: string, dbName: string) {
  const u = new URL(url);
  u.pathname = '/' + dbName;
  return u.toString();
}

/** Removes templates of older source versions and leftover copies (crashed runs). */
function sweep(keep: string) {
  if (!existsSync(TMP)) return;
  const cutoff = Date.now() - 30 * 60_000;
  for (const n of readdirSync(TMP)) {
    const p = join(TMP, n);
    // A template is touched whenever it is copied (see copyTemplate), so one in use is never swept.
    const stale = /^template-/.test(n) ? n !== keep && statSync(p).mtimeMs < cutoff : /^(run|e2e)-/.test(n) && statSync(p).mtimeMs < cutoff;
    if (stale) rmSync(p, { recursive: true, force: true });
  }
}

/** Builds the template if missing; returns how to find it. Called from vitest's globalSetup. */
export async function ensureTemplate(): Promise<string> {
  const hash = sourceHash();
  sweep(`template-${hash}`);
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `tpl_${hash}`;
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!exists.rowCount) {
        const building = `${name}_build`;
        await admin.query(`drop database if exists "${building}"`);
        await admin.query(`create database "${building}"`);
        await prepare(loadConfig({ databaseUrl: adminUrl(url, building), dataDir: join(TMP, 'pg-scratch') }));
        await admin.query(`alter database "${building}" rename to "${name}"`);
        await admin.query(`alter database "${name}" is_template true`);
      }
    } finally {
      await admin.end();
    }
    return name;
  }
  const dir = join(TMP, `template-${hash}`);
  if (!existsSync(join(dir, 'pg', 'PG_VERSION'))) {
    const building = `${dir}.build-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    await prepare(loadConfig({ dataDir: building, databaseUrl: undefined }, {}));
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  }
  return dir;
}

let counter = 0;
/** A private copy of the template for one test file: a data dir (PGlite) or a database URL. */
export async function copyTemplate(template: string): Promise<Partial<AppConfig>> {
  const id = `${process.pid}_${Date.now()}_${counter++}`;
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `t_${id}`;
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`create database "${name}" template "${template}"`);
    } finally {
      await admin.end();
    }
    return { databaseUrl: adminUrl(url, name), dataDir: join(TMP, `run-${id}`) };
  }
  const dataDir = join(TMP, `run-${id}`);
  const t = new Date();
  utimesSync(template, t, t);
  cpSync(template, dataDir, { recursive: true });
  return { dataDir, databaseUrl: undefined };
}

export async function dropCopy(c: Partial<AppConfig>) {
  const url = process.env.DATABASE_URL;
  if (url && c.databaseUrl) {
    const name = new URL(c.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: adminUrl(url, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  }
  if (c.dataDir) rmSync(c.dataDir, { recursive: true, force: true });
}
