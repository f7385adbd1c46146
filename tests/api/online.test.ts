import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { makeUser, multipart, readXlsxRows } from '../fixtures/crud-users.js';

const s = fileTestServer(['admin']);

const get = async (url: string, token = s.tok.admin) => (await s.get(url, token)).json();
const field = (dbFieldName: string, dbFieldTxt: string, dbType: string, more: Record<string, unknown> = {}) => ({ dbFieldName, dbFieldTxt, dbType, dbLength: 50, isShowList: 1, isShowForm: 1, ...more });

describe('online forms', () => {
  let headId = '';

  it('refuses bad definitions with a clear message', async () => {
    const bad = async (head: Record<string, unknown>, fields: unknown[]) => (await s.post('online/cgform/api/addAll', { head, fields }, s.tok.admin)).json();
    expect(await bad({ tableName: 'sys_user', tableTxt: '冒充' }, [field('name', '名称', 'string')])).toMatchObject({ success: false, message: expect.stringContaining('系统保留') });
    expect(await bad({ tableName: 'Bad-Name', tableTxt: 'x' }, [field('name', '名称', 'string')])).toMatchObject({ success: false, message: expect.stringContaining('表名') });
    expect(await bad({ tableName: 'form_a', tableTxt: 'x' }, [field('name', '名称', 'varchar2')])).toMatchObject({ success: false, message: expect.stringContaining('类型') });
    expect(await bad({ tableName: 'form_a', tableTxt: 'x' }, [field('na me;drop', '名称', 'string')])).toMatchObject({ success: false });
    expect(await bad({ tableName: 'form_a', tableTxt: 'x' }, [])).toMatchObject({ success: false, message: '请至少定义一个字段' });
    // a table that exists in the database but is not an entity (e.g. a migration's) is not taken over
    await s.running.ctx.db.schema.createTable('legacy_secret').addColumn('id', 'varchar(32)').execute();
    expect(await bad({ tableName: 'legacy_secret', tableTxt: 'x' }, [field('name', '名称', 'string')])).toMatchObject({ success: false, message: '数据库中已存在表“legacy_secret”，请换一个表名' });
    expect(await bad({ tableName: 'form_a', tableTxt: 'x' }, [field('owner', '用户', 'string', { dictTable: 'sys_user', dictText: 'password', dictField: 'username' })])).toMatchObject({ success: false, message: expect.stringContaining('字典表') });
  });

  it('stores a definition, creates its table on sync, and serves form CRUD through the engine', async () => {
    const r = (await s.post('online/cgform/api/addAll', {
      head: { tableName: 'form_visit', tableTxt: '走访登记' },
      fields: [
        field('visitor_name', '走访人', 'string', { fieldMustInput: '1', isQuery: 1, sortFlag: '1' }),
        field('visit_date', '走访日期', 'Date', { isQuery: 1, sortFlag: '1' }),
        field('sex', '性别', 'int', { dictField: 'sex', fieldShowType: 'list' }),
        field('score', '评分', 'double', { dbLength: 5, dbPointLength: 1 }),
        field('phone', '电话', 'string', { fieldValidType: 'm' }),
      ],
    }, s.tok.admin)).json();
    expect(r).toMatchObject({ success: true });
    headId = r.result;
    const cols = await get(`online/cgform/api/getColumns/${headId}`);
    expect(cols.result.columns.map((c: { dataIndex: string }) => c.dataIndex)).toEqual(['visitorName', 'visitDate', 'sex', 'score', 'phone']);
    expect(cols.result.dictOptions.sex).toHaveLength(2);
    expect(cols.result.formFields.find((f: { field: string }) => f.field === 'visitorName')).toMatchObject({ required: true, title: '走访人' });
    expect(await get(`online/cgform/api/getData/${headId}`)).toMatchObject({ success: false, message: 'NO_DB_SYNC' });
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/force`, {}, s.tok.admin)).json()).toMatchObject({ success: false });
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/normal`, {}, s.tok.admin)).json()).toMatchObject({ success: true });

    const add = (await s.post('online/cgform/api/form/form_visit', { visitorName: '张三', visitDate: '2026-11-20', sex: 1, score: 9.5, phone: '13800000000', createBy: 'mallory' }, s.tok.admin)).json();
    expect(add.success).toBe(true);
    const id = add.result as string;
    expect((await s.post('online/cgform/api/form/form_visit', { visitDate: '2026-11-20' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '走访人不能为空' });
    expect((await s.post('online/cgform/api/form/form_visit', { visitorName: '李四', phone: '123' }, s.tok.admin)).json()).toMatchObject({ success: false, message: expect.stringContaining('电话') });
    await s.post('online/cgform/api/form/form_visit', { visitorName: '李四', visitDate: '2026-11-21', sex: 2 }, s.tok.admin);
    const data = await get(`online/cgform/api/getData/${headId}?column=visitDate&order=asc`);
    expect(data.result.total).toBe(2);
    expect(data.result.records[0]).toMatchObject({ visitorName: '张三', sex_dictText: '男', score: '9.5', createBy: 'admin' });
    expect((await get(`online/cgform/api/getData/${headId}?visitorName=*李*`)).result.total).toBe(1);
    expect(await get(`online/cgform/api/getData/${headId}?column=phone`)).toMatchObject({ success: false, message: '不支持按“phone”排序' });
    expect((await get(`online/cgform/api/getData/${headId}?pageSize=-521`)).result.records).toHaveLength(2);
    expect((await s.put(`online/cgform/api/form/${headId}`, { id, score: 7 }, s.tok.admin)).json().success).toBe(true);
    expect((await get(`online/cgform/api/form/${headId}/${id}`)).result).toMatchObject({ score: '7.0', visitorName: '张三' });
    const q = await get(`online/cgform/api/getQueryInfo/${headId}`);
    expect(q.result.map((x: { field: string }) => x.field)).toEqual(['visitorName', 'visitDate']);
    const exported = await s.get(`online/cgform/api/exportXls/${headId}?visitorName=张三`, s.tok.admin);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsxRows(exported.rawPayload);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('走访人');
    expect((await s.del(`online/cgform/api/form/${headId}/${id}`, s.tok.admin)).json().success).toBe(true);
    expect((await get(`online/cgform/api/getData/${headId}`)).result.total).toBe(1);
    const imp = await s.call({ method: 'POST', url: `online/cgform/api/importXls/${headId}`, token: s.tok.admin, ...multipart([{ name: 'visits.xlsx', data: exported.rawPayload }]) });
    expect(imp.json()).toMatchObject({ success: true, message: '文件导入成功！数据行数：1' });
    expect((await get(`online/cgform/api/getData/${headId}?visitorName=张三`)).result.records[0]).toMatchObject({ score: '7.0', sex: 1 });
  });

  it('adds a column additively on edit + sync, keeping the data', async () => {
    const fields = (await get(`online/cgform/field/listByHeadId?headId=${headId}`)).result;
    const r = (await s.put('online/cgform/api/editAll', { head: { id: headId, tableTxt: '走访登记（新）' }, fields: [...fields, field('remark', '备注', 'Text')] }, s.tok.admin)).json();
    expect(r.success).toBe(true);
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/normal`, {}, s.tok.admin)).json().success).toBe(true);
    const data = await get(`online/cgform/api/getData/${headId}`);
    expect(data.result.total).toBe(2);
    expect(data.result.records.map((r: { visitorName: string }) => r.visitorName).sort()).toEqual(['张三', '李四']);
    expect(data.result.records[0]).toHaveProperty('remark', null);
    // narrowing a column would lose data: refused
    const narrowed = fields.map((f: { dbFieldName: string }) => (f.dbFieldName === 'visitor_name' ? { ...f, dbLength: 2 } : f));
    await s.put('online/cgform/api/editAll', { head: { id: headId }, fields: [...narrowed, field('remark', '备注', 'Text')] }, s.tok.admin);
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/normal`, {}, s.tok.admin)).json()).toMatchObject({ success: false, message: expect.stringContaining('会丢失数据') });
  });

  it('requires the online form permissions', async () => {
    const t = await makeUser(s, { username: 'noonline', perms: [] });
    expect(await get(`online/cgform/api/getData/${headId}`, t)).toMatchObject({ success: false, code: 510 });
  });
});

describe('online reports', () => {
  it('describes a registered report', async () => {
    const cols = await get('online/cgreport/api/getRpColumns/sys_user_by_depart');
    expect(cols.result).toMatchObject({ cgRpConfigId: 'sys_user_by_depart', cgRpConfigName: '用户选择（按部门）' });
    expect(cols.result.columns.map((c: { dataIndex: string }) => c.dataIndex)).toContain('realname');
    expect((await get('online/cgreport/api/getQueryInfo/sys_user_by_depart')).result.map((x: { field: string }) => x.field)).toEqual(['username', 'realname', 'work_no', 'org_code']);
    expect((await get('online/cgreport/api/getParamsInfo/sys_user_by_depart')).result).toEqual([expect.objectContaining({ paramName: 'orgCode' })]);
    expect(await get('online/cgreport/api/getRpColumns/nope')).toMatchObject({ success: false, message: '报表不存在' });
  });

  it('pages, sorts, filters and binds self_ parameters', async () => {
    const all = await get('online/cgreport/api/getData/sys_user_by_depart?pageNo=1&pageSize=5&column=username&order=asc');
    expect(all.success).toBe(true);
    expect(all.result.records).toHaveLength(5);
    expect(all.result.total).toBeGreaterThan(5);
    const names = all.result.records.map((r: { username: string }) => r.username);
    expect(names).toEqual([...names].sort());
    expect(all.result.records[0]).not.toHaveProperty('password');
    const org = (await s.running.ctx.db.selectFrom('sys_depart').select('org_code').where('parent_id', 'is not', null).where('parent_id', '<>', '').executeTakeFirst())?.org_code as string;
    const some = await get(`online/cgreport/api/getData/sys_user_by_depart?self_orgCode=${org}&pageSize=100`);
    expect(some.success).toBe(true);
    expect(some.result.total).toBeLessThan(all.result.total);
    const inj = await get(`online/cgreport/api/getData/sys_user_by_depart?self_orgCode=${encodeURIComponent("' or '1'='1")}`);
    expect(inj.result.total).toBe(0);
    expect((await get('online/cgreport/api/getData/sys_user_by_depart?username=admin')).result.total).toBe(1);
    expect(await get('online/cgreport/api/getData/sys_user_by_depart?self_sql=1')).toMatchObject({ success: false, message: '报表不支持参数“self_sql”' });
    expect(await get('online/cgreport/api/getData/sys_user_by_depart?column=depart_names')).toMatchObject({ success: false });
    expect(await get('online/cgreport/api/getData/sys_user_by_depart?pageSize=x')).toMatchObject({ success: false });
  });

  it('exports a report with the same parameters', async () => {
    const r = await s.get('online/cgreport/api/exportXls/sys_user_by_depart?username=admin', s.tok.admin);
    expect(r.headers['content-disposition']).toContain(encodeURIComponent('用户选择（按部门）.xlsx'));
    const rows = await readXlsxRows(r.rawPayload);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('admin');
  });

  it('runs the demo report within the tenant and checks its permission', async () => {
    const r = await get('online/cgreport/api/getData/demo_customer_stats?column=customers&order=desc');
    expect(r.success).toBe(true);
    const total = r.result.records.reduce((n: number, x: { customers: number }) => n + Number(x.customers), 0);
    expect(total).toBe(50);
    expect(await get('online/cgreport/api/getData/demo_customer_stats?self_createdFrom=yesterday')).toMatchObject({ success: false, message: expect.stringContaining('日期') });
    const t = await makeUser(s, { username: 'nodemo', perms: [] });
    expect(await get('online/cgreport/api/getData/demo_customer_stats', t)).toMatchObject({ success: false, code: 510 });
    expect((await get('online/cgreport/api/getData/sys_user_by_depart', t)).success).toBe(true);
  });
});
