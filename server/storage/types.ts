import type { Readable } from 'node:stream';

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  size: number;
}

/**
 * An upload written to a place no reader looks at (a temp file, a pending row, a temp object).
 * `commit` publishes it under its key in one step (rename, one UPDATE, a server-side copy), so a
 * reader sees the whole file or nothing; `abort` drops it. A process killed in between leaves only
 * an unpublished leftover, which `sweep` removes later.
 */
export interface PendingUpload {
  size: number;
  commit(key: string): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Where uploaded files live (server/storage/*): the local folder, PostgreSQL or an S3-compatible
 * object store. Keys are the stored relative paths records refer to (`<biz>/<name>`); they are
 * checked by `checkKey` before they reach an implementation.
 */
export interface FileStorage {
  readonly kind: 'local' | 'db' | 's3';
  /** Streams `body` into an unpublished place; the size is known once the stream ends. A stream error aborts. */
  upload(body: Readable): Promise<PendingUpload>;
  /** Streams `body` and publishes it under `key` (replacing an object of that key). */
  put(key: string, body: Readable): Promise<number>;
  /** The object's bytes, or the inclusive range of them. Call `stat` first: a missing key rejects. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | undefined>;
  delete(key: string): Promise<void>;
  /** Every published object (keys sorted), optionally under a key prefix. */
  list(prefix?: string): AsyncIterable<StoredObject>;
  /** Removes unpublished leftovers older than `olderThanMs` (uploads cut short by a crash); returns how many. */
  sweep(olderThanMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A stored key: relative, `/`-separated plain segments (no `.`/`..`, no empty ones, no backslash or NUL), at most 500 chars. */
export function isValidKey(key: string): boolean {
  return (
    !!key &&
    key.length <= 500 &&
    !key.includes('\0') &&
    !key.includes('\\') &&
    !key.startsWith('/') &&
    !key.startsWith('.tmp/') &&
    key.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}

export function checkKey(key: string): string {
  if (!isValidKey(key)) throw new Error(`bad storage key: ${JSON.stringify(key).slice(0, 100)}`);
  return key;
}
