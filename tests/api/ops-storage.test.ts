import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { API, startTestServer, type TestServer } from '../helpers/server.js';
import { startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { parseRange } from '../../server/storage/http.js';
import { storageOf } from '../../server/storage/index.js';

/**
 * The file storage (issue 32): the same upload / download / range / delete behaviour on the local
 * folder, PostgreSQL chunks (in PGlite here) and an S3-compatible store (s3rver from npm, started here).
 */

function multipart(file: { name: string; type: string; data: Buffer }, fields: Record<string, string> = {}) {
  const boundary = '----ddops' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('Range header parsing', () => {
  it('reads one byte range, a suffix, an open end; ignores what it cannot serve; refuses past the end', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
    expect(parseRange('bytes=9-3', 100)).toBeUndefined();
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(() => s3?.close());

for (const kind of ['local', 'db', 's3'] as const) {
  describe(`${kind} storage`, () => {
    let s: TestServer;
    let teacher: string;
    let admin: string;
    beforeAll(async () => {
      s = await startTestServer({ storage: { kind, s3: { ...s3.config, prefix: `${kind}-${Date.now()}/` } } });
      teacher = await s.login('teacher');
      admin = await s.login('admin');
    });
    afterAll(() => s?.close());

    it('stores a streamed upload, serves it whole and by byte ranges, and deletes it', async () => {
      // 700 KB: several PostgreSQL chunks (256 KB), the last one partial.
      const data = randomBytes(700 * 1024);
      const { payload, headers } = multipart({ name: '讲义.bin', type: 'application/octet-stream', data }, { biz: 'lecture' });
      const up = (await s.call({ method: 'POST', url: 'sys/common/upload', token: teacher, payload, headers })).json();
      expect(up.success, up.message).toBe(true);
      const key = up.message as string;
      expect(key).toMatch(/^lecture\/[0-9a-f]{32}\.bin$/);
      const row = await s.running.ctx.db.selectFrom('sys_file').select(['store_type', 'file_size']).where('url', '=', key).executeTakeFirstOrThrow();
      expect(row.store_type).toBe(kind);
      expect(Number(row.file_size)).toBe(data.length);
      expect(storageOf(s.running.ctx).kind).toBe(kind);

      const whole = await s.get(`${API}/sys/common/static/${key}`, teacher);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(sha(whole.rawPayload)).toBe(sha(data));

      // A range across a chunk boundary (256 KB) and the file's tail.
      const from = 256 * 1024 - 10;
      const part = await s.get(`${API}/sys/common/static/${key}`, teacher, { range: `bytes=${from}-${from + 99}` });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${from}-${from + 99}/${data.length}`);
      expect(part.rawPayload.equals(data.subarray(from, from + 100))).toBe(true);
      const tail = await s.get(`${API}/sys/common/static/${key}`, teacher, { range: 'bytes=-5' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(data.subarray(data.length - 5))).toBe(true);
      const past = await s.get(`${API}/sys/common/static/${key}`, teacher, { range: `bytes=${data.length}-` });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${data.length}`);

      // An unpublished place is never served, not even to the administrator.
      expect((await s.get(`${API}/sys/common/static/.tmp/${key.split('/')[1]}`, admin)).statusCode).toBe(404);
      // Nothing unpublished is left behind by a finished upload.
      expect(await storageOf(s.running.ctx).sweep(0)).toBe(0);

      const id = (await s.running.ctx.db.selectFrom('sys_file').select('id').where('url', '=', key).executeTakeFirstOrThrow()).id;
      const del = (await s.del(`${API}/sys/files/delete?id=${id}`, admin)).json();
      expect(del.success, del.message).toBe(true);
      expect(await storageOf(s.running.ctx).stat(key)).toBeUndefined();
      expect((await s.get(`${API}/sys/common/static/${key}`, admin)).statusCode).toBe(404);
    });

    it('refuses an over-size upload and leaves neither a file nor an unpublished leftover', async () => {
      const storage = storageOf(s.running.ctx);
      const before: string[] = [];
      for await (const o of storage.list()) before.push(o.key);
      const data = Buffer.alloc(s.cfg.upload.maxBytes + 1024, 1);
      const { payload, headers } = multipart({ name: 'big.bin', type: 'application/octet-stream', data });
      const r = (await s.call({ method: 'POST', url: 'sys/common/upload', token: teacher, payload, headers })).json();
      expect(r.success).toBe(false);
      expect(r.message).toMatch(/大小超过限制/);
      const after: string[] = [];
      for await (const o of storage.list()) after.push(o.key);
      expect(after).toEqual(before);
      expect(await storage.sweep(0)).toBe(0);
    });
  });
}
