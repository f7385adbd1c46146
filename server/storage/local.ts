import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { checkKey, type ByteRange, type FileStorage, type PendingUpload, type StoredObject } from './types.js';

/**
 * Files in a local folder (the embedded default): an upload streams to `<root>/.tmp/<id>`, is
 * fsynced, and is published by rename — atomic within one file system.
 */
export class LocalStorage implements FileStorage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    const full = resolve(this.root, checkKey(key));
    if (!full.startsWith(this.root + sep)) throw new Error('bad storage key');
    return full;
  }

  async upload(body: Readable): Promise<PendingUpload> {
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    let size = 0;
    body.on('data', (c: Buffer) => (size += c.length));
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      const fh = await open(tmp, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    let done = false;
    return {
      size,
      commit: async (key) => {
        const full = this.path(key);
        await mkdir(dirname(full), { recursive: true });
        await rename(tmp, full);
        done = true;
      },
      abort: async () => {
        if (!done) await unlink(tmp).catch(() => undefined);
        done = true;
      },
    };
  }

  async put(key: string, body: Readable): Promise<number> {
    this.path(key);
    const up = await this.upload(body);
    await up.commit(key);
    return up.size;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const full = this.path(key);
    // Open first so a missing file rejects here, not as a stream error after the headers went out.
    const fh = await open(full, 'r');
    return createReadStream('', { fd: fh, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  async stat(key: string) {
    const st = await stat(this.path(key)).catch(() => undefined);
    return st?.isFile() ? { size: st.size } : undefined;
  }

  async delete(key: string) {
    await unlink(this.path(key)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<StoredObject> {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        if (!rel && e.name === '.tmp') continue;
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(join(dir, e.name), key);
        else if (e.isFile()) yield { key, size: (await stat(join(dir, e.name))).size };
      }
    };
    for await (const o of walk(this.root, '')) if (o.key.startsWith(prefix)) yield o;
  }

  async sweep(olderThanMs: number): Promise<number> {
    const dir = join(this.root, '.tmp');
    let n = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const st = await stat(join(dir, name)).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > olderThanMs) {
        await unlink(join(dir, name)).catch(() => undefined);
        n++;
      }
    }
    return n;
  }

  async close() {}
}
