import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { multipart, xlsx } from '../fixtures/crud-users.js';

let s: TestServer;
let admin: string;
const R = 'demo/customer';
beforeAll(async () => {
  s = await startTestServer({ import: { maxBytes: 5 * 1024 * 1024, maxRows: 20_000 } });
  admin = await s.login('admin');
});
afterAll(() => s?.close());

const count = async () => Number((await s.running.ctx.db.selectFrom('demo_customer').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const upload = async (name: string, data: Buffer) => (await s.call({ method: 'POST', url: `${R}/importExcel`, token: admin, ...multipart([{ name, data }]) })).json();
const HEADER = ['客户名称', '客户编号', '性别', '年龄', '生日', '账户余额'];
const row = (i: number) => [`批量客户${i}`, `BULK${String(i).padStart(6, '0')}`, i % 2 ? '男' : '女', 20 + (i % 40), new Date(Date.UTC(1990, 0, 1 + (i % 300))), (i % 1000) / 10];

describe('import limits and atomicity', () => {
  it('refuses a 50k-row file past the row limit and writes nothing', async () => {
    const before = await count();
    const big = await xlsx(['客户名称', '客户编号'], Array.from({ length: 50_000 }, (_, i) => [`批量客户${i}`, `BIG${i}`]));
    const r = await upload('big.xlsx', big);
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('超过20000行') });
    expect(await count()).toBe(before);
  }, 120_000); // building the 50k-row workbook in the test is the slow part

  it('refuses a file over the size limit', async () => {
    const r = await upload('huge.xlsx', Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('超过大小限制') });
  });

  it('writes nothing from a 3,000-row file whose last row is bad, then imports it once fixed', async () => {
    const before = await count();
    const rows = Array.from({ length: 3000 }, (_, i) => row(i));
    rows.push(['坏行', 'BULKBAD', '男', 'abc', '', '']);
    const r = await upload('partly-bad.xlsx', await xlsx(HEADER, rows));
    expect(r).toMatchObject({ success: true, code: 201 });
    expect(r.result).toMatchObject({ errorCount: 1, successCount: 0 });
    expect(r.result.errors[0]).toMatchObject({ row: 3002, column: '年龄' });
    expect(await count()).toBe(before);

    const ok = await upload('fixed.xlsx', await xlsx(HEADER, rows.slice(0, 3000)));
    expect(ok).toMatchObject({ success: true, message: '文件导入成功！数据行数：3000' });
    expect(await count()).toBe(before + 3000);
    const one = (await s.get(`${R}/list?code=BULK000001`, admin)).json().result.records[0];
    expect(one).toMatchObject({ name: '批量客户1', sex: 1, age: 21, birthday: '1990-01-02', balance: '0.10', createBy: 'admin' });
  });
});
