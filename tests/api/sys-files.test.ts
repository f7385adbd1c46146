import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let admin: string;
let teacher: string;

beforeAll(async () => {
  s = await startTestServer({ upload: { maxBytes: 64 * 1024, quotaBytesPerUser: 512 * 1024 * 1024 } });
  admin = await s.login('admin');
  teacher = await s.login('teacher');
});
afterAll(() => s?.close());

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);

/** A multipart body built by hand (fields first, then the file), as browsers send it. */
function multipart(file: { name: string; type: string; data: Buffer } | null, fields: Record<string, string> = {}) {
  const boundary = '----ddtest' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(file: { name: string; type: string; data: Buffer } | null, fields: Record<string, string> = {}, token = admin) {
  const { payload, headers } = multipart(file, fields);
  return s.call({ method: 'POST', url: 'sys/common/upload', token, payload, headers });
}

/** Every file under the upload dir except temp files (relative paths). */
const storedFiles = (dir = s.cfg.uploadDir, prefix = ''): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.name === '.tmp' ? [] : d.isDirectory() ? storedFiles(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
      )
    : [];

describe('upload and static files', () => {
  it('stores an image under a server-chosen name, records its metadata, serves it back as an attachment', async () => {
    const r = await upload({ name: '听课照片.png', type: 'image/png', data: PNG }, { biz: 'lecture' }, teacher);
    const body = r.json();
    expect(body).toMatchObject({ success: true, code: 0 });
    expect(body.message).toMatch(/^lecture\/[0-9a-f]{32}\.png$/);
    const row = await s.running.ctx.db.selectFrom('sys_file').selectAll().where('url', '=', body.message).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ file_name: '听课照片.png', file_type: 'image/png', biz: 'lecture', uploader_name: '王磊', create_by: 'teacher' });
    expect(Number(row.file_size)).toBe(PNG.length);

    const get = await s.get(`${API}/sys/common/static/${body.message}`, teacher);
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/png');
    expect(get.headers['content-disposition']).toMatch(/^attachment;/);
    expect(get.headers['content-disposition']).toContain(encodeURIComponent('听课照片.png'));
    expect(get.rawPayload.equals(PNG)).toBe(true);
    // <img> previews pass a file token in the query string (X-File-Token of any signed-in answer), never
    // the session token; without any token there is nothing.
    const fileToken = String(get.headers['x-file-token']);
    expect(fileToken).toMatch(/^ft1\./);
    expect((await s.get(`${API}/sys/common/static/${body.message}?token=${encodeURIComponent(fileToken)}`)).statusCode).toBe(200);
    expect((await s.get(`${API}/sys/common/static/${body.message}?token=${encodeURIComponent(teacher)}`)).statusCode).toBe(401);
    expect((await s.get(`${API}/sys/common/static/${body.message}`)).statusCode).toBe(401);
  });

  it('serves HTML and SVG uploads back only as octet-stream attachments with nosniff', async () => {
    for (const f of [
      { name: 'x.html', type: 'text/html', data: Buffer.from('<html><script>alert(1)</script></html>') },
      { name: 'x.svg', type: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') },
    ]) {
      const r = (await upload(f)).json();
      expect(r.success).toBe(true);
      const get = await s.get(`${API}/sys/common/static/${r.message}`, admin);
      expect(get.statusCode).toBe(200);
      expect(get.headers['content-type']).toBe('application/octet-stream');
      expect(get.headers['content-disposition']).toMatch(/^attachment;/);
      expect(get.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses a biz that climbs or is absolute, and never writes outside the upload dir', async () => {
    const before = storedFiles().length;
    for (const biz of ['../', '..', '../../etc', 'a/../../b', '/tmp', 'a/b', '..\\x', '%2e%2e']) {
      const r = (await upload({ name: 'a.txt', type: 'text/plain', data: Buffer.from('hi') }, { biz })).json();
      expect(r, biz).toMatchObject({ success: false, message: '非法的业务目录(biz)' });
    }
    expect(storedFiles().length).toBe(before);
    expect(existsSync(resolve(s.cfg.uploadDir, '..', 'a.txt'))).toBe(false);
  });

  it('keeps a climbing or hostile file name out of the disk path', async () => {
    const r = (await upload({ name: '../../app.js', type: 'text/plain', data: Buffer.from('x') })).json();
    expect(r.success).toBe(true);
    expect(r.message).toMatch(/^temp\/[0-9a-f]{32}\.js$/);
    const row = await s.running.ctx.db.selectFrom('sys_file').select('file_name').where('url', '=', r.message).executeTakeFirstOrThrow();
    expect(row.file_name).toBe('app.js');
    expect(existsSync(resolve(s.cfg.uploadDir, '..', '..', 'app.js'))).toBe(false);
  });

  it('refuses static paths that climb', async () => {
    for (const p of ['..%2f..%2fetc%2fpasswd', 'temp/..%2f..%2fpg%2fPG_VERSION', '%2fetc%2fpasswd', 'temp/%2e%2e/%2e%2e/x'])
      expect((await s.get(`${API}/sys/common/static/${p}`, admin)).statusCode, p).toBeGreaterThanOrEqual(400);
    expect((await s.get(`${API}/sys/common/static/temp/nope.png`, admin)).statusCode).toBe(404);
  });

  it('refuses an oversize file while streaming, leaving no file and no row', async () => {
    const rowsBefore = await s.running.ctx.db.selectFrom('sys_file').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const filesBefore = storedFiles().length;
    const r = await upload({ name: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(64 * 1024 + 1, 1) });
    expect(r.statusCode).toBe(413);
    expect(r.json()).toMatchObject({ success: false, message: expect.stringContaining('上传文件大小超过限制') });
    const rowsAfter = await s.running.ctx.db.selectFrom('sys_file').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(rowsAfter.n).toBe(rowsBefore.n);
    expect(storedFiles().length).toBe(filesBefore);
    expect(readdirSync(join(s.cfg.uploadDir, '.tmp'))).toEqual([]);
  });

  it('refuses an HTML file posing as a PNG', async () => {
    const r = (await upload({ name: 'a.png', type: 'image/png', data: Buffer.from('<html><script>alert(1)</script>') })).json();
    expect(r).toMatchObject({ success: false, message: '文件内容与图片类型不符' });
  });
});

describe('file list (admin)', () => {
  it('lists, deletes (row and file) and refuses a non-admin with 510', async () => {
    const r = (await upload({ name: 'del.txt', type: 'text/plain', data: Buffer.from('bye') }, { biz: 'gone' })).json();
    const list = (await s.get('sys/files/list?pageSize=50&fileName=del.txt', admin)).json();
    expect(list.success).toBe(true);
    const row = list.result.records.find((x: { url: string }) => x.url === r.message);
    expect(row).toMatchObject({ fileName: 'del.txt', biz: 'gone' });
    expect((await s.get('sys/files/list', teacher)).json()).toMatchObject({ code: 510 });
    expect((await s.del(`sys/files/delete?id=${row.id}`, teacher)).json()).toMatchObject({ code: 510 });
    expect((await s.del(`sys/files/delete?id=${row.id}`, admin)).json()).toMatchObject({ success: true });
    expect(existsSync(join(s.cfg.uploadDir, r.message))).toBe(false);
    expect((await s.get(`${API}/sys/common/static/${r.message}`, admin)).statusCode).toBe(404);
  });
});
