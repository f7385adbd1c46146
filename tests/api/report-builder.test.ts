import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { authenticate } from '../../server/http/guard.js';
import { runReport, type ReportSpec } from '../../server/online/report-builder.js';

/** 报表配置's query builder (issue 31): a structure compiled over allow-listed entities and columns, on the data scope. */
const s = fileTestServer(['admin', 'secretary', 'teacher', 'leader']);
const { tok } = s;

const preview = async (spec: unknown, params: Record<string, unknown> = {}, token = tok.admin) => (await s.post('online/cgreport/design/preview', { spec, params }, token)).json();
const PER_DEPT_GRADE: ReportSpec = {
  entity: 'sup_lecture_record',
  groupBy: ['teacherOrgCode', 'grade'],
  aggregates: [{ fn: 'count', as: 'records' }, { fn: 'avg', field: 'totalScore', as: 'avgScore' }],
  orderBy: [{ field: 'records', desc: true }],
};

describe('report builder', () => {
  it('compiles group by, aggregates, order and parameters', async () => {
    const r = await preview(PER_DEPT_GRADE);
    expect(r.success).toBe(true);
    const rows = r.result as Array<{ teacherOrgCode: string; grade: string; records: number; avgScore: string }>;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]).toEqual({ teacherOrgCode: expect.any(String), grade: expect.anything(), grade_dictText: expect.any(String), records: expect.any(Number), avgScore: expect.anything() });
    expect(rows.map((x) => x.records)).toEqual([...rows.map((x) => x.records)].sort((a, b) => b - a));
    const total = rows.reduce((n, x) => n + x.records, 0);
    const { total: listTotal } = (await s.get('supervisor/lectureRecord/list?pageSize=1', tok.admin)).json().result;
    expect(total).toBe(listTotal);
    const dept = rows[0]!.teacherOrgCode;
    const one = await preview({ ...PER_DEPT_GRADE, filters: [{ field: 'teacherOrgCode', op: 'eq', param: 'dept' }] }, { dept });
    expect(one.result.every((x: { teacherOrgCode: string }) => x.teacherOrgCode === dept)).toBe(true);
    expect((await preview({ ...PER_DEPT_GRADE, filters: [{ field: 'teacherOrgCode', op: 'eq', param: 'dept' }] }, {})).result).toHaveLength(rows.length);
  });

  it('refuses unknown or forbidden entities and columns, and anything not a structure', async () => {
    expect(await preview({ ...PER_DEPT_GRADE, entity: 'pg_user' })).toMatchObject({ success: false, message: '报表不能使用实体“pg_user”' });
    expect(await preview({ ...PER_DEPT_GRADE, entity: 'sys_user' })).toMatchObject({ success: false, message: '报表不能使用实体“sys_user”' });
    expect(await preview({ ...PER_DEPT_GRADE, groupBy: ['grade; drop table sys_user'] })).toMatchObject({ success: false, message: expect.stringContaining('/groupBy/0：实体“听课记录”没有字段') });
    expect(await preview({ ...PER_DEPT_GRADE, aggregates: [{ fn: 'sum', field: 'grade', as: 'x' }] })).toMatchObject({ success: false, message: expect.stringContaining('不是数值字段') });
    expect(await preview({ ...PER_DEPT_GRADE, aggregates: [{ fn: 'pg_sleep', field: 'totalScore', as: 'x' }] })).toMatchObject({ success: false, message: expect.stringContaining('不支持的统计') });
    expect(await preview({ ...PER_DEPT_GRADE, aggregates: [{ fn: 'count', as: 'x"; --' }] })).toMatchObject({ success: false, message: expect.stringContaining('/aggregates/0/as') });
    expect(await preview({ ...PER_DEPT_GRADE, orderBy: [{ field: 'password' }] })).toMatchObject({ success: false, message: expect.stringContaining('只能按报表的列排序') });
    expect(await preview({ ...PER_DEPT_GRADE, filters: [{ field: 'grade', op: 'eq', value: { $ne: 1 } }] })).toMatchObject({ success: false, message: expect.stringContaining('条件值不正确') });
    expect(await preview({ entity: 'sup_lecture_record', sql: 'select * from sys_user' })).toMatchObject({ success: true }); // unknown keys are ignored; nothing runs but the structure
  });

  it('applies the data scope of the caller (the rows their list shows)', async () => {
    const reqOf = async (token: string) => {
      const req = { headers: { 'x-access-token': token }, query: {}, log: console } as unknown as FastifyRequest;
      (req as { user?: unknown }).user = await authenticate(s.running.ctx, req);
      return req;
    };
    const secretary = await reqOf(tok.secretary!);
    const scoped = await runReport(s.running.ctx, secretary, { entity: 'sup_lecture_record', aggregates: [{ fn: 'count', as: 'n' }] });
    const { total } = (await s.get('supervisor/lectureRecord/list?pageSize=1', tok.secretary)).json().result;
    const all = (await preview({ entity: 'sup_lecture_record', aggregates: [{ fn: 'count', as: 'n' }] })).result[0].n;
    expect(scoped[0]!.n).toBe(total);
    expect(total).toBeLessThan(all);
  });

  it('refuses a teacher', async () => {
    expect(await preview(PER_DEPT_GRADE, {}, tok.teacher)).toMatchObject({ success: false, code: 510 });
    expect((await s.get('online/cgreport/design/model', tok.teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.post('online/cgreport/design/save', { code: 'x_y', name: 'x', spec: PER_DEPT_GRADE }, tok.teacher)).json()).toMatchObject({ success: false, code: 510 });
  });
});

const BY_DEPART: ReportSpec = {
  entity: 'sup_lecture_record',
  joins: ['teacherDepart'],
  columns: [{ field: 'teacherDepart.departName', label: '部门' }, { field: 'grade', label: '等级', dict: 'eval_grade' }],
  aggregates: [{ fn: 'count', as: 'records', label: '听课次数' }],
  orderBy: [{ field: 'records', desc: true }],
  chart: { type: 'bar', x: 'teacherDepart_departName', series: ['records'] },
  detail: [{ field: 'recordNo', label: '记录编号', link: true }, { field: 'teacherName' }],
};

describe('relations', () => {
  it('joins only along declared relations, with dictionary texts', async () => {
    const r = await preview(BY_DEPART);
    expect(r.success).toBe(true);
    const rows = r.result as Array<{ teacherDepart_departName: string; grade: string; grade_dictText: string; records: number }>;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((x) => typeof x.teacherDepart_departName === 'string' && x.teacherDepart_departName.length > 0)).toBe(true);
    expect(rows.some((x) => x.grade && x.grade_dictText && x.grade_dictText !== x.grade)).toBe(true);
    const { total } = (await s.get('supervisor/lectureRecord/list?pageSize=1', tok.admin)).json().result;
    expect(rows.reduce((n, x) => n + x.records, 0)).toBe(total);
    // Ungrouped: one row per record, with its id for the record link, and a relation's fields.
    const plain = await preview({ entity: 'sup_lecture_record', joins: ['listener'], columns: [{ field: 'recordNo', link: true }, 'listener.realname'], orderBy: [{ field: 'recordNo' }], limit: 3 });
    expect(plain.result).toHaveLength(3);
    expect(plain.result[0]).toEqual({ recordNo: expect.any(String), listener_realname: expect.any(String), __id: expect.any(String) });
    // Every declared relation of every entity compiles (the target tables and keys exist).
    const model = (await s.get('online/cgreport/design/model', tok.admin)).json().result as Array<{ name: string; relations: Array<{ name: string; fields: Array<{ name: string }> }> }>;
    const rec = model.find((m) => m.name === 'sup_lecture_record')!;
    expect(rec.relations.map((x) => x.name)).toEqual(expect.arrayContaining(['teacherDepart', 'listener', 'term', 'course']));
    for (const m of model)
      for (const rel of m.relations) {
        const a = await preview({ entity: m.name, joins: [rel.name], columns: [`${rel.name}.${rel.fields[0]!.name}`], limit: 2 });
        expect(a, `${m.name}.${rel.name}`).toMatchObject({ success: true });
      }
  });

  it('refuses other joins, fields and hostile names with a Chinese message', async () => {
    const bad = async (spec: unknown) => (await preview(spec)).message as string;
    expect(await bad({ ...BY_DEPART, joins: ['sys_user'] })).toContain('/joins/0：实体“听课记录”没有关联“sys_user”');
    expect(await bad({ ...BY_DEPART, joins: ['teacherDepart; drop table sys_user --'] })).toContain('没有关联');
    expect(await bad({ ...BY_DEPART, joins: 'teacherDepart' })).toContain('/joins：应为关联名称的列表');
    expect(await bad({ ...BY_DEPART, joins: [] })).toContain('“teacherDepart”不是已添加的关联');
    expect(await bad({ ...BY_DEPART, joins: ['teacher'], columns: ['teacher.password'], aggregates: [] })).toContain('关联“授课教师”没有可用字段“password”');
    expect(await bad({ ...BY_DEPART, joins: ['teacher'], columns: ['teacher.phone'], aggregates: [] })).toContain('没有可用字段“phone”');
    expect(await bad({ ...BY_DEPART, columns: ['t.id"; select 1; --'] })).toContain('不是已添加的关联');
    expect(await bad({ ...BY_DEPART, limit: 1e9 })).toContain('/limit：行数上限应为 1 到 5000 的整数');
    expect(await bad({ ...BY_DEPART, limit: '1; drop' })).toContain('/limit');
    expect(await bad({ ...BY_DEPART, entity: 'onl_report' })).toContain('报表不能使用实体');
    expect(await bad({ ...BY_DEPART, groupBy: ['grade'], columns: [{ field: 'teacherName' }] })).toContain('必须是分组字段');
    expect(await bad({ ...BY_DEPART, filters: [{ field: 'grade', op: 'eq', value: 'x'.repeat(500) }] })).toContain('条件值太长');
    expect(await bad({ ...BY_DEPART, orderBy: [{ field: 'records; drop table x' }] })).toContain('只能按报表的列排序');
  });
});

describe('stored reports', () => {
  let id = '';
  const spec: ReportSpec = { ...BY_DEPART, filters: [{ field: 'grade', op: 'eq', param: 'grade' }], params: [{ name: 'grade', label: '等级', dict: 'eval_grade' }] };
  it('saves, generates its menu, runs with parameters, drills to records and exports', async () => {
    expect((await s.post('online/cgreport/design/save', { code: 'Bad Code', name: 'x', spec }, tok.admin)).json().message).toContain('报表编码须以小写字母开头');
    expect((await s.post('online/cgreport/design/save', { code: 'rec_dept', name: 'x', spec: { ...spec, joins: ['nope'] } }, tok.admin)).json().message).toContain('没有关联');
    const saved = (await s.post('online/cgreport/design/save', { code: 'rec_dept', name: '各部门听课等级', spec }, tok.admin)).json();
    expect(saved).toMatchObject({ success: true, result: { code: 'rec_dept' } });
    id = saved.result.id;
    expect((await s.post('online/cgreport/design/save', { code: 'rec_dept', name: 'y', spec }, tok.admin)).json().message).toContain('已存在');
    const heads = (await s.get('online/cgreport/head/list?pageSize=50', tok.admin)).json().result.records;
    expect(heads).toContainEqual(expect.objectContaining({ id, code: 'rec_dept', stored: 1, menu: 0 }));
    const menu = (await s.post(`online/cgreport/design/menu?id=${id}`, {}, tok.admin)).json();
    expect(menu).toMatchObject({ success: true, result: { url: '/online/report/rec_dept' } });
    const admin = await s.login('admin');
    const perms = (await s.get('sys/permission/getUserPermissionByToken', admin)).json().result;
    expect(JSON.stringify(perms.menu)).toContain('/online/report/rec_dept');
    const view = (await s.get('online/report/rec_dept/view', admin)).json().result;
    expect(view).toMatchObject({ name: '各部门听课等级', grouped: true, recordLink: '/supervisor/lectureRecord', chart: { type: 'bar' }, params: [{ name: 'grade' }] });
    expect(view.columns.map((c: { key: string }) => c.key)).toEqual(['teacherDepart_departName', 'grade', 'records']);
    const all = (await s.get('online/report/rec_dept/data', admin)).json().result as Array<Record<string, unknown>>;
    const good = (await s.get(`online/report/rec_dept/data?params=${encodeURIComponent(JSON.stringify({ grade: 'GOOD' }))}`, admin)).json().result as Array<Record<string, unknown>>;
    expect(good.length).toBeGreaterThan(0);
    expect(good.length).toBeLessThan(all.length);
    expect(good.every((x) => x.grade === 'GOOD')).toBe(true);
    const g = good[0]!;
    const drill = (await s.get(`online/report/rec_dept/data?drill=${encodeURIComponent(JSON.stringify({ teacherDepart_departName: g.teacherDepart_departName, grade: g.grade }))}`, admin)).json().result as Array<Record<string, unknown>>;
    expect(drill).toHaveLength(g.records as number);
    expect(drill[0]).toMatchObject({ __id: expect.any(String), recordNo: expect.any(String) });
    const one = (await s.get(`supervisor/lectureRecord/queryById?id=${drill[0]!.__id as string}`, admin)).json().result;
    expect(one.grade).toBe('GOOD');
    const x = await s.get('online/report/rec_dept/exportXls', admin);
    expect(x.headers['content-type']).toContain('spreadsheetml');
    expect(x.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await s.get('online/report/rec_dept/data?params=%7Bbad', admin)).json().message).toBe('报表参数不正确');
  });

  it('applies the data scope of its base entity: a department leader sees their department only', async () => {
    const db = s.running.ctx.db;
    const role = await db.selectFrom('sys_role').select('id').where('role_code', '=', 'leader').executeTakeFirstOrThrow();
    const menuRows = await db.selectFrom('sys_permission').select('id').where('perms', 'like', 'online:report:rec_dept%').execute();
    await db.insertInto('sys_role_permission').values(menuRows.map((m) => ({ id: `t${m.id}`.slice(0, 32), role_id: role.id, permission_id: m.id }))).execute();
    const leader = await s.login('leader');
    const teacher = await s.login('teacher');
    const mine = (await s.get('online/report/rec_dept/data', leader)).json();
    expect(mine.success).toBe(true);
    const sum = (rows: Array<{ records: number }>) => rows.reduce((n, x) => n + x.records, 0);
    const { total } = (await s.get('supervisor/lectureRecord/list?pageSize=1', leader)).json().result;
    expect(sum(mine.result)).toBe(total);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(sum((await s.get('online/report/rec_dept/data', tok.admin)).json().result));
    // Every record the leader's report counts was observed in or given by their department.
    const req = { headers: { 'x-access-token': leader }, query: {}, log: console } as unknown as FastifyRequest;
    (req as { user?: unknown }).user = await authenticate(s.running.ctx, req);
    const org = (req as unknown as { user: { orgCode: string } }).user.orgCode;
    const pairs = await runReport(s.running.ctx, req, { entity: 'sup_lecture_record', columns: ['teacherOrgCode', 'listenerOrgCode'], aggregates: [{ fn: 'count', as: 'n' }] });
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) expect(String(p.teacherOrgCode).startsWith(org) || String(p.listenerOrgCode).startsWith(org)).toBe(true);
    expect((await s.get('online/report/rec_dept/data', teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.get('online/report/rec_dept/exportXls', teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.del(`online/cgreport/design/delete?id=${id}`, teacher)).json()).toMatchObject({ success: false, code: 510 });
  });
});
