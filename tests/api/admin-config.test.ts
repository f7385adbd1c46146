import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

/** Configuration screens of issue 5: check/fill rules, data sources, gateway routes, addresses, data log, data rules, file upload. */
const s = fileTestServer(['admin', 'teacher']);

type J = { success: boolean; code: number; message: string; result: any };
const j = (r: { json(): unknown }) => r.json() as J;
const get = async (url: string, tok = s.tok.admin) => j(await s.get(url, tok));
const post = async (url: string, body: unknown, tok = s.tok.admin) => j(await s.post(url, body, tok));
const put = async (url: string, body: unknown, tok = s.tok.admin) => j(await s.put(url, body, tok));

describe('admin configuration areas', () => {
  it('refuses a non-admin with code 510 on every new area', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', 'sys/checkRule/list'], ['POST', 'sys/checkRule/add', { ruleName: 'x', ruleCode: 'x', ruleJson: '[]' }],
      ['GET', 'sys/fillRule/list'], ['GET', 'sys/fillRule/preview?id=x'],
      ['GET', 'sys/dataSource/list'], ['GET', 'sys/dataSource/queryById?id=x'], ['GET', 'sys/dataSource/exportXls'], ['POST', 'sys/dataSource/add', { code: 'x' }],
      ['GET', 'sys/gatewayRoute/list'], ['POST', 'sys/gatewayRoute/add', { routerId: 'x' }],
      ['GET', 'sys/address/list'], ['GET', 'sys/dataLog/list'], ['GET', 'sys/dataLog/compare?id1=a&id2=b'], ['DELETE', 'sys/dataLog/delete?id=x'],
      ['GET', 'sys/dataRule/list'], ['GET', 'sys/quartzJob/runs'], ['POST', 'sys/files/confirmUpload', { file: 'oss/x.png' }],
    ];
    for (const [method, url, body] of calls) {
      const r = await s.call({ method: method as 'GET', url: `/jeecg-boot/${url}`, payload: body as object, token: s.tok.teacher });
      expect(j(r), `${method} ${url}`).toMatchObject({ success: false, code: 510 });
    }
  });

  it('lists the seeded check rules and checks values with checkByCode', async () => {
    const list = await get('sys/checkRule/list?ruleName=*工号*');
    expect(list.result.records.map((r: any) => r.ruleCode)).toEqual(['teacher_work_no']);
    expect((await get('sys/checkRule/checkByCode?ruleCode=teacher_work_no&value=T20100001')).success).toBe(true);
    const bad = await get('sys/checkRule/checkByCode?ruleCode=teacher_work_no&value=X20100001');
    expect(bad).toMatchObject({ success: false, message: '工号须以大写字母T开头' });
    expect(await get('sys/checkRule/checkByCode?ruleCode=course_code&value=041000')).toMatchObject({ success: false, message: '课程号后5位须为数字序号' });
    expect(await post('sys/checkRule/add', { ruleName: '坏规则', ruleCode: 'bad_rule', ruleJson: '{not json' })).toMatchObject({ success: false, message: '校验规则JSON格式不正确' });
  });

  it('previews the next fill-rule number without consuming it', async () => {
    const rule = (await get('sys/fillRule/list?ruleCode=supervision_brief_no')).result.records[0];
    const year = new Date().getFullYear();
    const a = await get(`sys/fillRule/preview?id=${rule.id}`);
    expect(a.result).toBe(`DDJB${year}001`);
    expect(a.message).toContain(`DDJB${year}001`);
    expect((await get(`sys/fillRule/preview?id=${rule.id}`)).result).toBe(`DDJB${year}001`);
    const { nextNumber } = await import('../../server/crud/fill-rule.js');
    expect(await nextNumber({ db: s.running.ctx.db }, 'supervision_brief_no')).toBe(`DDJB${year}001`);
    expect((await get(`sys/fillRule/preview?id=${rule.id}`)).result).toBe(`DDJB${year}002`);
  });

  it('never returns a data source password, keeps it on an empty edit and stores it encrypted', async () => {
    const secret = 'S3cret#Pw-2026';
    const add = await post('sys/dataSource/add', { code: 'test_ds', name: '测试库', dbType: 'mysql', dbUrl: 'jdbc:mysql://127.0.0.1/t', dbUsername: 'u', dbPassword: secret });
    expect(add.success).toBe(true);
    const listRaw = await (await s.get('sys/dataSource/list?pageSize=100', s.tok.admin)).body;
    expect(listRaw).not.toContain(secret);
    expect(listRaw).not.toMatch(/dbPassword/);
    const row = JSON.parse(listRaw).result.records.find((r: any) => r.code === 'test_ds');
    const byId = await (await s.get(`sys/dataSource/queryById?id=${row.id}`, s.tok.admin)).body;
    expect(byId).not.toContain(secret);
    expect(byId).not.toMatch(/dbPassword/);
    const exp = await s.get('sys/dataSource/exportXls', s.tok.admin);
    expect(exp.statusCode).toBe(200);
    expect(exp.rawPayload.includes(Buffer.from(secret))).toBe(false);
    const db = s.running.ctx.db;
    const stored = async () => String((await db.selectFrom('sys_data_source').select('db_password').where('id', '=', row.id).executeTakeFirstOrThrow()).db_password);
    const first = await stored();
    expect(first).toMatch(/^v1:/);
    expect(first).not.toContain(secret);
    const { decryptSecret } = await import('../../server/sys/data-source.js');
    expect(decryptSecret(s.running.ctx, first)).toBe(secret);
    // An edit with an empty password keeps it; a new one replaces it.
    expect((await put('sys/dataSource/edit', { id: row.id, remark: '改备注', dbPassword: '' })).success).toBe(true);
    expect(await stored()).toBe(first);
    expect((await put('sys/dataSource/edit', { id: row.id, dbPassword: 'New#Pw-2026' })).success).toBe(true);
    expect(decryptSecret(s.running.ctx, await stored())).toBe('New#Pw-2026');
    // The data log of the data source carries no password.
    const logs = await (await s.get(`sys/dataLog/list?dataTable=sys_data_source&dataId=${row.id}&pageSize=50`, s.tok.admin)).body;
    expect(JSON.parse(logs).result.total).toBeGreaterThanOrEqual(2);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain('New#Pw-2026');
    expect(logs).not.toMatch(/dbPassword|v1:/);
  });

  it('refuses invalid gateway JSON with a Chinese message and stores valid JSON', async () => {
    const base = { routerId: 'test-route', name: '测试路由', uri: 'lb://test-service', status: 1 };
    expect(await post('sys/gatewayRoute/add', { ...base, predicates: '[{"name":"Path",' })).toMatchObject({ success: false, message: expect.stringContaining('断言（predicates）不是有效的JSON') });
    expect(await post('sys/gatewayRoute/add', { ...base, filters: '{"name":"StripPrefix"}' })).toMatchObject({ success: false, message: expect.stringContaining('过滤器（filters）必须是JSON数组') });
    expect(await post('sys/gatewayRoute/add', { ...base, uri: 'javascript:alert(1)' })).toMatchObject({ success: false, message: expect.stringContaining('目标地址') });
    expect((await get('sys/gatewayRoute/list?routerId=test-route')).result.total).toBe(0);
    expect((await post('sys/gatewayRoute/add', { ...base, predicates: '[{"name":"Path","args":{"_genkey_0":"/t/**"}}]' })).success).toBe(true);
    const row = (await get('sys/gatewayRoute/list?routerId=test-route')).result.records[0];
    expect(JSON.parse(row.predicates)).toEqual([{ name: 'Path', args: { _genkey_0: '/t/**' } }]);
    expect((await get('sys/gatewayRoute/list')).result.total).toBeGreaterThanOrEqual(4);
  });

  it('lists the staff of a department subtree, searchable by name', async () => {
    const all = await get('sys/address/list?orgCode=A01A04&pageSize=200');
    expect(all.success).toBe(true);
    expect(all.result.total).toBeGreaterThan(5);
    expect(all.result.records.every((r: any) => r.departName && 'workNo' in r && !('password' in r))).toBe(true);
    const sub = await get('sys/address/list?orgCode=A01A04A01&pageSize=200');
    expect(sub.result.total).toBeLessThan(all.result.total);
    const one = all.result.records[0];
    const byName = await get(`sys/address/list?orgCode=A01A04&realname=${encodeURIComponent(one.realname)}`);
    expect(byName.result.records.map((r: any) => r.id)).toContain(one.id);
    expect(byName.result.records.every((r: any) => r.realname.includes(one.realname))).toBe(true);
    expect(await get("sys/address/list?orgCode=A01'%20or%201=1")).toMatchObject({ success: false, message: '部门编码不正确' });
  });

  it('writes a data-log version when an edit changes a user, never with secrets, and compares two versions', async () => {
    const user = (await get('sys/user/list?username=supervisor')).result.records[0];
    const before = (await get(`sys/dataLog/list?dataTable=sys_user&dataId=${user.id}`)).result.total;
    expect((await put('sys/user/edit', { id: user.id, telephone: '0571-86001234' })).success).toBe(true);
    // A save that changes nothing writes no version.
    expect((await put('sys/user/edit', { id: user.id, telephone: '0571-86001234' })).success).toBe(true);
    const logs = (await get(`sys/dataLog/list?dataTable=sys_user&dataId=${user.id}&column=dataVersion&order=asc`)).result;
    expect(logs.total).toBe(before ? before + 1 : 2);
    const [v1, v2] = logs.records.slice(-2);
    expect(Number(v2.dataVersion)).toBe(Number(v1.dataVersion) + 1);
    expect(v2.createBy).toBe('admin');
    expect(v2.dataContent).not.toMatch(/password/i);
    expect(JSON.parse(v2.dataContent).telephone).toBe('0571-86001234');
    const cmp = await get(`sys/dataLog/compare?id1=${v1.id}&id2=${v2.id}`);
    const tel = cmp.result.fields.find((f: any) => f.name === 'telephone');
    expect(tel).toMatchObject({ title: '座机号', right: '0571-86001234', changed: true });
    expect(cmp.result.fields.find((f: any) => f.name === 'username')).toMatchObject({ changed: false });
    expect(cmp.result.fields.some((f: any) => /password/i.test(f.name))).toBe(false);
    // The seeded history of the demo teacher is there.
    const seeded = await get('sys/dataLog/list?dataTable=sys_user&pageSize=50');
    expect(seeded.result.records.some((r: any) => r.dataVersion === 2 || r.dataVersion === '2')).toBe(true);
  });

  it('writes a data-log version when a lecture record is edited', async () => {
    const sup = await s.login('supervisor');
    const supId = (await get('sys/user/getUserInfo', sup)).result.userInfo.id;
    // One of the supervisor's own editable records: a draft, or one returned to them. A supervisor sees
    // everyone's records, and the seed picks lessons at random, so the list is narrowed to the listener.
    const editable = async (status: string) =>
      (await get(`supervisor/lectureRecord/list?status=${status}&listenerId=${supId}&pageSize=5`, sup)).result.records;
    const mine = [...(await editable('DRAFT')), ...(await editable('RETURNED'))];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r: any) => r.listenerId === supId)).toBe(true);
    const rec = mine[0];
    const r = await put('supervisor/lectureRecord/edit', { id: rec.id, strengths: '课堂互动充分（数据日志测试）' }, sup);
    expect(r).toMatchObject({ success: true });
    const logs = (await get(`sys/dataLog/list?dataTable=sup_lecture_record&dataId=${rec.id}&column=dataVersion&order=desc`)).result.records;
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(logs[0].dataContent).strengths).toBe('课堂互动充分（数据日志测试）');
  });

  it('lists every data rule with its menu and edits through the permission calls', async () => {
    const list = await get('sys/dataRule/list?ruleName=*本部门*');
    const rule = list.result.records[0];
    expect(rule).toMatchObject({ permissionName: '用户管理', ruleColumn: 'orgCode', ruleConditions: 'RIGHT_LIKE' });
    const add = await post('sys/permission/addPermissionRule', { permissionId: rule.permissionId, ruleName: '仅本人创建', ruleColumn: 'createBy', ruleConditions: '=', ruleValue: '#{sys_user_code}', status: '1' });
    expect(add.success).toBe(true);
    const mine = (await get('sys/dataRule/list?ruleName=*仅本人*&column=ruleName&order=asc')).result.records[0];
    expect(mine.permissionName).toBe('用户管理');
    expect((await s.del(`sys/permission/deletePermissionRule?id=${mine.id}`, s.tok.admin)).json()).toMatchObject({ success: true });
    expect((await get('sys/dataRule/list?ruleName=*仅本人*')).result.total).toBe(0);
    expect(await post('sys/permission/addPermissionRule', { permissionId: rule.permissionId, ruleName: 'SQL', ruleConditions: 'USE_SQL_RULES', ruleValue: '1=1' })).toMatchObject({ success: false });
  });

  it('deletes data rules in batch, all or none; a menu left without rules loses its rule flag', async () => {
    // A menu with no rules yet: 职务管理.
    const menu = await s.running.ctx.db.selectFrom('sys_permission').select(['id', 'rule_flag']).where('url', '=', '/isystem/position').where('menu_type', '<>', 2).executeTakeFirstOrThrow();
    for (const name of ['批量甲', '批量乙']) expect(await post('sys/permission/addPermissionRule', { permissionId: menu.id, ruleName: name, ruleColumn: 'createBy', ruleConditions: '=', ruleValue: '#{sys_user_code}' })).toMatchObject({ success: true });
    const ids = (await get('sys/dataRule/list?ruleName=*批量*')).result.records.map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(2);
    const flag = async () => Number((await s.running.ctx.db.selectFrom('sys_permission').select('rule_flag').where('id', '=', menu.id).executeTakeFirstOrThrow()).rule_flag);
    expect(await flag()).toBe(1);
    // One unknown id: nothing is deleted.
    expect((await s.del(`sys/permission/deletePermissionRuleBatch?ids=${ids.join(',')},nope`, s.tok.admin)).json()).toMatchObject({ success: false, message: '部分数据不存在，未删除任何数据' });
    expect((await get('sys/dataRule/list?ruleName=*批量*')).result.total).toBe(2);
    expect((await s.del('sys/permission/deletePermissionRuleBatch?ids=', s.tok.admin)).json()).toMatchObject({ success: false, message: '请选择要删除的数据' });
    expect((await s.del(`sys/permission/deletePermissionRuleBatch?ids=${ids.join(',')},`, s.tok.admin)).json()).toMatchObject({ success: true, message: '批量删除成功!' });
    expect((await get('sys/dataRule/list?ruleName=*批量*')).result.total).toBe(0);
    expect(await flag()).toBe(0);
    // A teacher may not.
    expect((await s.del(`sys/permission/deletePermissionRuleBatch?ids=x`, await s.login('teacher'))).json()).toMatchObject({ success: false, code: 510 });
  });

  it('confirms only files that were really uploaded by the user', async () => {
    expect(await post('sys/files/confirmUpload', { file: 'oss/not-there.png' })).toMatchObject({ success: false, message: '部分文件未上传成功，请重新上传' });
    expect(await post('sys/files/confirmUpload', { file: '' })).toMatchObject({ success: false, message: '请先选择要上传的文件' });
    const boundary = '----b';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\noss\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="说明.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const up = j(await s.call({ method: 'POST', url: '/jeecg-boot/sys/common/upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, token: s.tok.admin }));
    expect(up.success).toBe(true);
    expect(await post('sys/files/confirmUpload', { file: up.message })).toMatchObject({ success: true, message: '上传成功！共1个文件' });
  });
});
