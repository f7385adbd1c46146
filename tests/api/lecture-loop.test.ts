import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';

/*
 * The observation loop at the desk (issue 30): scores are refused, never clamped; a submit names every
 * missing index; a form submit notifies the teacher as the submit action does; a return's reason is
 * kept in the record's log and sent to the listener; the detail's data (scores by index, log) is
 * readable exactly where the record is.
 */
const s = fileTestServer();
const who: Who = {};
let leaves: Array<{ id: string; name: string; maxScore: number }> = [];
let lesson: { scheduleId: string; courseTaskId: string; lectureDate: string };

const db = () => s.running.ctx.db;
const call = callsAs(s, who);
const notices = (busId: string) =>
  db()
    .selectFrom('sys_announcement as a')
    .innerJoin('sys_announcement_send as n', 'n.annt_id', 'a.id')
    .select(['n.user_id', 'a.titile', 'a.msg_content'])
    .where('a.bus_id', '=', busId)
    .execute();

beforeAll(async () => {
  for (const u of ['supervisor', 'secretary', 'teacher']) who[u] = await tokenFor(s, u, ROLE_PERMS[u]!);
  const t = await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
  const rows = (await call('get', `/supervisor/courseSchedule/lessons?termId=${t.id}&week=3&teacherId=${who.teacher!.id}`, 'supervisor')).result as any[];
  const l = rows[0];
  await db().deleteFrom('sup_lecture_record').where('listener_id', '=', who.supervisor!.id).where('course_task_id', '=', l.courseTaskId).where('lecture_date', '=', l.lectureDate).execute();
  lesson = { scheduleId: l.scheduleId, courseTaskId: l.courseTaskId, lectureDate: l.lectureDate };
  const form = (await call('get', `/supervisor/lectureRecord/form?courseTaskId=${l.courseTaskId}`, 'supervisor')).result;
  leaves = form.indexes.filter((i: any) => form.leafIds.includes(i.id));
  expect(leaves.length).toBeGreaterThan(3);
}, 120_000);

describe('scores are refused, not clamped', () => {
  const add = (score: unknown, status?: string) =>
    call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, status, indexScoreList: [{ indexId: leaves[0]!.id, score }] });
  const stored = async () => Number((await db().selectFrom('sup_lecture_record').select(db().fn.countAll().as('n')).where('listener_id', '=', who.supervisor!.id).where('course_task_id', '=', lesson.courseTaskId).where('lecture_date', '=', lesson.lectureDate).executeTakeFirstOrThrow()).n);

  it('refuses a score above the maximum, below 0 or not a number, even in a draft, and stores nothing', async () => {
    const max = leaves[0]!.maxScore;
    const over = await add(max + 1);
    expect(over).toMatchObject({ success: false });
    expect(over.message).toBe(`指标“${leaves[0]!.name}”的得分 ${max + 1} 超过最高分 ${max}`);
    expect((await add(-1)).message).toBe(`指标“${leaves[0]!.name}”的得分不能小于 0`);
    expect((await add('abc')).message).toBe(`指标“${leaves[0]!.name}”的得分“abc”不是数字`);
    expect((await add('3abc', 'SUBMITTED')).message).toContain('“3abc”不是数字');
    expect(await stored()).toBe(0);
  });

  it('a submit with missing indexes names every one of them at once', async () => {
    const scored = leaves.slice(0, 3).map((l) => ({ indexId: l.id, score: l.maxScore }));
    const r = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, status: 'SUBMITTED', indexScoreList: scored });
    expect(r.success).toBe(false);
    const missing = leaves.slice(3);
    expect(r.message).toBe(`有 ${missing.length} 项指标尚未评分：${missing.map((l) => `“${l.name}”`).join('、')}`);
    expect(await stored()).toBe(0);
  });
});

describe('draft, submit, return', () => {
  let id = '';

  it('saves a draft without notifying anyone; submitting it from the form notifies the teacher once', async () => {
    const draft = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...lesson, indexScoreList: [{ indexId: leaves[0]!.id, score: 1 }] });
    expect(draft.success, draft.message).toBe(true);
    expect(draft.message).toBe('添加成功！');
    id = draft.result.id;
    expect(draft.result.status).toBe('DRAFT');
    expect(await notices(id)).toEqual([]);
    const full = leaves.map((l) => ({ indexId: l.id, score: l.maxScore }));
    const sent = await call('post', '/supervisor/lectureRecord/edit', 'supervisor', { ...draft.result, indexScoreList: full, status: 'SUBMITTED' });
    expect(sent.success, sent.message).toBe(true);
    expect(sent.message).toBe('提交成功！');
    expect(sent.result.status).toBe('SUBMITTED');
    const n = await notices(id);
    expect(n.map((x) => x.user_id)).toEqual([who.teacher!.id]);
    expect(n[0]!.titile).toContain('您有一条新的听课记录');
  });

  it('the detail data: scores by index with their group, the log with who and when; the teacher reads it', async () => {
    const r = await call('get', `/supervisor/lectureRecord/queryById?id=${id}`, 'teacher');
    expect(r.success, r.message).toBe(true);
    expect(r.result.indexScoreList).toHaveLength(leaves.length);
    expect(r.result.indexScoreList.map((x: any) => x.indexName).sort()).toEqual(leaves.map((l) => l.name).sort());
    // In the order of the index tree: each first-level index's items together.
    const groups = r.result.indexScoreList.map((x: any) => x.groupName as string);
    expect(groups.every(Boolean)).toBe(true);
    expect(groups.filter((g: string, i: number) => g !== groups[i - 1])).toEqual([...new Set(groups)]);
    expect(new Set(groups).size).toBeGreaterThan(1);
    const sup = await db().selectFrom('sys_user').select('realname').where('id', '=', who.supervisor!.id).executeTakeFirstOrThrow();
    expect(r.result.logs.map((l: any) => [l.action, l.toStatus, l.operatorName])).toEqual([
      ['CREATE', 'DRAFT', sup.realname],
      ['SUBMIT', 'SUBMITTED', sup.realname],
    ]);
    expect(r.result.logs[0].actionTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('the detail data is readable only in scope', async () => {
    // A record of another teacher, observed by someone else: neither the teacher nor (outside their college) the secretary reads it.
    const other = await db()
      .selectFrom('sup_lecture_record')
      .select('id')
      .where('teacher_id', '<>', who.teacher!.id)
      .where('listener_id', '<>', who.teacher!.id)
      .where('listener_org_code', 'not like', `${who.secretary!.orgCode}%`)
      .where('teacher_org_code', 'not like', `${who.secretary!.orgCode}%`)
      .where('status', '=', 'SUBMITTED')
      .executeTakeFirstOrThrow();
    for (const u of ['teacher', 'secretary']) {
      const r = await call('get', `/supervisor/lectureRecord/queryById?id=${other.id}`, u);
      expect(r.success).toBe(false);
      expect(JSON.stringify(r.result ?? null)).not.toContain('logs');
    }
    expect((await call('get', `/supervisor/lectureRecord/queryById?id=${other.id}`, 'supervisor')).result.logs.length).toBeGreaterThan(0);
  });

  it('a secretary returns a record of their college with a reason: kept in its log, sent to the listener', async () => {
    const rec = await db()
      .selectFrom('sup_lecture_record')
      .select(['id', 'listener_id', 'record_no'])
      .where('listener_org_code', 'like', `${who.secretary!.orgCode}%`)
      .where('listener_id', '<>', who.secretary!.id)
      .where('status', '=', 'SUBMITTED')
      .executeTakeFirstOrThrow();
    const reason = `第二项评分与文字评价不符-${Date.now() % 10000}`;
    const r = await call('post', '/supervisor/lectureRecord/return', 'secretary', { id: rec.id, reason });
    expect(r.success, r.message).toBe(true);
    expect(r.result.status).toBe('RETURNED');
    expect(r.result.returnReason).toBe(reason);
    const last = r.result.logs.at(-1);
    expect(last).toMatchObject({ action: 'RETURN', fromStatus: 'SUBMITTED', toStatus: 'RETURNED', comment: reason });
    const n = (await notices(String(rec.id))).filter((x) => String(x.titile).includes('被退回'));
    expect(n.map((x) => x.user_id)).toEqual([rec.listener_id]);
    expect(n[0]!.msg_content).toContain(reason);
    expect(n[0]!.titile).toContain(String(rec.record_no));
  });

  it('the teacher confirms with an answer, kept in the log', async () => {
    const r = await call('post', `/supervisor/lectureRecord/confirm?id=${id}`, 'teacher', { feedback: '收到，按建议调整' });
    expect(r.success, r.message).toBe(true);
    expect(r.result.teacherFeedback).toBe('收到，按建议调整');
    expect(r.result.logs.at(-1)).toMatchObject({ action: 'CONFIRM', toStatus: 'CONFIRMED', comment: '收到，按建议调整' });
  });
});

describe('the log folds a run of draft saves', () => {
  it('consecutive saves by the same person read as one line (the latest, with the count and the first time); the table keeps every save', async () => {
    const t = await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
    const rows = (await call('get', `/supervisor/courseSchedule/lessons?termId=${t.id}&week=4&teacherId=${who.teacher!.id}`, 'supervisor')).result as any[];
    const l = rows[0];
    await db().deleteFrom('sup_lecture_record').where('listener_id', '=', who.supervisor!.id).where('course_task_id', '=', l.courseTaskId).where('lecture_date', '=', l.lectureDate).execute();
    const one = { scheduleId: l.scheduleId, courseTaskId: l.courseTaskId, lectureDate: l.lectureDate };
    const draft = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { ...one, indexScoreList: [{ indexId: leaves[0]!.id, score: 1 }] });
    expect(draft.success, draft.message).toBe(true);
    // Three autosaves as the phone sends them, one score more each time.
    for (let k = 1; k <= 3; k++) {
      const r = await call('post', '/supervisor/lectureRecord/edit', 'supervisor', { ...one, id: draft.result.id, indexScoreList: leaves.slice(0, k + 1).map((x) => ({ indexId: x.id, score: 1 })) });
      expect(r.success, r.message).toBe(true);
    }
    const read = await call('get', `/supervisor/lectureRecord/queryById?id=${draft.result.id}`, 'supervisor');
    const logs = read.result.logs as any[];
    expect(logs.map((x) => x.action)).toEqual(['CREATE', 'SAVE']);
    expect(logs[1].note).toMatch(/^连续保存 3 次，首次 \d{2}:\d{2}:\d{2}$/);
    const saves = await db().selectFrom('sup_record_log').select(['id', 'action_time']).where('record_id', '=', draft.result.id).where('action', '=', 'SAVE').orderBy('seq').execute();
    expect(saves).toHaveLength(3);
    // The line shown is the latest save.
    expect(logs[1].id).toBe(saves[2]!.id);
    // A submit after them is a line of its own; the run of saves stays one line.
    const full = leaves.map((x) => ({ indexId: x.id, score: x.maxScore }));
    const sent = await call('post', '/supervisor/lectureRecord/edit', 'supervisor', { ...one, id: draft.result.id, indexScoreList: full, status: 'SUBMITTED' });
    expect(sent.success, sent.message).toBe(true);
    expect((sent.result.logs as any[]).map((x) => x.action)).toEqual(['CREATE', 'SAVE', 'SUBMIT']);
  });
});
