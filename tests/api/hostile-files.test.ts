/**
 * Hostile files: traversal in biz or the file name, HTML/SVG served back, oversize bodies, zip-bomb
 * and XXE .xlsx imports. Fixtures are generated here (no binary files in the repository).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDeflateRaw, crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { API, startTestServer, type TestServer, type ApiAnswer } from '../helpers/server.js';

let s: TestServer;
let admin: string;
const MAX_UPLOAD = 64 * 1024;

beforeAll(async () => {
  s = await startTestServer({ upload: { maxBytes: MAX_UPLOAD, quotaBytesPerUser: 512 * 1024 * 1024 } });
  admin = await s.login('admin');
});
afterAll(() => s?.close());

type Env = ApiAnswer;

function multipart(file: { name: string; type: string; data: Buffer; field?: string }, fields: Record<string, string> = {}) {
  const boundary = '----hostile' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const post = async (url: string, file: Parameters<typeof multipart>[0], fields: Record<string, string> = {}) => {
  const { payload, headers } = multipart(file, fields);
  return s.call({ method: 'POST', url, token: admin, payload, headers });
};

/** Every file under a directory (relative paths, temp files excluded). */
const filesUnder = (dir: string, prefix = ''): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.name === '.tmp' ? [] : d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
      )
    : [];
const fileRows = async () => Number((await s.running.ctx.db.selectFrom('sys_file').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('uploads', () => {
  const bizTraversal = ['..', '../', '../../etc', '..\\..\\', '%2e%2e%2f', '..%252f', '....//', '/etc', '/tmp/x', 'C:\\', 'C:', '．．／', 'a\u0000b', 'a/b', 'lecture/../..'];

  it.each(bizTraversal)('biz %j is refused and nothing is stored', async (biz) => {
    const before = filesUnder(s.cfg.uploadDir);
    const rowsBefore = await fileRows();
    const r = await post('sys/common/upload', { name: 'a.txt', type: 'text/plain', data: Buffer.from('hello') }, { biz });
    const b = r.json() as Env;
    expect(b.success).toBe(false);
    expect(b.message).toBe('非法的业务目录(biz)');
    expect(filesUnder(s.cfg.uploadDir)).toEqual(before);
    expect(filesUnder(resolve(s.cfg.uploadDir, '..')).filter((f) => !f.startsWith('upload/') && /a\.txt$/.test(f))).toEqual([]);
    expect(await fileRows()).toBe(rowsBefore);
  });

  it.each(['../../app.js', '..\\..\\evil.txt', '/etc/passwd', 'a.png%00.html', '\u202Egnp.exe', 'x'.repeat(1000) + '.txt', 'a.jSp', 'a.php.'])(
    'a file named %j is stored under a server-chosen name inside the upload dir',
    async (name) => {
      const r = await post('sys/common/upload', { name, type: 'application/octet-stream', data: Buffer.from('data') }, { biz: 'hostile' });
      const b = r.json() as Env;
      if (!b.success) {
        expect(b.message).toMatch(/[\u4e00-\u9fa5]/);
        return;
      }
      expect(b.message).toMatch(/^hostile\/[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/);
      expect(existsSync(join(s.cfg.uploadDir, b.message))).toBe(true);
      // Whatever extension is kept, the file is only ever served as an opaque attachment.
      const get = await s.get(`${API}/sys/common/static/${b.message}`, admin);
      expect(String(get.headers['content-disposition'])).toMatch(/^attachment/);
      expect(get.headers['content-type']).toBe('application/octet-stream');
    },
  );

  it('HTML and SVG are served back as attachments, never as markup', async () => {
    const payloads = [
      { name: 'x.html', type: 'text/html', data: Buffer.from('<html><script>alert(document.cookie)</script></html>') },
      { name: 'x.svg', type: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>') },
      { name: 'x.png', type: 'image/png', data: Buffer.from('<html><script>alert(3)</script></html>') },
    ];
    for (const f of payloads) {
      const b = (await post('sys/common/upload', f, { biz: 'hostile' })).json() as Env;
      if (!b.success) {
        expect(b.message, f.name).toMatch(/[\u4e00-\u9fa5]/); // e.g. 文件内容与图片类型不符
        continue;
      }
      const get = await s.get(`${API}/sys/common/static/${b.message}`, admin);
      expect(get.statusCode).toBe(200);
      expect(String(get.headers['content-disposition'])).toMatch(/^attachment/);
      expect(get.headers['x-content-type-options']).toBe('nosniff');
      expect(String(get.headers['content-type'])).not.toMatch(/html|svg|xml|javascript/);
    }
  });

  it('static paths cannot leave the upload dir and need a session', async () => {
    for (const p of ['../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%252e%252e%252fetc%252fpasswd', 'hostile/../../../etc/passwd', '/etc/passwd']) {
      const r = await s.get(`${API}/sys/common/static/${p}`, admin);
      expect([400, 404], `${p} → ${r.statusCode}`).toContain(r.statusCode);
      expect(r.body).not.toMatch(/root:/);
    }
    const anon = await s.get(`${API}/sys/common/static/hostile/x.txt`);
    expect(anon.statusCode).toBe(401);
  });

  it('an oversize upload is refused clearly and leaves nothing behind', async () => {
    const before = filesUnder(s.cfg.uploadDir);
    const rowsBefore = await fileRows();
    const r = await post('sys/common/upload', { name: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(MAX_UPLOAD + 1, 1) }, { biz: 'hostile' });
    expect(r.statusCode).toBe(413);
    expect((r.json() as Env).message).toMatch(/上传文件大小超过限制/);
    expect(filesUnder(s.cfg.uploadDir)).toEqual(before);
    expect(existsSync(join(s.cfg.uploadDir, '.tmp')) ? readdirSync(join(s.cfg.uploadDir, '.tmp')) : []).toEqual([]);
    expect(await fileRows()).toBe(rowsBefore);
  });
});

/** A zip written by hand (deflated entries; `declare` overrides the uncompressed size written in the headers). */
async function zipOf(entries: Array<{ name: string; chunks: () => Iterable<Buffer>; declare?: number }>): Promise<Buffer> {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const deflate = createDeflateRaw({ level: 9 });
    const parts: Buffer[] = [];
    deflate.on('data', (d: Buffer) => parts.push(d));
    const done = new Promise((res) => deflate.on('end', res));
    let crc = 0;
    let size = 0;
    for (const c of e.chunks()) {
      crc = crc32(c, crc);
      size += c.length;
      if (!deflate.write(c)) await new Promise((res) => deflate.once('drain', res));
    }
    deflate.end();
    await done;
    const data = Buffer.concat(parts);
    const declared = e.declare ?? size;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(declared, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    out.push(local, name, data);
    central.push(cd, name);
    offset += local.length + name.length + data.length;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, cdBuf, eocd]);
}

/** The parts of a minimal .xlsx around a given first sheet. */
async function xlsxWithSheet(sheet: { chunks: () => Iterable<Buffer>; declare?: number }) {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').addRow(['客户名称']);
  const base = await JSZip.loadAsync(Buffer.from(await wb.xlsx.writeBuffer()));
  const entries: Array<{ name: string; chunks: () => Iterable<Buffer>; declare?: number }> = [];
  for (const name of Object.keys(base.files)) {
    if (base.files[name]!.dir) continue;
    if (name === 'xl/worksheets/sheet1.xml') entries.push({ name, ...sheet });
    else {
      const data = await base.file(name)!.async('nodebuffer');
      entries.push({ name, chunks: () => [data] });
    }
  }
  return zipOf(entries);
}

const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';
const MB = 1024 * 1024;
function* bomb(totalMb: number) {
  yield Buffer.from(SHEET_HEAD + '<row r="1"><c r="A1" t="inlineStr"><is><t>客户名称</t></is></c></row>');
  const chunk = Buffer.alloc(MB, 0x20);
  for (let i = 0; i < totalMb; i++) yield chunk;
  yield Buffer.from(SHEET_TAIL);
}

async function importXlsx(data: Buffer, name = 'bomb.xlsx') {
  const { payload, headers } = multipart({ name, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data });
  const t0 = Date.now();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = process.memoryUsage().rss;
  try {
    const r = await s.call({ method: 'POST', url: 'demo/customer/importExcel', token: admin, payload, headers });
    return { body: r.json() as Env, ms: Date.now() - t0, grewMb: (peak - start) / MB };
  } finally {
    clearInterval(timer);
  }
}

const customers = async () => Number((await s.running.ctx.db.selectFrom('demo_customer').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('Excel imports', () => {
  it('a zip bomb declaring its real size (400 MB sheet in ~0.4 MB) is refused before inflating', async () => {
    const data = await xlsxWithSheet({ chunks: () => bomb(400) });
    expect(data.length).toBeLessThan(2 * MB);
    const before = await customers();
    const r = await importXlsx(data);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toMatch(/解压后超过\d+MB或大小与声明不符，已拒绝/);
    expect(r.ms).toBeLessThan(3000);
    expect(r.grewMb).toBeLessThan(150);
    expect(await customers()).toBe(before);
  }, 60_000);

  it('a zip bomb lying about its size (declares 1 KB, inflates to 400 MB) is refused with bounded memory', async () => {
    const data = await xlsxWithSheet({ chunks: () => bomb(400), declare: 1024 });
    const before = await customers();
    const r = await importXlsx(data);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toMatch(/解压后超过\d+MB或大小与声明不符，已拒绝/);
    expect(r.ms).toBeLessThan(3000);
    expect(r.grewMb).toBeLessThan(150);
    expect(await customers()).toBe(before);
  }, 60_000);

  it.each([
    ['sheet', '<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'],
    ['billion laughs', '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY xxe "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>'],
  ])('XXE (%s) in the sheet XML: no file content leaks, no entity is expanded', async (_label, doctype) => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      doctype +
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>客户名称</t></is></c><c r="B1" t="inlineStr"><is><t>备注</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>XXE客户</t></is></c><c r="B2" t="inlineStr"><is><t>&xxe;</t></is></c></row>' +
      SHEET_TAIL;
    const data = await xlsxWithSheet({ chunks: () => [Buffer.from(xml)] });
    const r = await importXlsx(data, 'xxe.xlsx');
    expect(JSON.stringify(r.body)).not.toMatch(/root:|aaaaaaaaaaaaaaaaaaaa/);
    const rows = await s.running.ctx.db.selectFrom('demo_customer').select(['name', 'description']).where('name', '=', 'XXE客户').execute();
    for (const row of rows) expect(String(row.description ?? '')).not.toMatch(/root:|aaaaaaaaaaaaaaaaaaaa/);
    expect(r.ms).toBeLessThan(5000);
  });
});
