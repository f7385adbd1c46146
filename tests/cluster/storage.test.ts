import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { copyTemplate, dropCopy, ROOT, TMP } from '../helpers/template-db.js';
import { startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { serverPid } from '../../bench/server.js';
import { openDatabase, type Database } from '../../server/db/index.js';
import { DbStorage } from '../../server/storage/db.js';
import { S3Storage } from '../../server/storage/s3.js';
import type { FileStorage } from '../../server/storage/index.js';
import { API, login, spawnServer, type Proc } from './procs.js';

/**
 * Three API processes on one PostgreSQL (issue 32): a file uploaded through one is downloaded through
 * the others — PostgreSQL storage (the default with DATABASE_URL) and S3 storage (s3rver from npm,
 * started here); a process killed mid-upload leaves no half file visible. Backup → wipe → restore
 * of the PostgreSQL database with its stored files, with the real scripts.
 */
if (!process.env.DATABASE_URL) throw new Error('the cluster tests need DATABASE_URL (a PostgreSQL server); .ci/run provides one');

const PORTS = [18331, 18332, 18333];
const run = promisify(execFile);
const work = join(TMP, `cluster-ops-${process.pid}`);
let copy: Awaited<ReturnType<typeof copyTemplate>>;
let dbUrl: string;
let database: Database;
let s3: LocalS3;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  copy = await copyTemplate(inject('dbTemplate'));
  dbUrl = copy.databaseUrl!;
  database = await openDatabase({ databaseUrl: dbUrl, dataDir: '' });
  s3 = await startLocalS3(`s3-cluster-${process.pid}`);
}, 180_000);
afterAll(async () => {
  await database?.close();
  await s3?.close();
  await dropCopy(copy);
  rmSync(work, { recursive: true, force: true });
});

function multipart(name: string, data: Buffer) {
  const boundary = '----ddcl' + Math.random().toString(16).slice(2);
  return {
    boundary,
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\ncluster\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

async function upload(p: Proc, token: string, data: Buffer): Promise<string> {
  const { boundary, body } = multipart('资料.bin', data);
  const r = await fetch(`${p.url}${API}/sys/common/upload`, { method: 'POST', headers: { 'X-Access-Token': token, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
  const json = await r.json();
  expect(json.success, json.message).toBe(true);
  return json.message as string;
}

async function download(p: Proc, token: string, key: string, range?: string) {
  const r = await fetch(`${p.url}${API}/sys/common/static/${key}`, { headers: { 'X-Access-Token': token, ...(range ? { range } : {}) } });
  return { status: r.status, range: r.headers.get('content-range'), body: Buffer.from(await r.arrayBuffer()) };
}

async function keys(storage: FileStorage): Promise<string[]> {
  const out: string[] = [];
  for await (const o of storage.list()) out.push(o.key);
  return out;
}

/**
 * Starts sending a large upload slowly, waits for `started` (the server is storing it), SIGKILLs the
 * server process, and returns how the client saw the request end.
 */
async function killMidUpload(p: Proc, token: string, started: () => Promise<boolean>): Promise<string> {
  const { boundary, body } = multipart('中断.bin', randomBytes(8 * 1024 * 1024));
  let sent = 0;
  let stop = false;
  const answer = new Promise<string>((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: p.port, method: 'POST', path: `${API}/sys/common/upload`, headers: { 'X-Access-Token': token, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } },
      (res) => resolve(`answered ${res.statusCode}`),
    );
    req.on('error', () => resolve('connection lost'));
    const pump = () => {
      // 256 KB at a time, never the last byte: the upload cannot complete before the kill.
      while (!stop && sent < body.length - 1) {
        const chunk = body.subarray(sent, Math.min(sent + 256 * 1024, body.length - 1));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
        return void setTimeout(pump, 20);
      }
    };
    pump();
  });
  const deadline = Date.now() + 30_000;
  while (!(await started())) {
    if (Date.now() > deadline) throw new Error('the upload was never seen being stored');
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise((r) => p.child.once('exit', r));
  process.kill(serverPid(p.child), 'SIGKILL');
  await exited;
  stop = true;
  return answer;
}

const fileRows = async () => Number((await sql<{ n: string }>`select count(*) as n from sys_file`.execute(database.db)).rows[0]!.n);

for (const kind of ['db', 's3'] as const) {
  describe(`three API processes, ${kind === 'db' ? 'PostgreSQL' : 'S3'} file storage`, () => {
    let procs: Proc[] = [];
    const prefix = `cluster-${Date.now()}/`;
    const env: Record<string, string> =
      kind === 'db'
        ? {} // the default with DATABASE_URL
        : { FILE_STORAGE: 's3', S3_ENDPOINT: s3?.config.endpoint ?? '', S3_BUCKET: 'dudao', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true', S3_PREFIX: prefix };
    const storage = () => (kind === 'db' ? new DbStorage(database.db) : new S3Storage({ ...s3.config, prefix }));

    beforeAll(async () => {
      if (kind === 's3') Object.assign(env, { S3_ENDPOINT: s3.config.endpoint });
      procs = await Promise.all(PORTS.map((port) => spawnServer(port, dbUrl, env)));
    }, 180_000);
    afterAll(async () => {
      await Promise.all(procs.map((p) => p.stop()));
    });

    it('a file uploaded through one process is downloaded, whole and by ranges, through the others', async () => {
      const [a, b, c] = procs as [Proc, Proc, Proc];
      const { token } = await login(a.url, 'teacher');
      const data = randomBytes(1536 * 1024 + 7);
      const key = await upload(a, token, data);
      const row = (await sql<{ store_type: string }>`select store_type from sys_file where url = ${key}`.execute(database.db)).rows[0]!;
      expect(row.store_type).toBe(kind);
      for (const p of [b, c]) {
        const whole = await download(p, token, key);
        expect(whole.status).toBe(200);
        expect(sha(whole.body)).toBe(sha(data));
      }
      const part = await download(c, token, key, 'bytes=1000000-1099999');
      expect(part.status).toBe(206);
      expect(part.range).toBe(`bytes 1000000-1099999/${data.length}`);
      expect(part.body.equals(data.subarray(1_000_000, 1_100_000))).toBe(true);
      // Deleted through another process: gone for all.
      const admin = await login(b.url, 'admin');
      const id = (await sql<{ id: string }>`select id from sys_file where url = ${key}`.execute(database.db)).rows[0]!.id;
      const del = await (await fetch(`${b.url}${API}/sys/files/delete?id=${id}`, { method: 'DELETE', headers: { 'X-Access-Token': admin.token } })).json();
      expect(del.success, del.message).toBe(true);
      for (const p of [a, c]) expect((await download(p, admin.token, key)).status).toBe(404);
    });

    if (kind === 'db')
      it('npm run files:migrate moves the files of a local upload folder into PostgreSQL; every process serves them', async () => {
        // A server still on the local folder (the embedded layout), one upload, stopped.
        const port = 18334;
        const local = await spawnServer(port, dbUrl, { FILE_STORAGE: 'local' });
        const { token } = await login(local.url, 'teacher');
        const data = randomBytes(600 * 1024);
        const key = await upload(local, token, data);
        expect((await sql<{ store_type: string }>`select store_type from sys_file where url = ${key}`.execute(database.db)).rows[0]!.store_type).toBe('local');
        await local.stop();
        expect((await download(procs[1]!, token, key)).status).toBe(404); // not in the shared storage yet

        const cli = (args: string[]) =>
          run(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/files-migrate.ts', ...args], {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: dbUrl, DATA_DIR: join(TMP, `cluster-${port}`), CONFIG_FILE: '/nonexistent.json' },
          });
        const first = await cli([]);
        expect(first.stdout).toMatch(/复制 [1-9]\d* 个文件/);
        expect((await sql<{ store_type: string }>`select store_type from sys_file where url = ${key}`.execute(database.db)).rows[0]!.store_type).toBe('db');
        for (const p of procs) expect(sha((await download(p, token, key)).body)).toBe(sha(data));
        // Run again (after an interruption, say): nothing is copied twice.
        expect((await cli([])).stdout).toMatch(/复制 0 个文件/);
      });

    it('a process killed mid-upload leaves no half file visible, and the others go on serving', async () => {
      const [a, b] = procs as [Proc, Proc, Proc];
      const { token } = await login(a.url, 'teacher');
      const st = storage();
      const before = { keys: await keys(st), rows: await fileRows() };
      const started =
        kind === 'db'
          ? async () => Number((await sql<{ n: string }>`select count(*) as n from sys_file_chunk k join sys_file_blob b on b.id = k.blob_id where b.key is null`.execute(database.db)).rows[0]!.n) >= 2
          : // lib-storage sends 5 MB parts: the first part of a multipart upload is on the store (s3rver keeps `<uploadId>/1`).
            async () => readdirSync(s3.directory, { recursive: true }).some((f) => /(^|\/)1\.md5$/.test(String(f)));
      const outcome = await killMidUpload(a, token, started);
      expect(outcome).toBe('connection lost');
      expect(await keys(st)).toEqual(before.keys);
      expect(await fileRows()).toBe(before.rows);
      // The others still store and serve.
      const other = await login(b.url, 'teacher');
      const data = randomBytes(4096);
      const key = await upload(b, other.token, data);
      expect(sha((await download(procs[2]!, other.token, key)).body)).toBe(sha(data));
      if (kind === 'db') {
        // The unpublished leftover is swept (the nightly sweep job: older than a day; here at once).
        expect(await st.sweep(0)).toBeGreaterThanOrEqual(1);
        expect(Number((await sql<{ n: string }>`select count(*) as n from sys_file_blob where key is null`.execute(database.db)).rows[0]!.n)).toBe(0);
      }
      procs[0] = await spawnServer(PORTS[0]!, dbUrl, env); // back for afterAll
    }, 120_000);
  });
}

describe('backup → wipe → restore on PostgreSQL', () => {
  const tsx = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const cli = (script: string, args: string[], url: string) =>
    run(process.execPath, [tsx, script, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, DATA_DIR: join(work, 'data'), CONFIG_FILE: '/nonexistent.json', LOG_LEVEL: 'error' } }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
    );
  const target = `restore_${process.pid}`;
  const targetUrl = () => {
    const u = new URL(dbUrl);
    u.pathname = `/${target}`;
    return u.toString();
  };
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const u = new URL(dbUrl);
    u.pathname = '/postgres';
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  afterAll(() => admin((c) => c.query(`drop database if exists "${target}" with (force)`)));

  async function snapshot(db: Database['db']) {
    const tables = (await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = 'public' order by 1`.execute(db)).rows.map((r) => r.t);
    const counts: Record<string, number> = {};
    for (const t of tables) if (t !== 'sys_file_chunk') counts[t] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(t)}`.execute(db)).rows[0]!.n);
    // A backup carries published files only: an upload cut short (no key yet) is the sweep's, not the archive's.
    counts.sys_file_blob = Number((await sql<{ n: string }>`select count(*) as n from sys_file_blob where key is not null`.execute(db)).rows[0]!.n);
    const files: Record<string, string> = {};
    const st = new DbStorage(db);
    for await (const o of st.list()) {
      const chunks: Buffer[] = [];
      for await (const c of await st.get(o.key)) chunks.push(c as Buffer);
      files[o.key] = sha(Buffer.concat(chunks));
    }
    return { counts, files };
  }

  it('npm run backup, then npm run restore into an empty database: counts and file hashes equal; a non-empty target is refused', async () => {
    // Seed files in the PostgreSQL storage (several chunks each).
    const st = new DbStorage(database.db);
    const { Readable } = await import('node:stream');
    for (let i = 0; i < 3; i++) await st.put(`backup/${i}.bin`, Readable.from([randomBytes(300 * 1024 + i)]));
    const source = await snapshot(database.db);
    expect(Object.keys(source.files).length).toBeGreaterThanOrEqual(3);

    const b = await cli('scripts/backup.ts', ['--dir', join(work, 'backups')], dbUrl);
    expect(b.code, b.err).toBe(0);
    const archive = join(work, 'backups', readdirSync(join(work, 'backups')).find((n) => n.endsWith('.tar.gz'))!);

    await admin((c) => c.query(`create database "${target}"`));
    const r = await cli('scripts/restore.ts', [archive], targetUrl());
    expect(r.code, r.err).toBe(0);
    const restored = await openDatabase({ databaseUrl: targetUrl(), dataDir: '' });
    try {
      const after = await snapshot(restored.db);
      expect(after.files).toEqual(source.files);
      for (const [t, n] of Object.entries(source.counts)) if (!['sys_log', 'sys_file_blob'].includes(t)) expect({ t, n: after.counts[t] }).toEqual({ t, n });
      expect(after.counts.sys_file_blob).toBe(source.counts.sys_file_blob);
    } finally {
      await restored.close();
    }
    const again = await cli('scripts/restore.ts', [archive], targetUrl());
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/目标数据库不是空的/);
  }, 240_000);
});
