import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { sql } from 'kysely';
import { API, startTestServer, type TestServer } from '../helpers/server.js';
import { ROOT, TMP } from '../helpers/template-db.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase, type DB } from '../../server/db/index.js';
import { createStorage, type FileStorage } from '../../server/storage/index.js';
import { knownMigrationVersion, type Manifest } from '../../server/ops/backup.js';

/**
 * Backup → wipe → restore on PGlite (issue 32): the nightly job writes the archive inside the running
 * server, `npm run restore` (the real script, as a child process) brings it into an empty data
 * directory; counts, rows and file hashes are equal. An archive of the previous schema version restores
 * and is migrated; a non-empty target and an archive from a newer product are refused.
 */
const run = promisify(execFile);
const work = join(TMP, `ops-backup-${process.pid}`);
let s: TestServer;
let admin: string;
const uploaded = new Map<string, string>(); // key → sha256

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function multipart(name: string, data: Buffer) {
  const boundary = '----ddbk' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\nbackup\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function tableCounts(db: DB): Promise<Record<string, number>> {
  const tables = (await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = 'public' order by 1`.execute(db)).rows.map((r) => r.t);
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(t)}`.execute(db)).rows[0]!.n);
  return out;
}

async function fileHashes(storage: FileStorage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const o of storage.list()) {
    const chunks: Buffer[] = [];
    for await (const c of await storage.get(o.key)) chunks.push(c as Buffer);
    out[o.key] = sha(Buffer.concat(chunks));
  }
  return out;
}

/** Runs `npm run restore` (scripts/restore.ts) against a data directory. */
const restoreCli = (archive: string, dataDir: string) =>
  run(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/restore.ts', archive], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, CONFIG_FILE: '/nonexistent.json', DATABASE_URL: '', LOG_LEVEL: 'error' },
  }).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
  );

/** Opens a restored data directory the way the server would (local file storage). */
async function openRestored(dataDir: string) {
  const cfg = loadConfig({ dataDir, storage: { kind: 'local' } as never }, {});
  const database = await openDatabase(cfg);
  return { database, storage: createStorage(cfg, database.db) };
}

let archive: string;
let manifest: Manifest;
let sourceCounts: Record<string, number>;

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  s = await startTestServer({ backup: { dir: join(work, 'backups'), keep: 7 } });
  admin = await s.login('admin');
  for (const size of [10, 300 * 1024, 1]) {
    const data = randomBytes(size);
    const { payload, headers } = multipart(`附件${size}.bin`, data);
    const r = (await s.call({ method: 'POST', url: 'sys/common/upload', token: admin, payload, headers })).json();
    expect(r.success, r.message).toBe(true);
    uploaded.set(r.message, sha(data));
  }
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('backup → wipe → restore (PGlite)', () => {
  it('the nightly backup job writes one archive with a versioned manifest, and keeps only the newest N', async () => {
    const job = await s.running.ctx.db.selectFrom('sys_quartz_job').select(['id', 'status', 'cron_expression']).where('job_class_name', '=', 'nightlyBackup').executeTakeFirstOrThrow();
    expect({ status: Number(job.status), cron: job.cron_expression }).toEqual({ status: 0, cron: '0 0 2 * * ?' });
    await s.running.ctx.db.updateTable('sys_quartz_job').set({ parameter: '2' }).where('id', '=', job.id).execute();
    sourceCounts = await tableCounts(s.running.ctx.db);
    let lastSecond = 0;
    for (let i = 0; i < 3; i++) {
      // Manual runs are claimed per job and second (sys_job_run unique fire time): on a fast machine
      // the next run must fall into a later second, or it is refused as 刚刚已执行.
      while (Math.floor(Date.now() / 1000) === lastSecond) await new Promise((r) => setTimeout(r, 20));
      lastSecond = Math.floor(Date.now() / 1000);
      const r = (await s.get(`${API}/sys/quartzJob/execute?id=${job.id}`, admin)).json();
      expect(r.success, r.message).toBe(true);
    }
    const names = readdirSync(join(work, 'backups')).filter((n) => n.endsWith('.tar.gz')).sort();
    expect(names).toHaveLength(2); // keep = the job's parameter
    expect(readdirSync(join(work, 'backups')).filter((n) => n.startsWith('.'))).toEqual([]); // no staging left
    archive = join(work, 'backups', names[0]!);
    const x = join(work, 'peek');
    mkdirSync(x);
    await tar.x({ file: archive, cwd: x });
    manifest = JSON.parse(readFileSync(join(x, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, engine: s.running.ctx.dbKind, storageKind: 'local', migrationVersion: knownMigrationVersion() });
    expect(manifest.product).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.migrations).toContain(3200);
    // The files of the archive are the uploads (plus any stored before), with their hashes.
    for (const [key, hash] of uploaded) expect(manifest.files.find((f) => f.key === key)?.sha256).toBe(hash);
    const users = manifest.tables.find((t) => t.name === 'sys_user')!;
    expect(users.rows).toBe(sourceCounts.sys_user);
  }, 120_000);

  it('npm run restore brings it into an empty data directory: row counts, rows and file hashes equal', async () => {
    const target = join(work, 'restored');
    const r = await restoreCli(archive, target);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/恢复完成/);
    const { database, storage } = await openRestored(target);
    try {
      const counts = await tableCounts(database.db);
      for (const t of manifest.tables) if (!['sys_file_blob', 'sys_file_chunk'].includes(t.name)) expect({ t: t.name, n: counts[t.name] }).toEqual({ t: t.name, n: t.rows });
      // Tables nothing wrote to while the jobs ran are equal to the source's.
      for (const t of ['sys_user', 'sys_role', 'sys_permission', 'sys_file', 'sys_depart', 'sup_term'])
        expect({ t, n: counts[t] }).toEqual({ t, n: sourceCounts[t] });
      const rowsOf = async (db: DB) => (await sql`select * from sys_user order by id`.execute(db)).rows;
      expect(JSON.stringify(await rowsOf(database.db))).toBe(JSON.stringify(await rowsOf(s.running.ctx.db)));
      expect(await fileHashes(storage)).toEqual(await fileHashes(createStorage(s.cfg, s.running.ctx.db)));
      for (const [key, hash] of uploaded) expect((await fileHashes(storage))[key]).toBe(hash);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('refuses a non-empty target with a clear message and leaves it untouched', async () => {
    const target = join(work, 'restored');
    const r = await restoreCli(archive, target);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/恢复被拒绝：目标数据库不是空的/);
  }, 120_000);

  it('an archive of the previous schema version restores and is migrated to the current one', async () => {
    // The previous version: before migrations 3200/3201 (no PostgreSQL file storage tables, no backup jobs).
    const x = join(work, 'old');
    mkdirSync(x);
    await tar.x({ file: archive, cwd: x });
    const m = JSON.parse(readFileSync(join(x, 'manifest.json'), 'utf8')) as Manifest;
    const old = m.migrations.filter((v) => v < 3200);
    writeFileSync(join(x, 'manifest.json'), JSON.stringify({ ...m, product: '0.0.9', migrationVersion: Math.max(...old), migrations: old, tables: m.tables.filter((t) => !t.name.startsWith('sys_file_')) }));
    const schema = JSON.parse(readFileSync(join(x, 'schema.json'), 'utf8'));
    const notFileStorage = (ddl: string) => !/sys_file_(blob|chunk)/.test(ddl);
    schema.tables = schema.tables.filter((t: { name: string }) => !t.name.startsWith('sys_file_'));
    for (const k of ['constraints', 'foreignKeys', 'indexes']) schema[k] = schema[k].filter(notFileStorage);
    writeFileSync(join(x, 'schema.json'), JSON.stringify(schema));
    const filter = (file: string, keep: (row: any) => boolean) => {
      const lines = readFileSync(join(x, 'data', file), 'utf8').split('\n').filter(Boolean);
      writeFileSync(join(x, 'data', file), lines.filter((l) => keep(JSON.parse(l))).map((l) => l + '\n').join(''));
    };
    filter('schema_migrations.jsonl', (r) => r.version < 3200);
    filter('sys_quartz_job.jsonl', (r) => !['nightlyBackup', 'sweepUnpublishedUploads'].includes(r.job_class_name));
    const oldArchive = join(work, 'previous-version.tar.gz');
    await tar.c({ gzip: true, file: oldArchive, cwd: x }, readdirSync(x));

    const target = join(work, 'restored-old');
    const r = await restoreCli(oldArchive, target);
    expect(r.code, r.err).toBe(0);
    const { database, storage } = await openRestored(target);
    try {
      const versions = (await sql<{ v: number }>`select version as v from schema_migrations order by 1`.execute(database.db)).rows.map((x) => Number(x.v));
      expect(versions).toEqual(expect.arrayContaining([3200, 3201]));
      expect((await sql<{ t: string | null }>`select to_regclass('public.sys_file_blob')::text as t`.execute(database.db)).rows[0]!.t).toBe('sys_file_blob');
      const jobs = await database.db.selectFrom('sys_quartz_job').select('job_class_name').where('job_class_name', 'in', ['nightlyBackup', 'sweepUnpublishedUploads']).execute();
      expect(jobs).toHaveLength(2);
      expect(Number((await sql<{ n: string }>`select count(*) as n from sys_user`.execute(database.db)).rows[0]!.n)).toBe(sourceCounts.sys_user);
      for (const [key, hash] of uploaded) expect((await fileHashes(storage))[key]).toBe(hash);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('refuses an archive from a newer product (a schema version it does not know)', async () => {
    const x = join(work, 'new');
    mkdirSync(x);
    await tar.x({ file: archive, cwd: x });
    const m = JSON.parse(readFileSync(join(x, 'manifest.json'), 'utf8'));
    writeFileSync(join(x, 'manifest.json'), JSON.stringify({ ...m, migrationVersion: 999_999 }));
    const newer = join(work, 'newer.tar.gz');
    await tar.c({ gzip: true, file: newer, cwd: x }, readdirSync(x));
    const r = await restoreCli(newer, join(work, 'restored-new'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/该备份来自更新的版本/);
  }, 120_000);
});
