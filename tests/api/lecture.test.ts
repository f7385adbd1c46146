import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';

const s = fileTestServer();
const who: Who = {};
let termId = '';
let leaves: Array<{ id: string; name: string; maxScore: number }> = [];
/** A lesson of the demo teacher in the current term, in a week that has passed. */
let lesson: { scheduleId: string; courseTaskId: string; lectureDate: string };

const db = () => s.running.ctx.db;
const api = (path: string) => `/jeecg-boot${path}`;
const call = callsAs(s, who);
const full = () => leaves.map((l) => ({ indexId: l.id, score: l.maxScore - 1 }));

beforeAll(async () => {
  for (const u of ['supervisor', 'secretary', 'teacher', 'leader']) who[u] = await tokenFor(s, u, ROLE_PERMS[u]!);
  const t = await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
  termId = String(t.id);
  // A lesson of the demo teacher the supervisor has not observed yet, in week 3.
  const rows = (await call('get', `/supervisor/courseSchedule/lessons?termId=${termId}&week=3&teacherId=${who.teacher!.id}`, 'supervisor')).result as any[];
  expect(rows.length).toBeGreaterThan(0);
  const l = rows[0];
  await db().deleteFrom('sup_lecture_record').where('listener_id', '=', who.supervisor!.id).where('course_task_id', '=', l.courseTaskId).where('lecture_date', '=', l.lectureDate).execute();
  lesson = { scheduleId: l.scheduleId, courseTaskId: l.courseTaskId, lectureDate: l.lectureDate };
  const form = (await call('get', `/supervisor/lectureRecord/form?courseTaskId=${l.courseTaskId}`, 'supervisor')).result;
  leaves = form.indexes.filter((i: any) => form.leafIds.includes(i.id));
}, 120_000);

describe('lecture records', () => {
  let recordId = '';

  it('refuses a score over its maximum, naming the index', async () => {
    const scores = full();
    scores[0]!.score = leaves[0]!.maxScore + 1;
    const r = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, indexScoreList: scores, status: 'SUBMITTED' });
    expect(r.success).toBe(false);
    expect(r.message).toContain(leaves[0]!.name);
    expect(r.message).toContain('超过最高分');
  });

  it('refuses to submit with a missing index, naming it', async () => {
    const r = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, indexScoreList: full().slice(1), status: 'SUBMITTED' });
    expect(r.success).toBe(false);
    expect(r.message).toContain(`指标“${leaves[0]!.name}”尚未评分`);
  });

  it('computes total and grade on the server, ignoring a tampered total', async () => {
    const before = (await call('get', `/supervisor/report/frequency?termId=${termId}`, 'supervisor')).result.find((x: any) => x.userId === who.supervisor!.id);
    const r = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, totalScore: 100, grade: 'EXCELLENT', indexScoreList: full(), status: 'SUBMITTED', strengths: '条理清晰' });
    expect(r.success, r.message).toBe(true);
    const expected = leaves.reduce((a, l) => a + l.maxScore - 1, 0);
    recordId = r.result.id;
    const got = (await call('get', `/supervisor/lectureRecord/queryById?id=${recordId}`, 'supervisor')).result;
    expect(got.totalScore).toBe(expected);
    expect(got.grade).toBe(expected >= 90 ? 'EXCELLENT' : expected >= 80 ? 'GOOD' : 'MEDIUM');
    expect(got.status).toBe('SUBMITTED');
    expect(got.teacherId).toBe(who.teacher!.id);
    // Numbered as the seeded records are: TK + the term's code without dashes + the term's 5-digit sequence.
    const term = await db().selectFrom('sup_term').select('code').where('id', '=', termId).executeTakeFirstOrThrow();
    const prefix = `TK${String(term.code).replace(/-/g, '')}`;
    const counter = await db().selectFrom('sup_counter').select('value').where('name', '=', prefix).executeTakeFirstOrThrow();
    expect(got.recordNo).toBe(`${prefix}${String(counter.value).padStart(5, '0')}`);
    const seeded = await db().selectFrom('sup_lecture_record').select('record_no').where('term_id', '=', termId).where('id', '<>', recordId).executeTakeFirstOrThrow();
    expect(String(seeded.record_no)).toMatch(new RegExp(`^${prefix}\\d{5}$`));
    expect(got.indexScoreList).toHaveLength(leaves.length);
    const after = (await call('get', `/supervisor/report/frequency?termId=${termId}`, 'supervisor')).result.find((x: any) => x.userId === who.supervisor!.id);
    expect(after.actual).toBe(before.actual + 1);
    // The observed teacher was notified.
    const note = await db().selectFrom('sys_announcement as a').innerJoin('sys_announcement_send as s', 's.annt_id', 'a.id').select('s.user_id').where('a.bus_id', '=', recordId).execute();
    expect(note.map((n) => n.user_id)).toEqual([who.teacher!.id]);
  });

  it('refuses a duplicate (same listener, lesson and date)', async () => {
    const r = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, indexScoreList: full() });
    expect(r.success).toBe(false);
    expect(r.message).toContain('不能重复录入');
  });

  it('lets only the observed teacher confirm, once', async () => {
    expect((await call('post', `/supervisor/lectureRecord/confirm?id=${recordId}`, 'leader')).success).toBe(false);
    const ok = await call('post', `/supervisor/lectureRecord/confirm?id=${recordId}`, 'teacher', { feedback: '收到，谢谢指导' });
    expect(ok.success, ok.message).toBe(true);
    expect(ok.result.status).toBe('CONFIRMED');
    expect((await call('post', `/supervisor/lectureRecord/confirm?id=${recordId}`, 'teacher')).message).toContain('已确认');
  });

  it('a return needs a reason; the university side returns the record and the listener resubmits', async () => {
    expect((await call('post', `/supervisor/lectureRecord/return?id=${recordId}`, 'secretary', {})).message).toContain('退回原因');
    // The record was written by the university's supervisor: the college's secretary may not overturn it (issue 27 rule 3).
    const dept = await call('post', `/supervisor/lectureRecord/return?id=${recordId}`, 'secretary', { reason: '请补充问题描述' });
    expect(dept).toMatchObject({ success: false });
    expect(dept.message).toContain('本部门不能退回');
    const r = await call('post', `/supervisor/lectureRecord/return?id=${recordId}`, 'supervisor', { reason: '请补充问题描述' });
    expect(r.success, r.message).toBe(true);
    expect(r.result.status).toBe('RETURNED');
    const again = await call('post', `/supervisor/lectureRecord/submit?id=${recordId}`, 'supervisor');
    expect(again.result.status).toBe('SUBMITTED');
  });

  it('scopes records by role', async () => {
    const count = async (where: (q: any) => any) => Number((await where(db().selectFrom('sup_lecture_record as t').select(sql<string>`count(*)`.as('n')).where('t.term_id', '=', termId)).executeTakeFirst()).n);
    const listTotal = async (u: string) => (await call('get', `/supervisor/lectureRecord/list?termId=${termId}&pageSize=1`, u)).result.total;
    const t = who.teacher!.id;
    expect(await listTotal('teacher')).toBe(await count((q) => q.where((eb: any) => eb.or([eb('t.listener_id', '=', t), eb.and([eb('t.teacher_id', '=', t), eb('t.status', '<>', 'DRAFT')])]))));
    const org = who.secretary!.orgCode;
    expect(await listTotal('secretary')).toBe(
      await count((q) => q.where((eb: any) => eb.or([eb('t.listener_id', '=', who.secretary!.id), eb('t.teacher_id', '=', who.secretary!.id),
        eb.and([eb('t.status', '<>', 'DRAFT'), eb.or([eb('t.listener_org_code', 'like', `${org}%`), eb('t.teacher_org_code', 'like', `${org}%`)])])]))),
    );
    expect(await listTotal('supervisor')).toBe(await count((q) => q.where((eb: any) => eb.or([eb('t.listener_id', '=', who.supervisor!.id), eb('t.status', '<>', 'DRAFT')]))));
    // A record outside the teacher's scope is not readable by id.
    const other = await db().selectFrom('sup_lecture_record').select('id').where('term_id', '=', termId).where('listener_id', '<>', t).where('teacher_id', '<>', t).executeTakeFirstOrThrow();
    expect((await call('get', `/supervisor/lectureRecord/queryById?id=${other.id}`, 'teacher')).success).toBe(false);
  });
});

describe('reports', () => {
  it('frequency equals counts computed from the records', async () => {
    const rows = (await call('get', `/supervisor/report/frequency?termId=${termId}`, 'supervisor')).result as any[];
    expect(rows.length).toBeGreaterThan(50);
    const counts = await db()
      .selectFrom('sup_lecture_record')
      .select(['listener_id', sql<string>`count(*)`.as('n')])
      .where('term_id', '=', termId)
      .where('status', 'in', ['SUBMITTED', 'CONFIRMED', 'ARCHIVED'])
      .groupBy('listener_id')
      .execute();
    const byUser = new Map(counts.map((c) => [String(c.listener_id), Number(c.n)]));
    for (const r of rows) {
      expect(r.actual).toBe(byUser.get(r.userId) ?? 0);
      expect(r.rate).toBeCloseTo(Math.min(r.actual, r.required) / r.required, 4);
      if (r.actual < r.required) expect(r.met).toBe(false);
    }
  });

  it('performance equals averages computed from the records', async () => {
    const rows = (await call('get', `/supervisor/report/performance?termId=${termId}`, 'supervisor')).result as any[];
    const mine = rows.find((r) => r.teacherId === who.teacher!.id);
    const recs = await db().selectFrom('sup_lecture_record').select('total_score').where('term_id', '=', termId).where('teacher_id', '=', who.teacher!.id)
      .where('status', 'in', ['SUBMITTED', 'CONFIRMED', 'ARCHIVED']).execute();
    const scores = recs.map((r) => Number(r.total_score));
    expect(mine.count).toBe(scores.length);
    // avg is rounded to 2 decimals on the server
    expect(Math.abs(mine.avg - scores.reduce((a, b) => a + b, 0) / scores.length)).toBeLessThanOrEqual(0.0051);
    expect(mine.max).toBe(Math.max(...scores));
    expect(mine.min).toBe(Math.min(...scores));
  });

  it('limits a department user to their department', async () => {
    const rows = (await call('get', `/supervisor/report/frequency?termId=${termId}`, 'secretary')).result as any[];
    const ids = rows.map((r) => r.userId);
    const outside = await db().selectFrom('sys_user').select('id').where('id', 'in', ids).where('org_code', 'not like', `${who.secretary!.orgCode}%`).execute();
    expect(ids.length).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    expect((await call('get', `/supervisor/report/frequency?termId=${termId}`, 'teacher')).success).toBe(false);
  });
});

describe('index scores', () => {
  it('lists only the scores of visible records', async () => {
    const r = await call('get', `/supervisor/indexScore/list?termId=${termId}&pageSize=1`, 'teacher');
    expect(r.success, r.message).toBe(true);
    const t = who.teacher!.id;
    const { n } = (await db()
      .selectFrom('sup_index_score as s')
      .innerJoin('sup_lecture_record as r', 'r.id', 's.record_id')
      .select(sql<string>`count(*)`.as('n'))
      .where('s.term_id', '=', termId)
      .where((eb) => eb.or([eb('r.listener_id', '=', t), eb.and([eb('r.teacher_id', '=', t), eb('r.status', '<>', 'DRAFT')])]))
      .executeTakeFirstOrThrow()) as { n: string };
    expect(r.result.total).toBe(Number(n));
  });

  it('names each score\'s record by its number, and its teacher and listener by name', async () => {
    const [row] = (await call('get', `/supervisor/indexScore/list?termId=${termId}&pageSize=1`, 'supervisor')).result.records as any[];
    const rec = await db().selectFrom('sup_lecture_record as r').innerJoin('sys_user as t', 't.id', 'r.teacher_id').innerJoin('sys_user as l', 'l.id', 'r.listener_id')
      .select(['r.record_no', 't.realname as teacher', 'l.realname as listener']).where('r.id', '=', row.recordId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ recordNo: rec.record_no, teacherId_dictText: rec.teacher, listenerId_dictText: rec.listener });
  });
});

describe('report export', () => {
  it('exports the frequency report as .xlsx with the same rows', async () => {
    const r = await s.get(api(`/supervisor/report/frequency/exportXls?termId=${termId}`), who.supervisor!.token);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    const rows = (await call('get', `/supervisor/report/frequency?termId=${termId}`, 'supervisor')).result as any[];
    expect(wb.worksheets[0]!.rowCount).toBe(rows.length + 1);
    expect(wb.worksheets[0]!.getRow(1).getCell(3).value).toBe('应听');
  });
});
