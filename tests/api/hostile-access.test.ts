/**
 * Hostile access: prototype pollution, mass assignment, tenant-id spoofing, IDOR on another
 * department's lecture record (get, edit, delete, export) and path variants that must not bypass
 * authentication. Every write attempt checks the database is unchanged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { API, fileTestServer, type ApiAnswer } from '../helpers/server.js';

const s = fileTestServer(['admin', 'supervisor', 'secretary', 'leader', 'teacher', 'deptadmin']);
const { tok } = s;
const db = () => s.running.ctx.db;

type Env = ApiAnswer;
const j = (r: { json(): unknown }) => r.json() as Env;
const rowOf = (table: string, id: string) => db().selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
const count = async (table: string) => Number((await db().selectFrom(table).select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('JSON bodies with __proto__ / constructor.prototype', () => {
  it('do not pollute prototypes, grant anything or store the keys', async () => {
    const before = await count('demo_customer');
    const raw = '{"name":"原型污染测试","__proto__":{"isAdmin":true,"tenantId":99},"constructor":{"prototype":{"isAdmin":true}}}';
    const r = await s.call({ method: 'POST', url: 'demo/customer/add', token: tok.admin, payload: raw, headers: { 'content-type': 'application/json' } });
    const b = j(r);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).tenantId).toBeUndefined();
    if (b.success) {
      const row = await db().selectFrom('demo_customer').selectAll().where('name', '=', '原型污染测试').executeTakeFirstOrThrow();
      expect(Number(row.tenant_id)).not.toBe(99);
      expect(await count('demo_customer')).toBe(before + 1);
    } else {
      expect(b.message).toMatch(/[\u4e00-\u9fa5]/);
      expect(await count('demo_customer')).toBe(before);
    }
    await s.get(`demo/customer/list?__proto__[isAdmin]=1&a[__proto__][x]=1&constructor[prototype][y]=1`, tok.admin);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    // The server is still healthy and the teacher gained nothing.
    expect(j(await s.get('sys/user/list', tok.teacher)).code).toBe(510);
  });

  it('refuses malformed, deeply nested and oversized JSON clearly', async () => {
    const before = await count('demo_customer');
    const bad = await s.call({ method: 'POST', url: 'demo/customer/add', token: tok.admin, payload: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(j(bad)).toMatchObject({ success: false, message: '请求格式不正确' });
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const d = await s.call({ method: 'POST', url: 'demo/customer/add', token: tok.admin, payload: deep, headers: { 'content-type': 'application/json' } });
    expect(j(d).success).toBe(false);
    const big = JSON.stringify({ name: 'x', description: 'x'.repeat(3 * 1024 * 1024) });
    const o = await s.call({ method: 'POST', url: 'demo/customer/add', token: tok.admin, payload: big, headers: { 'content-type': 'application/json' } });
    expect(o.statusCode).toBe(413);
    expect(j(o)).toMatchObject({ success: false, message: '上传内容超过大小限制' });
    const inf = await s.call({ method: 'POST', url: 'demo/customer/add', token: tok.admin, payload: '{"name":"inf","age":1e309}', headers: { 'content-type': 'application/json' } });
    expect(j(inf).success).toBe(false);
    expect(await count('demo_customer')).toBe(before);
  });
});

describe('mass assignment', () => {
  it('add ignores id, createBy, createTime, tenantId, delFlag and orgCode spoofing', async () => {
    const r = j(
      await s.post(
        'demo/customer/add',
        { id: 'spoofed0000000000000000000000001', name: '批量赋值测试', createBy: 'hacker', createTime: '2000-01-01 00:00:00', tenantId: 2, delFlag: 1 },
        tok.admin,
      ),
    );
    expect(r).toMatchObject({ success: true, message: '添加成功！' });
    const row = await db().selectFrom('demo_customer').selectAll().where('name', '=', '批量赋值测试').executeTakeFirstOrThrow();
    expect(row.id).not.toBe('spoofed0000000000000000000000001');
    expect(row.create_by).toBe('admin');
    expect(row.create_time).not.toBe('2000-01-01 00:00:00');
    expect(Number(row.tenant_id)).not.toBe(2);
  });

  it('user edit cannot set a password, salt or creator; a department admin cannot grant the admin role', async () => {
    const t = await db().selectFrom('sys_user').selectAll().where('username', '=', 'teacher').executeTakeFirstOrThrow();
    const r = j(await s.put('sys/user/edit', { id: t.id, realname: t.realname, password: 'Hacked#2026x', salt: 'x', createBy: 'hacker', delFlag: 1 }, tok.admin));
    const after = await db().selectFrom('sys_user').selectAll().where('id', '=', t.id).executeTakeFirstOrThrow();
    expect(after.password).toBe(t.password);
    expect(after.create_by).toBe(t.create_by);
    expect(Number(after.del_flag)).toBe(0);
    if (!r.success) expect(r.message).toMatch(/[\u4e00-\u9fa5]/);
    // The old password still signs in, the injected one does not.
    expect(await s.login('teacher')).toBeTruthy();
    const hacked = j(await s.post('sys/login', { username: 'teacher', password: 'Hacked#2026x' }));
    expect(hacked.success).toBe(false);

    const adminRole = await db().selectFrom('sys_role').select('id').where('role_code', '=', 'admin').executeTakeFirstOrThrow();
    const rolesBefore = await db().selectFrom('sys_user_role').select('role_id').where('user_id', '=', t.id).orderBy('role_id').execute();
    tok.teacher = await s.login('teacher');
    const esc = j(await s.put('sys/user/edit', { id: t.id, selectedroles: adminRole.id }, tok.deptadmin));
    expect(esc.success).toBe(false);
    expect(esc.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(await db().selectFrom('sys_user_role').select('role_id').where('user_id', '=', t.id).orderBy('role_id').execute()).toEqual(rolesBefore);
    tok.teacher = await s.login('teacher');
  });
});

describe('mass assignment on a lecture record', () => {
  it('the listener cannot set listener, scores, grade, number, creator or tenant of their own record', async () => {
    const me = await db().selectFrom('sys_user').select(['id']).where('username', '=', 'supervisor').executeTakeFirstOrThrow();
    const mine = await db()
      .selectFrom('sup_lecture_record')
      .selectAll()
      .where('listener_id', '=', me.id)
      .where('status', 'in', ['DRAFT', 'RETURNED'])
      .limit(1)
      .executeTakeFirst();
    expect(mine, 'a seeded draft or returned record of the supervisor').toBeDefined();
    if (!mine) return;
    const adminId = (await db().selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const r = j(
      await s.put(
        'supervisor/lectureRecord/edit',
        { id: mine.id, listenerId: adminId, listenerOrgCode: 'A99', totalScore: 100, grade: '优秀', recordNo: 'TK-FAKE', createBy: 'admin', tenantId: 2, status: 'CONFIRMED' },
        tok.supervisor,
      ),
    );
    if (!r.success) expect(r.message).toMatch(/[\u4e00-\u9fa5]/);
    const after = (await rowOf('sup_lecture_record', mine.id as string))!;
    for (const k of ['listener_id', 'listener_org_code', 'total_score', 'grade', 'record_no', 'create_by'] as const) expect(after[k], k).toEqual(mine[k]);
    expect(after.status).not.toBe('CONFIRMED');
  });
});

describe('tenant-id spoofing', () => {
  it.each(['2', '-1', '1,2', '*', '99999999999999999999', 'abc'])('tenant-id %s is refused without data', async (h) => {
    const r = await s.get(`${API}/demo/customer/list`, tok.admin, { 'tenant-id': h });
    const b = j(r);
    // Admin belongs to tenant 0/1 only: any other header is refused (never widened).
    const mine = await db().selectFrom('sys_user').select('rel_tenant_ids').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const belongs = String(mine.rel_tenant_ids ?? '').split(',').includes(h);
    if (belongs) return;
    expect(r.statusCode).toBe(403);
    expect(b).toMatchObject({ success: false, message: '无权访问该租户的数据' });
  });

  it('an empty or zero header keeps the session tenant and never returns every tenant', async () => {
    const plain = j(await s.get(`${API}/demo/customer/list?pageSize=1`, tok.admin)).result.total;
    for (const h of ['', '0', 'null', 'undefined']) {
      const b = j(await s.get(`${API}/demo/customer/list?pageSize=1`, tok.admin, { 'tenant-id': h }));
      expect(b.result.total, h).toBe(plain);
    }
  });
});

describe('IDOR: another department’s lecture record', () => {
  let foreign: Record<string, any>;
  let myTeacherId: string;

  beforeAll(async () => {
    const sec = await db().selectFrom('sys_user').select(['org_code']).where('username', '=', 'secretary').executeTakeFirstOrThrow();
    const me = await db().selectFrom('sys_user').select(['id']).where('username', '=', 'teacher').executeTakeFirstOrThrow();
    myTeacherId = me.id as string;
    const org = String(sec.org_code);
    foreign = await db()
      .selectFrom('sup_lecture_record')
      .selectAll()
      .where('status', '=', 'SUBMITTED')
      .where('listener_org_code', 'not like', `${org}%`)
      .where('teacher_org_code', 'not like', `${org}%`)
      .where('listener_id', '!=', myTeacherId)
      .where('teacher_id', '!=', myTeacherId)
      .limit(1)
      .executeTakeFirstOrThrow();
  });

  it.each(['secretary', 'leader', 'teacher'])('%s: queryById refused, edit refused, delete refused — record unchanged', async (u) => {
    const q = j(await s.get(`supervisor/lectureRecord/queryById?id=${foreign.id}`, tok[u]));
    expect(q).toMatchObject({ success: false, message: '未找到对应听课记录' });
    expect(JSON.stringify(q)).not.toContain(foreign.record_no);
    const e = j(await s.put('supervisor/lectureRecord/edit', { id: foreign.id, strengths: '越权修改', totalScore: 100 }, tok[u]));
    expect(e.success).toBe(false);
    expect(e.message).toMatch(/[\u4e00-\u9fa5]/);
    const d = j(await s.del(`supervisor/lectureRecord/delete?id=${foreign.id}`, tok[u]));
    expect(d.success).toBe(false);
    const db2 = j(await s.del(`supervisor/lectureRecord/deleteBatch?ids=${foreign.id},`, tok[u]));
    expect(db2.success).toBe(false);
    expect(await rowOf('sup_lecture_record', foreign.id)).toEqual(foreign);
    // Not in their list either.
    const l = j(await s.get(`supervisor/lectureRecord/list?recordNo=${foreign.record_no}`, tok[u]));
    expect(l.success ? l.result.total : 0).toBe(0);
  });

  it('secretary: export with selections=<foreign id> does not contain it', async () => {
    const r = await s.get(`supervisor/lectureRecord/exportXls?selections=${foreign.id}`, tok.secretary);
    expect(r.statusCode).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(/spreadsheetml/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => void cells.push(String(c.value ?? '')))));
    expect(cells.length).toBeGreaterThan(0); // the header row
    expect(cells.join('|')).not.toContain(foreign.record_no);
    expect(cells.join('|')).not.toContain(foreign.id);
  });

  it('deleteBatch mixing an own and a foreign id deletes nothing', async () => {
    const own = await db()
      .selectFrom('sup_lecture_record')
      .selectAll()
      .where('listener_id', '=', myTeacherId)
      .limit(1)
      .executeTakeFirst();
    expect(own, 'a seeded record of the teacher').toBeDefined();
    if (!own) return;
    const before = await count('sup_lecture_record');
    const r = j(await s.del(`supervisor/lectureRecord/deleteBatch?ids=${own.id},${foreign.id}`, tok.teacher));
    expect(r.success).toBe(false);
    expect(await count('sup_lecture_record')).toBe(before);
    expect(await rowOf('sup_lecture_record', own.id as string)).toEqual(own);
  });
});

describe('path variants do not bypass authentication', () => {
  const variants = (p: string) => [
    `${API}${p}.js`,
    `${API}${p};.js`,
    `${API}${p}/`,
    `${API}${p}%2ejs`,
    `/jeecg-boot/${p.slice(1)}`.replace('/jeecg-boot/', '/jeecg-boot//'),
    `${API}${p.toUpperCase()}`,
    `${API}/api/..${p}`,
    `${API}/api/%2e%2e${p}`,
    `${API}/sys/..;${p}`,
    `${API}/sys/%2e%2e;${p}`,
    `${API}/static/..%2f..${p}`,
    `/jeecg-boot/..${API}${p}`,
    `${API}${p}?token=`,
    `${API}${p.replace('/list', '/%6c%69%73%74')}`,
    `${API}${p.replace('/sys/', '/sys/./')}`,
    `${API}${p.replace('/sys/', '/sys/x/../')}`,
  ];

  it.each(['/sys/user/list', '/sys/dict/getDictItems/sys_user,password,username', '/supervisor/lectureRecord/list'])(
    'without a token every variant of %s answers 401 or 404',
    async (p) => {
      for (const url of variants(p)) {
        const r = await s.call({ method: 'GET', url });
        expect([401, 404], `${url} → ${r.statusCode} ${r.body.slice(0, 120)}`).toContain(r.statusCode);
        expect(r.body).not.toMatch(/"records"|\$argon2/);
      }
    },
  );

  it('with a teacher token, variants of an admin-only path never reach the handler', async () => {
    for (const url of variants('/sys/user/list')) {
      const r = await s.call({ method: 'GET', url, token: tok.teacher });
      const code = r.statusCode === 200 ? j(r).code : r.statusCode;
      expect([510, 404], `${url} → ${r.statusCode} ${r.body.slice(0, 120)}`).toContain(code);
      expect(r.body).not.toMatch(/"records"/);
    }
  });
});
