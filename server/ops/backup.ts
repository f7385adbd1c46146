import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import * as tar from 'tar';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/index.js';
import { migrations } from '../db/migrations/index.js';
import type { FileStorage } from '../storage/index.js';

/**
 * Backup and restore (issue 32): one `.tar.gz` archive holding
 * - `manifest.json`: archive format, product version, schema (migration) version, engine, row counts,
 *   and every file's key, size and SHA-256;
 * - `schema.json`: the database's own DDL read from the catalog (sequences, functions, tables, then
 *   constraints, indexes, triggers and views), so a restore rebuilds exactly the backed-up schema;
 * - `data/<table>.jsonl`: every row as `row_to_json`, read in one REPEATABLE READ snapshot;
 * - `files/<key>`: the stored files, read through the file storage (whichever kind).
 *
 * A logical dump through the connection, not `pg_dump` nor PGlite's `dumpDataDir`: the same code
 * backs up PGlite and PostgreSQL, an archive restores into either (an embedded installation moves to
 * PostgreSQL by backup → restore), and no client binaries of a matching version are needed.
 * Restore loads the older schema as it was, then the server's migrations bring it up to date.
 */
export const ARCHIVE_FORMAT = 1;

/** Rows of the PostgreSQL file storage travel as `files/` (portable to any storage kind), not as table data. */
const FILE_TABLES = new Set(['sys_file_blob', 'sys_file_chunk']);

export interface Manifest {
  format: number;
  product: string;
  /** The highest applied migration (schema_migrations.version) — the schema version of the archive. */
  migrationVersion: number;
  migrations: number[];
  engine: 'pglite' | 'pg';
  storageKind: string;
  createdAt: string;
  tables: Array<{ name: string; rows: number }>;
  files: Array<{ key: string; size: number; sha256: string }>;
}

interface SchemaDump {
  sequences: Array<{ name: string; ddl: string; last: string | null; called: boolean }>;
  functions: string[];
  tables: Array<{ name: string; ddl: string; columns: string[] }>;
  constraints: string[];
  foreignKeys: string[];
  indexes: string[];
  triggers: string[];
  views: string[];
}

export const productVersion = (): string => {
  const pkg = resolve(dirname(new URL(import.meta.url).pathname), '../../package.json');
  return existsSync(pkg) ? String(JSON.parse(readFileSync(pkg, 'utf8')).version ?? '0') : '0';
};

/** The highest migration this product knows: an archive with a higher schema version came from a newer product. */
export const knownMigrationVersion = () => Math.max(0, ...migrations.map((m) => m.version));

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
type Conn = Pick<DB, 'executeQuery'> & DB;
const rows = async <T>(db: Conn, text: string): Promise<T[]> => (await sql.raw<T>(text).execute(db)).rows;

/** The public schema's objects, as DDL statements in the order a restore runs them. */
async function readSchema(db: Conn): Promise<SchemaDump> {
  const seqs = await rows<{ name: string; type: string; start: string; inc: string; min: string; max: string; cycle: boolean; last: string | null; called: boolean }>(
    db,
    `select s.sequencename as name, s.data_type::text as type, s.start_value::text as start, s.increment_by::text as inc, s.min_value::text as min,
            s.max_value::text as max, s.cycle, s.last_value::text as last, s.last_value is not null as called
       from pg_sequences s where s.schemaname = 'public' order by 1`,
  );
  const functions = await rows<{ def: string }>(
    db,
    `select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') order by p.proname, p.oid`,
  );
  const cols = await rows<{ tbl: string; col: string; type: string; notnull: boolean; def: string | null; generated: string; identity: string }>(
    db,
    `select c.relname as tbl, a.attname as col, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
            pg_get_expr(ad.adbin, ad.adrelid) as def, a.attgenerated::text as generated, a.attidentity::text as identity
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       left join pg_attrdef ad on ad.adrelid = c.oid and ad.adnum = a.attnum
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname, a.attnum`,
  );
  const tables = new Map<string, { parts: string[]; columns: string[] }>();
  for (const c of cols) {
    const t = tables.get(c.tbl) ?? { parts: [], columns: [] };
    tables.set(c.tbl, t);
    let d = `${q(c.col)} ${c.type}`;
    if (c.generated === 's') d += ` generated always as (${c.def}) stored`;
    else {
      if (c.identity === 'a') d += ' generated always as identity';
      else if (c.identity === 'd') d += ' generated by default as identity';
      else if (c.def !== null) d += ` default ${c.def}`;
      t.columns.push(c.col);
    }
    if (c.notnull) d += ' not null';
    t.parts.push(d);
  }
  const cons = await rows<{ tbl: string; name: string; def: string; type: string }>(
    db,
    `select c.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def, k.contype::text as type
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and k.contype in ('p', 'u', 'c', 'x', 'f') and k.conislocal
      order by case k.contype when 'p' then 0 when 'u' then 1 when 'c' then 2 when 'x' then 3 else 4 end, c.relname, k.conname`,
  );
  const indexes = await rows<{ def: string }>(
    db,
    `select pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid) order by c.relname`,
  );
  const triggers = await rows<{ def: string }>(
    db,
    `select pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal order by c.relname, t.tgname`,
  );
  const views = await rows<{ name: string; def: string; kind: string }>(
    db,
    `select c.relname as name, pg_get_viewdef(c.oid) as def, c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('v', 'm') order by c.oid`,
  );
  return {
    sequences: seqs.map((s) => ({
      name: s.name,
      ddl: `create sequence ${q(s.name)} as ${s.type} increment by ${s.inc} minvalue ${s.min} maxvalue ${s.max} start with ${s.start}${s.cycle ? ' cycle' : ''}`,
      last: s.last,
      called: s.called,
    })),
    functions: functions.map((f) => f.def),
    tables: [...tables].map(([name, t]) => ({ name, ddl: `create table ${q(name)} (${t.parts.join(', ')})`, columns: t.columns })),
    constraints: cons.filter((c) => c.type !== 'f').map((c) => `alter table ${q(c.tbl)} add constraint ${q(c.name)} ${c.def}`),
    foreignKeys: cons.filter((c) => c.type === 'f').map((c) => `alter table ${q(c.tbl)} add constraint ${q(c.name)} ${c.def}`),
    indexes: indexes.map((i) => i.def),
    triggers: triggers.map((t) => t.def),
    views: views.map((v) => `create ${v.kind === 'm' ? 'materialized view' : 'view'} ${q(v.name)} as ${v.def}`),
  };
}

async function write(out: WriteStream, text: string) {
  if (!out.write(text)) await once(out, 'drain');
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

export interface BackupResult {
  file: string;
  manifest: Manifest;
}

/**
 * Writes one archive of the database and the stored files into `dir` (default `backup.dir`).
 * Uses the given database handle: inside the server (the nightly job) or from `npm run backup`.
 */
export async function backupTo(opts: { cfg: AppConfig; db: DB; kind: 'pglite' | 'pg'; storage: FileStorage; dir?: string }): Promise<BackupResult> {
  const dir = resolve(opts.dir ?? opts.cfg.backup.dir);
  await mkdir(dir, { recursive: true });
  const staging = await mkdtemp(join(dir, '.staging-'));
  try {
    await mkdir(join(staging, 'data'));
    await mkdir(join(staging, 'files'));
    const tables: Manifest['tables'] = [];
    let schema!: SchemaDump;
    let applied: number[] = [];
    // One snapshot for the schema and every table's rows.
    await opts.db.connection().execute(async (conn) => {
      await sql`begin isolation level repeatable read read only`.execute(conn);
      try {
        schema = await readSchema(conn as Conn);
        const hasMigrations = schema.tables.some((t) => t.name === 'schema_migrations');
        applied = hasMigrations ? (await rows<{ v: number }>(conn as Conn, 'select version as v from schema_migrations order by 1')).map((r) => Number(r.v)) : [];
        for (const t of schema.tables) {
          if (FILE_TABLES.has(t.name)) {
            tables.push({ name: t.name, rows: 0 });
            continue;
          }
          const out = createWriteStream(join(staging, 'data', `${t.name}.jsonl`));
          let n = 0;
          await sql.raw(`declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${q(t.name)} t`).execute(conn);
          for (;;) {
            const batch = await rows<{ j: string }>(conn as Conn, 'fetch 500 from backup_rows');
            for (const r of batch) await write(out, r.j + '\n');
            n += batch.length;
            if (batch.length < 500) break;
          }
          await sql.raw('close backup_rows').execute(conn);
          out.end();
          await once(out, 'finish');
          tables.push({ name: t.name, rows: n });
        }
      } finally {
        await sql`commit`.execute(conn);
      }
    });
    await writeFile(join(staging, 'schema.json'), JSON.stringify(schema, null, 1));
    const files: Manifest['files'] = [];
    for await (const o of opts.storage.list()) {
      const target = join(staging, 'files', o.key);
      await mkdir(dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const tap = new Transform({
        transform(c: Buffer, _e, cb) {
          hash.update(c);
          size += c.length;
          cb(null, c);
        },
      });
      await pipeline(await opts.storage.get(o.key), tap, createWriteStream(target));
      files.push({ key: o.key, size, sha256: hash.digest('hex') });
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      product: productVersion(),
      migrationVersion: Math.max(0, ...applied),
      migrations: applied,
      engine: opts.kind,
      storageKind: opts.storage.kind,
      createdAt: new Date().toISOString(),
      tables,
      files,
    };
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 1));
    const file = join(dir, `dudao-backup-${stamp()}-${Math.random().toString(36).slice(2, 6)}.tar.gz`);
    const partial = `${file}.partial`;
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'schema.json', 'data', 'files']);
    const { rename } = await import('node:fs/promises');
    await rename(partial, file); // a half-written archive never looks like a backup
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Keeps the newest `keep` archives of `dir`; returns the removed ones. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^dudao-backup-.*\.tar\.gz$/.test(n)).sort();
  const gone = names.slice(0, Math.max(0, names.length - Math.max(1, keep)));
  for (const n of gone) await rm(join(dir, n), { force: true });
  return gone;
}

export class RestoreRefused extends Error {}

/** Unpacks an archive into a temp folder and reads its manifest (checking the format and the schema version). */
export async function openArchive(file: string, workDir: string): Promise<{ dir: string; manifest: Manifest; schema: SchemaDump }> {
  if (!existsSync(file)) throw new RestoreRefused(`备份文件不存在：${file}`);
  await mkdir(workDir, { recursive: true });
  const dir = await mkdtemp(join(workDir, '.restore-'));
  await tar.x({ file, cwd: dir, strict: true });
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== ARCHIVE_FORMAT) throw new RestoreRefused(`不支持的备份格式版本 ${String(manifest.format)}（本版本支持 ${ARCHIVE_FORMAT}）`);
  if (manifest.migrationVersion > knownMigrationVersion())
    throw new RestoreRefused(`该备份来自更新的版本（数据库结构版本 ${manifest.migrationVersion}，本程序最高 ${knownMigrationVersion()}），请先升级程序再恢复`);
  const schema = JSON.parse(await readFile(join(dir, 'schema.json'), 'utf8')) as SchemaDump;
  return { dir, manifest, schema };
}

/** Why a restore target is not empty, or undefined when it is. */
export async function targetProblem(db: DB, storage: FileStorage): Promise<string | undefined> {
  const objects = await rows<{ n: number }>(db as Conn, `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S')`);
  if (objects[0]!.n > 0) return `目标数据库不是空的（已有 ${objects[0]!.n} 个表、视图或序列）。恢复只写入空数据库：请新建一个空数据库（或换一个空的数据目录）后再恢复`;
  if (storage.kind === 'db') return undefined; // its tables are in the (empty) database
  for await (const o of storage.list()) return `目标文件存储不是空的（例如 ${o.key}）。恢复只写入空的文件存储`;
  return undefined;
}

/**
 * Restores an archive into an empty database and file storage: the archive's schema and rows in one
 * transaction (all or nothing), then the files (each checked against its SHA-256). The caller then
 * runs the server's preparation (entity tables, migrations) — see scripts/restore.ts.
 */
export async function restoreFrom(opts: { file: string; db: DB; storage: FileStorage; workDir: string }): Promise<Manifest> {
  const { dir, manifest, schema } = await openArchive(opts.file, opts.workDir);
  try {
    const problem = await targetProblem(opts.db, opts.storage);
    if (problem) throw new RestoreRefused(problem);
    await opts.db.transaction().execute(async (trx) => {
      const run = (text: string) => sql.raw(text).execute(trx);
      await run('set local check_function_bodies = off');
      for (const s of schema.sequences) await run(s.ddl);
      for (const f of schema.functions) await run(f);
      for (const t of schema.tables) await run(t.ddl);
      for (const t of schema.tables) {
        const path = join(dir, 'data', `${t.name}.jsonl`);
        if (!existsSync(path)) continue;
        const cols = t.columns.map(q).join(', ');
        let batch: string[] = [];
        let bytes = 0;
        const flush = async () => {
          if (!batch.length) return;
          await sql`insert into ${sql.raw(q(t.name))} (${sql.raw(cols)}) select ${sql.raw(cols)} from json_populate_recordset(null::${sql.raw(q(t.name))}, ${'[' + batch.join(',') + ']'}::json)`.execute(trx);
          batch = [];
          bytes = 0;
        };
        for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
          if (!line) continue;
          batch.push(line);
          bytes += line.length;
          if (batch.length >= 500 || bytes > 4_000_000) await flush();
        }
        await flush();
      }
      for (const s of schema.sequences) if (s.last !== null) await sql`select setval(${q(s.name)}, ${s.last}::bigint, ${s.called})`.execute(trx);
      for (const c of schema.constraints) await run(c);
      for (const c of schema.foreignKeys) await run(c);
      for (const i of schema.indexes) await run(i);
      for (const t of schema.triggers) await run(t);
      for (const v of schema.views) await run(v);
    });
    for (const f of manifest.files) {
      const path = join(dir, 'files', f.key);
      const hash = createHash('sha256');
      const tap = new Transform({
        transform(c: Buffer, _e, cb) {
          hash.update(c);
          cb(null, c);
        },
      });
      const st = await stat(path);
      if (st.size !== f.size) throw new RestoreRefused(`备份中的文件 ${f.key} 大小不符，备份已损坏`);
      await opts.storage.put(f.key, createReadStream(path).pipe(tap));
      if (hash.digest('hex') !== f.sha256) throw new RestoreRefused(`备份中的文件 ${f.key} 校验值不符，备份已损坏`);
    }
    return manifest;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
