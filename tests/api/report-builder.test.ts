import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authenticate } from '../../server/http/guard.js';
import { runReport, type ReportSpec } from '../../server/online/report-builder.js';

/** 报表配置's query builder (issue 31): a structure compiled over allow-listed entities and columns, on the data scope. */
let s: TestServer;
const tok: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  for (const u of ['admin', 'secretary', 'teacher']) tok[u] = await s.login(u);
});
afterAll(() => s?.close());

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
    expect(rows[0]).toEqual({ teacherOrgCode: expect.any(String), grade: expect.anything(), records: expect.any(Number), avgScore: expect.anything() });
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
    expect(await preview({ ...PER_DEPT_GRADE, groupBy: ['grade; drop table sys_user'] })).toMatchObject({ success: false, message: expect.stringContaining('/groupBy/0：实体“sup_lecture_record”没有字段') });
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
  });
});
