import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { newId } from '../util.js';
import { checkKey, type ByteRange, type FileStorage, type PendingUpload, type StoredObject } from './types.js';

/** Bytes per `sys_file_chunk` row: small enough to stream, large enough to keep the row count low. */
export const CHUNK_BYTES = 256 * 1024;

const toBuffer = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(v as Uint8Array));

/**
 * Files in PostgreSQL (the default with DATABASE_URL: a cluster needs nothing else). One
 * `sys_file_blob` row per file, its bytes in `sys_file_chunk` rows of 256 KB. An upload writes a blob
 * row without a key (invisible) and its chunks as they arrive; `commit` gives it the key in one
 * transaction. Tables: migration 3200.
 */
export class DbStorage implements FileStorage {
  readonly kind = 'db' as const;

  constructor(private readonly db: DB) {}

  async upload(body: Readable): Promise<PendingUpload> {
    const id = newId();
    await this.db.insertInto('sys_file_blob').values({ id, key: null, size: 0, chunk_size: CHUNK_BYTES }).execute();
    let size = 0;
    try {
      let seq = 0;
      let parts: Buffer[] = [];
      let held = 0;
      const flush = async (all: boolean) => {
        while (held >= CHUNK_BYTES || (all && held > 0)) {
          const buf = Buffer.concat(parts);
          const data = buf.subarray(0, CHUNK_BYTES);
          const rest = buf.subarray(data.length);
          await this.db.insertInto('sys_file_chunk').values({ blob_id: id, seq: seq++, data }).execute();
          parts = rest.length ? [rest] : [];
          held = rest.length;
        }
      };
      for await (const c of body) {
        const b = toBuffer(c);
        size += b.length;
        parts.push(b);
        held += b.length;
        if (held >= CHUNK_BYTES) await flush(false);
      }
      await flush(true);
      await this.db.updateTable('sys_file_blob').set({ size }).where('id', '=', id).execute();
    } catch (err) {
      await this.drop(id).catch(() => undefined);
      throw err;
    }
    let done = false;
    return {
      size,
      commit: async (key) => {
        checkKey(key);
        await this.db.transaction().execute(async (trx) => {
          const old = await trx.selectFrom('sys_file_blob').select('id').where('key', '=', key).execute();
          if (old.length) await trx.deleteFrom('sys_file_blob').where('id', 'in', old.map((o) => String(o.id))).execute();
          await trx.updateTable('sys_file_blob').set({ key }).where('id', '=', id).execute();
        });
        done = true;
      },
      abort: async () => {
        if (!done) await this.drop(id);
        done = true;
      },
    };
  }

  private async drop(id: string) {
    await this.db.deleteFrom('sys_file_chunk').where('blob_id', '=', id).execute();
    await this.db.deleteFrom('sys_file_blob').where('id', '=', id).execute();
  }

  async put(key: string, body: Readable): Promise<number> {
    checkKey(key);
    const up = await this.upload(body);
    await up.commit(key);
    return up.size;
  }

  private async blob(key: string) {
    const r = await this.db.selectFrom('sys_file_blob').select(['id', 'size', 'chunk_size']).where('key', '=', checkKey(key)).executeTakeFirst();
    return r ? { id: String(r.id), size: Number(r.size), chunk: Number(r.chunk_size) } : undefined;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const b = await this.blob(key);
    if (!b) throw Object.assign(new Error(`no such file: ${key}`), { code: 'ENOENT' });
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? b.size - 1, b.size - 1);
    const db = this.db;
    async function* chunks() {
      if (end < start) return;
      for (let seq = Math.floor(start / b!.chunk); seq <= Math.floor(end / b!.chunk); seq++) {
        const row = await db.selectFrom('sys_file_chunk').select('data').where('blob_id', '=', b!.id).where('seq', '=', seq).executeTakeFirst();
        if (!row) throw new Error(`file ${key} lost its chunk ${seq}`);
        const data = toBuffer(row.data);
        const from = seq * b!.chunk;
        yield data.subarray(Math.max(0, start - from), Math.min(data.length, end - from + 1));
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async stat(key: string) {
    const b = await this.blob(key);
    return b ? { size: b.size } : undefined;
  }

  async delete(key: string) {
    const b = await this.blob(key);
    if (b) await this.drop(b.id);
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    let after = '';
    for (;;) {
      let q = this.db.selectFrom('sys_file_blob').select(['key', 'size']).where('key', 'is not', null).where('key', '>', after);
      if (prefix) q = q.where(sql<boolean>`left(key, ${prefix.length}) = ${prefix}`);
      const rows = await q.orderBy('key').limit(500).execute();
      for (const r of rows) yield { key: String(r.key), size: Number(r.size) };
      if (rows.length < 500) return;
      after = String(rows[rows.length - 1]!.key);
    }
  }

  async sweep(olderThanMs: number): Promise<number> {
    // On the database's clock (create_time defaults to localtimestamp): processes may run in other time zones.
    // create_time is kept to the second, rounded, so a blob made this instant may read up to half a second
    // ahead: compare against the rounded clock too.
    const rows = await this.db
      .selectFrom('sys_file_blob')
      .select('id')
      .where('key', 'is', null)
      .where('create_time', '<=', sql<string>`localtimestamp(0) - make_interval(secs => ${Math.floor(olderThanMs / 1000)})`)
      .execute();
    for (const r of rows) await this.drop(String(r.id));
    return rows.length;
  }

  async close() {}
}
