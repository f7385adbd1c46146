import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';

/*
 * The teacher answers a record (issue 30): a reply, a review (申诉/复核) decided by the listener or the
 * quality office, who uphold or amend it (kept in the record's log, notified); one improvement task per
 * record, the observed teacher responsible, their own task screen; a college leader sees only their
 * college's tasks.
 */
const s = fileTestServer();
const who: Who = {};
let leaves: Array<{ id: string; name: string; maxScore: number }> = [];
let recordId = '';

const db = () => s.running.ctx.db;
const call = callsAs(s, who);
const notices = (busId: string) =>
  db()
    .selectFrom('sys_announcement as a')
    .innerJoin('sys_announcement_send as n', 'n.annt_id', 'a.id')
    .select(['n.user_id', 'a.titile', 'a.msg_content', 'a.sender', 'a.bus_type'])
    .where('a.bus_id', '=', busId)
    .orderBy('a.create_time')
    .execute();
/** The seeded 校级督导 (quality office) has every button of 听课记录, the review and the teacher's ones included. */
const QUALITY = [...ROLE_PERMS.supervisor!, 'supervisor:lectureRecord:review', 'supervisor:lectureRecord:feedback'];

beforeAll(async () => {
  who.quality = await tokenFor(s, 'supervisor', QUALITY);
  for (const u of ['secretary', 'teacher', 'leader']) who[u] = await tokenFor(s, u, ROLE_PERMS[u]!);
  who.teacher2 = await tokenFor(s, 'teacher2', ROLE_PERMS.teacher!);
  const t = await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
  const rows = (await call('get', `/supervisor/courseSchedule/lessons?termId=${t.id}&week=5&teacherId=${who.teacher!.id}`, 'quality')).result as any[];
  const l = rows[0];
  await db().deleteFrom('sup_lecture_record').where('listener_id', '=', who.secretary!.id).where('course_task_id', '=', l.courseTaskId).where('lecture_date', '=', l.lectureDate).execute();
  const form = (await call('get', `/supervisor/lectureRecord/form?courseTaskId=${l.courseTaskId}`, 'quality')).result;
  leaves = form.indexes.filter((i: any) => form.leafIds.includes(i.id));
  // The secretary observes the teacher and submits (the secretary has no review button: a plain listener).
  const r = await call('post', '/supervisor/lectureRecord/add', 'secretary', {
    scheduleId: l.scheduleId, courseTaskId: l.courseTaskId, lectureDate: l.lectureDate, status: 'SUBMITTED', problems: '板书不清', needImprove: 1,
    indexScoreList: leaves.map((x) => ({ indexId: x.id, score: x.maxScore })),
  });
  expect(r.success, r.message).toBe(true);
  recordId = r.result.id;
}, 120_000);

describe('the teacher replies', () => {
  it('only the observed teacher replies; the reply is logged and sent to the listener', async () => {
    expect((await call('post', '/supervisor/lectureRecord/reply', 'teacher', { id: recordId, content: ' ' })).message).toBe('请填写回复内容');
    const other = await call('post', '/supervisor/lectureRecord/reply', 'quality', { id: recordId, content: '我来回复' });
    expect(other.success).toBe(false);
    expect(other.message).toBe('只有被听课教师本人可以回复');
    const r = await call('post', '/supervisor/lectureRecord/reply', 'teacher', { id: recordId, content: '感谢指导，下次板书分区' });
    expect(r.success, r.message).toBe(true);
    expect(r.result.status).toBe('SUBMITTED');
    expect(r.result.logs.at(-1)).toMatchObject({ action: 'REPLY', comment: '感谢指导，下次板书分区' });
    const n = (await notices(recordId)).filter((x) => String(x.titile).includes('教师回复'));
    expect(n.map((x) => x.user_id)).toEqual([who.secretary!.id]);
  });
});

describe('a review (申诉/复核)', () => {
  it('only the observed teacher asks, with a reason', async () => {
    expect((await call('post', '/supervisor/lectureRecord/appeal', 'teacher', { id: recordId })).message).toBe('请填写申请复核的理由');
    const q = await call('post', '/supervisor/lectureRecord/appeal', 'quality', { id: recordId, reason: 'x' });
    expect(q.message).toBe('只有被听课教师本人可以申请复核');
    // Without the teacher's button the route itself is refused.
    expect((await call('post', '/supervisor/lectureRecord/appeal', 'secretary', { id: recordId, reason: 'x' })).success).toBe(false);
    // Another teacher does not even see the record.
    expect((await call('post', '/supervisor/lectureRecord/appeal', 'teacher2', { id: recordId, reason: 'x' })).success).toBe(false);
    expect((await db().selectFrom('sup_lecture_record').select('status').where('id', '=', recordId).executeTakeFirstOrThrow()).status).toBe('SUBMITTED');
  });

  it('a review cannot be decided before it is asked', async () => {
    const r = await call('post', '/supervisor/lectureRecord/review', 'quality', { id: recordId, decision: 'UPHOLD', opinion: '维持' });
    expect(r.message).toBe('该听课记录不在复核中');
  });

  it('the teacher asks once: the listener and the quality office are told; a second ask is refused while it is open', async () => {
    const r = await call('post', '/supervisor/lectureRecord/appeal', 'teacher', { id: recordId, reason: '第三项评分与课堂实际不符' });
    expect(r.success, r.message).toBe(true);
    expect(r.result.status).toBe('REVIEWING');
    expect(r.result.logs.at(-1)).toMatchObject({ action: 'APPEAL', fromStatus: 'SUBMITTED', toStatus: 'REVIEWING', comment: '第三项评分与课堂实际不符' });
    const n = (await notices(recordId)).filter((x) => String(x.titile).includes('申请复核'));
    const to = n.map((x) => x.user_id);
    expect(to).toContain(who.secretary!.id);
    expect(to).toContain(who.quality!.id);
    expect(to).not.toContain(who.teacher!.id);
    expect(n[0]!.msg_content).toContain('第三项评分与课堂实际不符');
    const again = await call('post', '/supervisor/lectureRecord/appeal', 'teacher', { id: recordId, reason: '再次申请' });
    expect(again.success).toBe(false);
    expect(again.message).toBe('该听课记录正在复核中，请等待复核结果');
    // A record under review is neither confirmed nor returned.
    expect((await call('post', `/supervisor/lectureRecord/confirm?id=${recordId}`, 'teacher', {})).success).toBe(false);
  });

  it('only the listener or the quality office decides; the teacher and a department leader are refused', async () => {
    expect((await call('post', '/supervisor/lectureRecord/review', 'teacher', { id: recordId, decision: 'UPHOLD', opinion: '维持' })).success).toBe(false);
    const leader = await call('post', '/supervisor/lectureRecord/review', 'leader', { id: recordId, decision: 'UPHOLD', opinion: '维持' });
    expect(leader.success).toBe(false);
    expect(leader.message).toBe('只有听课人或质量办可以复核该听课记录');
    expect((await call('post', '/supervisor/lectureRecord/review', 'quality', { id: recordId, decision: 'MAYBE', opinion: '?' })).message).toBe('请选择复核结论：维持或修改');
    expect((await call('post', '/supervisor/lectureRecord/review', 'quality', { id: recordId, decision: 'UPHOLD', opinion: '' })).message).toBe('请填写复核意见');
    // An amendment's scores are checked like a submit's.
    const bad = await call('post', '/supervisor/lectureRecord/review', 'quality', {
      id: recordId, decision: 'AMEND', opinion: '改', indexScoreList: leaves.map((x) => ({ indexId: x.id, score: x.maxScore + 1 })),
    });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('超过最高分');
    expect((await db().selectFrom('sup_lecture_record').select('status').where('id', '=', recordId).executeTakeFirstOrThrow()).status).toBe('REVIEWING');
  });

  it('the listener upholds: the record goes back, the opinion is logged, the teacher is told', async () => {
    const r = await call('post', '/supervisor/lectureRecord/review', 'secretary', { id: recordId, decision: 'UPHOLD', opinion: '评分依据充分，维持原评价' });
    expect(r.success, r.message).toBe(true);
    expect(r.result.status).toBe('SUBMITTED');
    expect(r.result.logs.at(-1)).toMatchObject({ action: 'UPHOLD', fromStatus: 'REVIEWING', toStatus: 'SUBMITTED', comment: '评分依据充分，维持原评价' });
    const n = (await notices(recordId)).filter((x) => String(x.titile).includes('复核结果'));
    expect(n.map((x) => x.user_id)).toEqual([who.teacher!.id]);
  });

  it('once decided the teacher may ask again; the quality office amends scores and comments, both texts kept in the log', async () => {
    const before = await call('get', `/supervisor/lectureRecord/queryById?id=${recordId}`, 'quality');
    expect((await call('post', '/supervisor/lectureRecord/appeal', 'teacher', { id: recordId, reason: '请再次核实课堂互动评分' })).success).toBe(true);
    const scores = leaves.map((x, i) => ({ indexId: x.id, score: i === 0 ? 0 : x.maxScore }));
    const r = await call('post', '/supervisor/lectureRecord/review', 'quality', {
      id: recordId, decision: 'AMEND', opinion: '经核实调整第一项', indexScoreList: scores, problems: '板书分区不清，互动偏少',
    });
    expect(r.success, r.message).toBe(true);
    const total = Math.round(scores.reduce((a, b) => a + b.score, 0) * 100) / 100;
    expect(r.result.totalScore).toBe(total);
    expect(r.result.totalScore).toBe(before.result.totalScore - leaves[0]!.maxScore);
    expect(r.result.problems).toBe('板书分区不清，互动偏少');
    expect(r.result.indexScoreList.find((x: any) => x.indexId === leaves[0]!.id).score).toBe(0);
    const logs = r.result.logs.map((l: any) => [l.action, l.comment]);
    expect(logs.at(-2)).toEqual(['APPEAL', '请再次核实课堂互动评分']);
    expect(logs.at(-1)[0]).toBe('AMEND');
    expect(logs.at(-1)[1]).toContain('经核实调整第一项');
    expect(logs.at(-1)[1]).toContain(`总分 ${before.result.totalScore} → ${total}`);
    expect(logs.at(-1)[1]).toContain('修改了存在问题');
    const n = (await notices(recordId)).filter((x) => String(x.titile).includes('已修改评价'));
    expect(n.map((x) => x.user_id).sort()).toEqual([who.teacher!.id, who.secretary!.id].sort());
    // The index-score rows (statistics read them) follow the amendment.
    const row = await db().selectFrom('sup_index_score').select('score').where('record_id', '=', recordId).where('index_id', '=', leaves[0]!.id).executeTakeFirstOrThrow();
    expect(Number(row.score)).toBe(0);
  });
});

describe('notices people can act on', () => {
  it("a record's notice opens that record and names its sender by real name", async () => {
    const rows = await db().selectFrom('sys_announcement').select(['id', 'open_type', 'open_page', 'sender']).where('bus_id', '=', recordId).execute();
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) expect([r.open_type, r.open_page]).toEqual(['url', `/supervisor/lectureRecord?open=${recordId}`]);
    const list = await call('get', '/sys/annountCement/listByUser?pageSize=50', 'teacher');
    expect(list.success, list.message).toBe(true);
    const mine = [...list.result.anntMsgList, ...list.result.sysMsgList].filter((n: any) => n.busId === recordId);
    expect(mine.length).toBeGreaterThan(0);
    const submitted = mine.find((n: any) => String(n.titile).includes('新的听课记录'));
    const sec = await db().selectFrom('sys_user').select('realname').where('id', '=', who.secretary!.id).executeTakeFirstOrThrow();
    expect(submitted).toMatchObject({ sender: 'secretary', senderName: sec.realname, openType: 'url', openPage: `/supervisor/lectureRecord?open=${recordId}`, busType: 'lecture_record' });
  });
});

describe('the timetable starts a record from a lesson', () => {
  it('the record form is pre-filled from a lesson on its date; a date without that lesson is refused', async () => {
    const rec = await db().selectFrom('sup_lecture_record').select(['schedule_id', 'lecture_date', 'course_task_id', 'course_name']).where('id', '=', recordId).executeTakeFirstOrThrow();
    const date = String(rec.lecture_date).slice(0, 10);
    const r = await call('get', `/supervisor/lectureRecord/prefill?scheduleId=${rec.schedule_id}&lectureDate=${date}`, 'quality');
    expect(r.success, r.message).toBe(true);
    expect(r.result).toMatchObject({ courseTaskId: rec.course_task_id, scheduleId: rec.schedule_id, lectureDate: date, courseName: rec.course_name });
    const next = new Date(`${date}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const wrong = await call('get', `/supervisor/lectureRecord/prefill?scheduleId=${rec.schedule_id}&lectureDate=${next.toISOString().slice(0, 10)}`, 'quality');
    expect(wrong.success).toBe(false);
    expect(wrong.message).toBe('该课次在所选日期没有上课安排');
  });
});

describe('statistics say what they cover', () => {
  it('a drill-down answers with the filter it applied: the (current) term, the teacher, the grade', async () => {
    const term = await db().selectFrom('sup_term').select(['name']).where('is_current', '=', true).executeTakeFirstOrThrow();
    const t = await db().selectFrom('sys_user').select('realname').where('id', '=', who.teacher!.id).executeTakeFirstOrThrow();
    const r = await call('get', `/supervisor/report/detail?teacherId=${who.teacher!.id}&side=teacher&grade=GOOD`, 'quality');
    expect(r.success, r.message).toBe(true);
    expect(r.result.filters).toEqual([
      { label: '学期', text: term.name },
      { label: '授课教师', text: t.realname },
      { label: '等级', text: '良好' },
    ]);
    expect(r.result.records.every((x: any) => x.grade === 'GOOD')).toBe(true);
  });
});

describe('improvement from a record', () => {
  it('the prefill names the observed teacher responsible', async () => {
    const p = await call('get', `/improvement/task/prefill?recordId=${recordId}`, 'secretary');
    expect(p.success, p.message).toBe(true);
    expect(p.result.respPersonId).toBe(who.teacher!.id);
    expect(p.result.sourceId).toBe(recordId);
  });

  it('a second task for the same record is refused (also after reloading the prefill link)', async () => {
    const p = (await call('get', `/improvement/task/prefill?recordId=${recordId}`, 'secretary')).result;
    const first = await call('post', '/improvement/task/add', 'secretary', p);
    expect(first.success, first.message).toBe(true);
    const second = await call('post', '/improvement/task/add', 'secretary', p);
    expect(second.success).toBe(false);
    expect(second.message).toBe(`该听课记录已发起整改任务（${first.result.taskNo}），不能重复发起`);
    const again = await call('get', `/improvement/task/prefill?recordId=${recordId}`, 'secretary');
    expect(again.success).toBe(false);
    expect(again.message).toContain('不能重复发起');
    const n = await db().selectFrom('imp_task').select(db().fn.countAll().as('n')).where('source_id', '=', recordId).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
    // Once issued, the responsible teacher finds it in 我的整改任务 (and only their own tasks there).
    expect((await call('post', '/improvement/task/transition?action=ISSUE', 'secretary', { id: first.result.id })).success).toBe(true);
    who.teacherTasks = await tokenFor(s, 'teacher', ['improvement:task:list', 'improvement:task:queryById', 'improvement:task:submitVerify']);
    const mine = await call('get', '/improvement/task/mine?pageSize=100', 'teacherTasks');
    expect(mine.success, mine.message).toBe(true);
    expect(mine.result.records.map((r: any) => r.id)).toContain(first.result.id);
    expect(mine.result.records.every((r: any) => r.respPersonId === who.teacher!.id)).toBe(true);
    // Asking for another person's tasks still gives one's own.
    const forged = await call('get', `/improvement/task/mine?respPersonId=${who.secretary!.id}`, 'teacherTasks');
    expect(forged.result.records.every((r: any) => r.respPersonId === who.teacher!.id)).toBe(true);
    // The issue notice leads the responsible teacher to their own screen.
    const issued = await db().selectFrom('sys_announcement').select(['open_page']).where('bus_id', '=', first.result.id).where('titile', 'like', '%下发%').executeTakeFirstOrThrow();
    expect(issued.open_page).toBe(`/improvement/myTask?open=${first.result.id}`);
    const accept = await call('post', '/improvement/task/transition?action=ACCEPT', 'teacherTasks', { id: first.result.id });
    expect(accept.success, accept.message).toBe(true);
    expect(accept.result.status).toBe('ACCEPTED');
  });

  it('a cancelled task does not block a new one', async () => {
    const t = await db().selectFrom('imp_task').select(['id']).where('source_id', '=', recordId).executeTakeFirstOrThrow();
    await db().updateTable('imp_task').set({ status: 'CANCELLED' }).where('id', '=', String(t.id)).execute();
    const p = await call('get', `/improvement/task/prefill?recordId=${recordId}`, 'secretary');
    expect(p.success, p.message).toBe(true);
  });

  it("a college leader sees only their college's tasks", async () => {
    const all = await db().selectFrom('imp_task').select(['id', 'resp_org_code', 'status']).where('status', '<>', 'DRAFT').execute();
    const outside = all.filter((t) => !String(t.resp_org_code ?? '').startsWith(who.leader!.orgCode));
    expect(outside.length).toBeGreaterThan(0);
    const r = await call('get', '/improvement/task/list?pageSize=500', 'leader');
    expect(r.success, r.message).toBe(true);
    const seen = r.result.records as Array<{ id: string; respOrgCode: string }>;
    expect(seen.length).toBeGreaterThan(0);
    for (const t of seen) expect(String(t.respOrgCode)).toMatch(new RegExp(`^${who.leader!.orgCode}`));
    const one = await call('get', `/improvement/task/queryById?id=${outside[0]!.id}`, 'leader');
    expect(one.success).toBe(false);
  });
});
