import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { makeUser, multipart, readXlsxRows, xlsx } from '../fixtures/crud-users.js';

const s = fileTestServer(['admin']);
const R = 'demo/customer';
const sq = (conds: unknown[], match = 'and') => `superQueryParams=${encodeURIComponent(encodeURIComponent(JSON.stringify(conds)))}&superQueryMatchType=${match}`;

const list = async (qs: string, token = s.tok.admin) => (await s.get(`${R}/list?${qs}`, token)).json();

describe('list', () => {
  it('pages the seeded customers with dictionary texts and without secrets', async () => {
    const b = await list('pageNo=2&pageSize=20');
    expect(b.success).toBe(true);
    expect(b.result).toMatchObject({ total: 50, size: 20, current: 2, pages: 3 });
    expect(b.result.records).toHaveLength(20);
    const r = b.result.records[0];
    expect(typeof r.id).toBe('string');
    expect(['男', '女']).toContain(r.sex_dictText);
    expect(['正常', '冻结', '注销']).toContain(r.status_dictText);
    expect(r.orgCode_dictText).toBeTruthy();
    expect(r.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('never returns or sorts/filters by secret fields (sys_user password)', async () => {
    const b = (await s.get('sys/user/list?pageSize=5&username=admin', s.tok.admin)).json();
    expect(b.result.records).toHaveLength(1);
    expect(b.result.records[0]).not.toHaveProperty('password');
    expect(b.result.records[0].status_dictText).toBeTruthy();
    expect((await s.get('sys/user/list?column=password', s.tok.admin)).json()).toMatchObject({ success: false });
    expect((await s.get(`sys/user/list?${sq([{ field: 'password', rule: 'like', val: 'a' }])}`, s.tok.admin)).json()).toMatchObject({ success: false });
    const exp = await readXlsxRows((await s.get('sys/user/exportXls?username=admin', s.tok.admin)).rawPayload);
    expect(exp[0]).not.toContain('密码');
    expect(JSON.stringify(exp)).not.toMatch(/\$argon2/);
  });

  it('refuses bad paging with a clear message', async () => {
    expect(await list('pageNo=abc')).toMatchObject({ success: false, message: expect.stringContaining('pageNo') });
    expect(await list('pageSize=5000')).toMatchObject({ success: false, message: expect.stringContaining('1000') });
    expect(await list('pageSize=-1')).toMatchObject({ success: false });
    expect((await list('pageSize=1000')).success).toBe(true);
  });

  it('sorts only on sortable fields', async () => {
    const asc = await list('column=age&order=asc&pageSize=50');
    const ages = asc.result.records.map((r: { age: number }) => r.age);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect((await list('column=sex_dictText&order=desc')).success).toBe(true);
    expect(await list('column=description')).toMatchObject({ success: false, message: '不支持按“description”排序' });
    expect(await list('column=name;drop table demo_customer')).toMatchObject({ success: false });
    expect(await list('column=age&order=sideways')).toMatchObject({ success: false });
  });

  it('applies the plain-parameter rules', async () => {
    const one = await list('code=KH0001');
    expect(one.result.total).toBe(1);
    expect((await list('code=KH0001,KH0002,KH0003')).result.total).toBe(3);
    expect((await list('code=KH001*')).result.total).toBe(10);
    expect((await list('code=*01')).result.total).toBe(1);
    expect((await list('code=!KH0001')).result.total).toBe(49);
    const old = await list(`age=${encodeURIComponent('>= 60')}&pageSize=100`);
    expect(old.result.records.every((r: { age: number }) => r.age >= 60)).toBe(true);
    expect(old.result.total).toBeGreaterThan(0);
    const range = await list('lastVisit_begin=2026-03-01&lastVisit_end=2026-03-05&pageSize=100');
    for (const r of range.result.records) expect(r.lastVisit >= '2026-03-01 00:00:00' && r.lastVisit <= '2026-03-05 23:59:59').toBe(true);
    expect(await list('age=abc')).toMatchObject({ success: false, message: expect.stringContaining('年龄') });
    // unknown and non-filterable parameters are ignored
    expect((await list('nosuch=1&description=x')).result.total).toBe(50);
  });

  it('escapes % and _ in like values', async () => {
    const r = await s.post(`${R}/add`, { name: '百分百%客户', code: 'PCT_1' }, s.tok.admin);
    expect(r.json().success).toBe(true);
    expect((await list(`name=${encodeURIComponent('*%*')}`)).result.total).toBe(1);
    expect((await list(`code=${encodeURIComponent('*_*')}`)).result.total).toBe(1);
  });

  it('applies the super query with allow-listed fields and rules', async () => {
    const b = await list(sq([{ field: 'code', rule: 'in', val: 'KH0001,KH0002' }, { field: 'sex', rule: 'eq', val: '2', type: 'int' }]));
    expect(b.success).toBe(true);
    expect(b.result.records.every((r: { sex: number }) => r.sex === 2)).toBe(true);
    const or = await list(sq([{ field: 'code', rule: 'eq', val: 'KH0001' }, { field: 'code', rule: 'right_like', val: 'KH005' }], 'or'));
    expect(or.result.total).toBe(2);
    expect(await list(sq([{ field: 'password', rule: 'eq', val: 'x' }]))).toMatchObject({ success: false, message: '高级查询不支持字段“password”' });
    expect(await list(sq([{ field: 'code', rule: 'ext', val: '1=1' }]))).toMatchObject({ success: false, message: '高级查询不支持规则“ext”' });
    expect(await list('superQueryParams=not-json')).toMatchObject({ success: false, message: expect.stringContaining('JSON') });
    expect(await list(`${sq([{ field: 'code', rule: 'eq', val: 'KH0001' }])}&superQueryMatchType=xor`.replace('superQueryMatchType=and&', ''))).toMatchObject({ success: false });
  });
});

describe('add / edit / delete', () => {
  it('validates with Chinese messages and ignores server-managed fields', async () => {
    expect((await s.post(`${R}/add`, { code: 'X1' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '客户名称不能为空' });
    expect((await s.post(`${R}/add`, { name: '甲', phone: '12345' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '手机号码：请输入正确手机号' });
    expect((await s.post(`${R}/add`, { name: '甲', age: 200 }, s.tok.admin)).json()).toMatchObject({ success: false, message: '年龄不能大于150' });
    expect((await s.post(`${R}/add`, { name: '甲', birthday: '昨天' }, s.tok.admin)).json()).toMatchObject({ success: false, message: expect.stringContaining('生日') });
    const r = await s.post(`${R}/add`, { name: '新客户', code: 'NEW001', createBy: 'mallory', tenantId: 42, id: 'chosen-id', sex: 1, balance: '12.5' }, s.tok.admin);
    expect(r.json()).toMatchObject({ success: true, message: '添加成功！' });
    const row = (await list('code=NEW001')).result.records[0];
    expect(row.id).not.toBe('chosen-id');
    expect(row.createBy).toBe('admin');
    expect(row.tenantId).not.toBe(42);
    expect(row.balance).toBe('12.50');
    expect(row.sex_dictText).toBe('男');
  });

  it('answers a unique conflict with a friendly message', async () => {
    const r = await s.post(`${R}/add`, { name: '重复', code: 'KH0001' }, s.tok.admin);
    expect(r.json()).toMatchObject({ success: false, message: '客户编号“KH0001”已存在，不能重复' });
  });

  it('edits with PUT and POST, sets update audit fields, and queries by id', async () => {
    const row = (await list('code=KH0002')).result.records[0];
    expect((await s.put(`${R}/edit`, { id: row.id, name: '改名甲', createBy: 'mallory' }, s.tok.admin)).json().success).toBe(true);
    expect((await s.post(`${R}/edit`, { id: row.id, age: 33 }, s.tok.admin)).json().success).toBe(true);
    const got = (await s.get(`${R}/queryById?id=${row.id}`, s.tok.admin)).json();
    expect(got.result).toMatchObject({ name: '改名甲', age: 33, createBy: 'admin', updateBy: 'admin', code: 'KH0002' });
    expect((await s.put(`${R}/edit`, { id: row.id, name: '' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '客户名称不能为空' });
    expect((await s.put(`${R}/edit`, { id: 'nope', name: 'x' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '未找到对应数据' });
    expect((await s.get(`${R}/queryById?id=nope`, s.tok.admin)).json()).toMatchObject({ success: false, message: '未找到对应数据' });
  });

  it('deletes one and a batch (trailing comma), all or nothing', async () => {
    const rows = (await list('code=KH0040,KH0041,KH0042')).result.records;
    const [a, b, c] = rows.map((r: { id: string }) => r.id);
    expect((await s.del(`${R}/delete?id=${a}`, s.tok.admin)).json().success).toBe(true);
    expect((await s.del(`${R}/deleteBatch?ids=${b},nope,`, s.tok.admin)).json()).toMatchObject({ success: false });
    expect((await list('code=KH0041')).result.total).toBe(1);
    expect((await s.del(`${R}/deleteBatch?ids=${b},${c},`, s.tok.admin)).json().success).toBe(true);
    expect((await list('code=KH0040,KH0041,KH0042')).result.total).toBe(0);
    expect((await s.del(`${R}/deleteBatch?ids=,`, s.tok.admin)).json()).toMatchObject({ success: false, message: '请选择一条记录！' });
  });
});

describe('scopes', () => {
  it('hides rows of other tenants from list, get, edit, delete and export', async () => {
    await s.running.ctx.db.insertInto('demo_customer').values({ id: 'othertenant000000000000000000001', name: '别家客户', code: 'OTHER1', tenant_id: 999, create_time: '2026-01-01 00:00:00' }).execute();
    expect((await list('code=OTHER1')).result.total).toBe(0);
    expect((await s.get(`${R}/queryById?id=othertenant000000000000000000001`, s.tok.admin)).json().success).toBe(false);
    expect((await s.put(`${R}/edit`, { id: 'othertenant000000000000000000001', name: 'x' }, s.tok.admin)).json().success).toBe(false);
    expect((await s.del(`${R}/delete?id=othertenant000000000000000000001`, s.tok.admin)).json().success).toBe(false);
    const exp = await s.get(`${R}/exportXls?selections=othertenant000000000000000000001`, s.tok.admin);
    expect((await readXlsxRows(exp.rawPayload)).length).toBe(1); // header only
  });

  it('applies data rules (#{sys_org_code}) to list, get, edit and delete', async () => {
    const org = String((await s.running.ctx.db.selectFrom('demo_customer').select('org_code').where('code', '=', 'KH0003').executeTakeFirst())!.org_code);
    const tenant = Number((await s.running.ctx.db.selectFrom('demo_customer').select('tenant_id').where('code', '=', 'KH0003').executeTakeFirst())!.tenant_id);
    const token = await makeUser(s, {
      username: 'ruleuser', orgCode: org, tenantId: tenant,
      perms: ['demo:customer:list', 'demo:customer:queryById', 'demo:customer:edit', 'demo:customer:delete'],
      dataRules: [{ listPerm: 'demo:customer:list', column: 'orgCode', condition: 'RIGHT_LIKE', value: '#{sys_org_code}' }],
    });
    const mine = await list('pageSize=100', token);
    expect(mine.success).toBe(true);
    expect(mine.result.total).toBeGreaterThan(0);
    expect(mine.result.total).toBeLessThan(50);
    expect(mine.result.records.every((r: { orgCode: string }) => r.orgCode.startsWith(org))).toBe(true);
    const other = (await s.running.ctx.db.selectFrom('demo_customer').select('id').where('org_code', 'not like', `${org}%`).where('tenant_id', '=', tenant).executeTakeFirst())!;
    expect((await s.get(`${R}/queryById?id=${other.id}`, token)).json()).toMatchObject({ success: false, message: '未找到对应数据' });
    expect((await s.put(`${R}/edit`, { id: other.id, name: 'x' }, token)).json().success).toBe(false);
    expect((await s.del(`${R}/delete?id=${other.id}`, token)).json().success).toBe(false);
    // no add permission → 510
    expect((await s.post(`${R}/add`, { name: 'x' }, token)).json()).toMatchObject({ success: false, code: 510 });
  });

  it('refuses SQL data rules (USE_SQL_RULES) by showing nothing', async () => {
    const token = await makeUser(s, {
      username: 'sqlrule', perms: ['demo:customer:list'],
      dataRules: [{ listPerm: 'demo:customer:list', column: 'orgCode', condition: 'USE_SQL_RULES', value: '1=1' }],
    });
    const b = await list('', token);
    expect(b.success).toBe(true);
    expect(b.result.total).toBe(0);
  });
});

describe('client-chosen numeric keys (sys_tenant)', () => {
  it('takes the id from the client on add, checks it, and treats malformed ids as not found', async () => {
    expect((await s.post('sys/tenant/add', { id: 7701, name: '测试租户' }, s.tok.admin)).json()).toMatchObject({ success: true });
    expect((await s.post('sys/tenant/add', { id: 7701, name: '重复租户' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '租户编号“7701”已存在，不能重复' });
    expect((await s.post('sys/tenant/add', { id: 'x1', name: '坏租户' }, s.tok.admin)).json()).toMatchObject({ success: false, message: expect.stringContaining('整数') });
    expect((await s.get('sys/tenant/queryById?id=7701', s.tok.admin)).json().result).toMatchObject({ id: '7701', name: '测试租户' });
    expect((await s.put('sys/tenant/edit', { id: 7701, name: '改名租户' }, s.tok.admin)).json().success).toBe(true);
    expect((await s.get('sys/tenant/queryById?id=abc', s.tok.admin)).json()).toMatchObject({ success: false, message: '未找到对应数据' });
    expect((await s.del('sys/tenant/delete?id=abc', s.tok.admin)).json()).toMatchObject({ success: false, message: '未找到对应数据' });
    expect((await readXlsxRows((await s.get('sys/tenant/exportXls?selections=abc', s.tok.admin)).rawPayload))).toHaveLength(1);
    expect((await s.del('sys/tenant/deleteBatch?ids=7701,', s.tok.admin)).json().success).toBe(true);
  });
});

describe('refused schema changes', () => {
  it('answers with the reason instead of serving a table whose change was refused', async () => {
    const problems = s.running.ctx.entities.problems;
    problems.push({ file: 'entities/demo_customer', path: '/', reason: '表 demo_customer 的结构变更会丢失数据，已拒绝' });
    try {
      expect(await list('')).toMatchObject({ success: false, message: '“示例客户”暂不可用：表 demo_customer 的结构变更会丢失数据，已拒绝' });
    } finally {
      problems.pop();
    }
    expect((await list('')).success).toBe(true);
  });
});

describe('export / import', () => {
  it('exports a real .xlsx with titles, dictionary texts and neutralised formulas', async () => {
    await s.post(`${R}/add`, { name: '=HYPERLINK("http://x")', code: 'FORMULA1', sex: 2, description: '@SUM(A1)' }, s.tok.admin);
    const id = (await list('code=FORMULA1')).result.records[0].id;
    const r = await s.get(`${R}/exportXls?selections=${id}`, s.tok.admin);
    expect(r.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('示例客户.xlsx')}`);
    const rows = await readXlsxRows(r.rawPayload);
    expect(rows[0]).toContain('客户名称');
    expect(rows[0]).not.toContain('租户');
    expect(rows).toHaveLength(2);
    const header = rows[0] as string[];
    expect(rows[1]![header.indexOf('客户名称')]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows[1]![header.indexOf('备注')]).toBe(`'@SUM(A1)`);
    expect(rows[1]![header.indexOf('性别')]).toBe('女');
  });

  it('exports with the list filters', async () => {
    const rows = await readXlsxRows((await s.get(`${R}/exportXls?code=KH001*`, s.tok.admin)).rawPayload);
    expect(rows).toHaveLength(11);
  });

  it('round-trips export → import (formula text restored, dictionary texts mapped back)', async () => {
    const id = (await list('code=FORMULA1')).result.records[0].id;
    const file = (await s.get(`${R}/exportXls?selections=${id}`, s.tok.admin)).rawPayload;
    await s.del(`${R}/delete?id=${id}`, s.tok.admin);
    const mp = multipart([{ name: '客户.xlsx', data: file }]);
    const r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...mp })).json();
    expect(r).toMatchObject({ success: true, code: 200 });
    const back = (await list('code=FORMULA1')).result.records[0];
    expect(back).toMatchObject({ name: '=HYPERLINK("http://x")', description: '@SUM(A1)', sex: 2 });
  });

  it('imports several files; a file with bad rows is written not at all and reported (201)', async () => {
    const good = await xlsx(['客户名称', '客户编号', '性别', '年龄'], [['导入甲', 'IMP001', '男', 30], ['导入乙', 'IMP002', '女', 40]]);
    const bad = await xlsx(['客户名称', '客户编号', '性别', '年龄'], [['导入丙', 'IMP003', '男', 30], ['', 'IMP004', '男', 20], ['导入丁', 'IMP005', '未知', 20], ['导入戊', 'IMP006', '男', { formula: '1+1' }], ['导入己', 'KH0005', '男', 1]], { titleRows: ['示例客户报表', '导出人:管理员'] });
    const mp = multipart([{ name: 'good.xlsx', data: good, field: 'files[]' }, { name: 'bad.xlsx', data: bad, field: 'files[]' }]);
    const r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...mp })).json();
    expect(r).toMatchObject({ success: true, code: 201, message: '文件导入成功，但有错误。' });
    expect(r.result).toMatchObject({ successCount: 2, errorCount: 4 });
    expect((await list('code=IMP00*')).result.total).toBe(2);
    const reasons = r.result.errors.map((e: { row: number; column: string; reason: string }) => `${e.row}|${e.column}|${e.reason}`);
    expect(reasons).toEqual([
      '5|客户名称|客户名称不能为空',
      '6|性别|“未知”不是有效的选项',
      '7|年龄|不支持公式，请粘贴为数值',
      '8|客户编号|客户编号“KH0005”已存在',
    ]);
    const report = await s.get(r.result.fileUrl.replace(/^\//, ''), s.tok.admin);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('不支持公式');
    const stranger = await makeUser(s, { username: 'stranger', perms: [] });
    expect((await s.get(r.result.fileUrl.replace(/^\//, ''), stranger)).json()).toMatchObject({ success: false, code: 404 });
  });

  it('refuses .xls, non-Excel and empty uploads with clear messages', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    let r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...multipart([{ name: 'old.xls', data: xls }]) })).json();
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('.xls') });
    r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...multipart([{ name: 'a.txt', data: Buffer.from('hi') }]) })).json();
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('不是 Excel') });
    r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...multipart([{ name: 'fake.xlsx', data: Buffer.from('not a zip at all') }]) })).json();
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('不是有效的 Excel') });
    r = (await s.call({ method: 'POST', url: `${R}/importExcel`, token: s.tok.admin, ...multipart([{ name: 'h.xlsx', data: await xlsx(['无关列'], [['x']]) }]) })).json();
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('表头') });
  });
});
