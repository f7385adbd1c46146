import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';

const s = fileTestServer();
const who: Who = {};
const call = callsAs(s, who);
const act = (kind: 'task' | 'subtask', user: string, id: string, action: string, comment = '') => call('post', `/improvement/${kind}/transition`, user, { id, action, comment });

beforeAll(async () => {
  for (const u of ['supervisor', 'secretary', 'teacher', 'leader']) who[u] = await tokenFor(s, u, ROLE_PERMS[u]!);
}, 120_000);

describe('improvement tasks', () => {
  it('walks a task raised from a flagged record to closure, refusing illegal transitions', async () => {
    const db = s.running.ctx.db;
    const rec = await db.selectFrom('sup_lecture_record').select('id').where('teacher_id', '=', who.teacher!.id).where('status', 'in', ['SUBMITTED', 'CONFIRMED']).executeTakeFirstOrThrow();
    const pre = await call('get', `/improvement/task/prefill?recordId=${rec.id}`, 'leader');
    expect(pre.success, pre.message).toBe(true);
    expect(pre.result.respDepartId).toBeTruthy();
    // The observed teacher is named responsible (issue 30); this walk gives the task to the college instead.
    expect(pre.result.respPersonId).toBe(who.teacher!.id);
    const add = await call('post', '/improvement/task/add', 'leader', { ...pre.result, respPersonId: null });
    expect(add.success, add.message).toBe(true);
    const id = add.result.id as string;
    expect(add.result.status).toBe('DRAFT');
    expect(add.result.respOrgCode).toBe(who.secretary!.orgCode);

    // Only the issuer issues; nobody accepts before it is issued; only the responsible department accepts.
    expect((await act('task', 'secretary', id, 'ISSUE')).success).toBe(false);
    expect((await act('task', 'leader', id, 'VERIFY')).message).toBe('当前状态为“待下发”，不能验收');
    expect((await act('task', 'leader', id, 'ISSUE')).result.status).toBe('ISSUED');
    expect((await act('task', 'supervisor', id, 'ACCEPT')).message).toBe('只有责任人可以签收');
    expect((await act('task', 'secretary', id, 'ACCEPT')).result.status).toBe('ACCEPTED');
    expect((await act('task', 'secretary', id, 'VERIFY')).message).toContain('不能验收');

    // Split: the secretary assigns a subtask to the observed teacher.
    const sub = await call('post', '/improvement/subtask/add', 'secretary', { taskId: id, title: '改进课堂互动', assigneeId: who.teacher!.id, deadline: pre.result.deadline });
    expect(sub.success, sub.message).toBe(true);
    const sid = sub.result.id as string;
    expect((await call('get', `/improvement/task/queryById?id=${id}`, 'leader')).result.status).toBe('IN_PROGRESS');
    expect((await act('task', 'secretary', id, 'SUBMIT')).message).toContain('子任务未验收');
    expect((await act('subtask', 'secretary', sid, 'ISSUE')).result.status).toBe('ISSUED');
    expect((await act('subtask', 'leader', sid, 'ACCEPT')).message).toBe('只有子任务负责人可以签收');
    expect((await act('subtask', 'teacher', sid, 'ACCEPT')).result.status).toBe('ACCEPTED');
    expect((await act('subtask', 'teacher', sid, 'VERIFY')).message).toContain('不能验收');
    expect((await act('subtask', 'teacher', sid, 'SUBMIT', '已调整教学设计')).result.status).toBe('SUBMITTED');
    expect((await act('subtask', 'teacher', sid, 'VERIFY')).message).toBe('只有分派人可以验收');
    expect((await act('subtask', 'secretary', sid, 'VERIFY', '通过')).result.status).toBe('VERIFIED');

    expect((await act('task', 'secretary', id, 'SUBMIT', '整改完成')).result.status).toBe('SUBMITTED');
    expect((await act('task', 'leader', id, 'REJECT')).message).toContain('退回原因');
    expect((await act('task', 'leader', id, 'REJECT', '佐证不足')).result.status).toBe('REJECTED');
    expect((await act('task', 'secretary', id, 'SUBMIT', '补充佐证')).result.status).toBe('SUBMITTED');
    expect((await act('task', 'leader', id, 'VERIFY', '整改到位')).result.status).toBe('VERIFIED');
    expect((await act('task', 'leader', id, 'CANCEL')).success).toBe(false);
    expect((await act('task', 'leader', id, 'CLOSE')).result.status).toBe('CLOSED');
    expect((await act('task', 'leader', id, 'BOGUS')).message).toContain('不支持的操作');
    // The teacher sees the subtask; of tasks (their 我的整改任务 grants the task list), only their own — not the department's.
    expect((await call('get', '/improvement/subtask/list?pageSize=50', 'teacher')).result.records.map((r: any) => r.id)).toContain(sid);
    const theirs = await call('get', '/improvement/task/mine?pageSize=200', 'teacher');
    expect(theirs.success, theirs.message).toBe(true);
    expect(theirs.result.records.map((r: any) => r.id)).not.toContain(id);
    expect(theirs.result.records.every((r: any) => r.respPersonId === who.teacher!.id)).toBe(true);

    const full = (await call('get', `/improvement/task/queryById?id=${id}`, 'leader')).result;
    expect(full.logs.map((l: any) => l.action)).toEqual(['CREATE', 'ISSUE', 'ACCEPT', 'SPLIT', 'SUBMIT', 'REJECT', 'SUBMIT', 'VERIFY', 'CLOSE']);
    expect(full.subtasks).toHaveLength(1);
    // Each step notified the other side.
    const notes = await db.selectFrom('sys_announcement').select('titile').where('bus_id', '=', id).execute();
    expect(notes.length).toBeGreaterThanOrEqual(7);
  });

  it('derives overdue from the deadline', async () => {
    const r = await call('get', '/improvement/task/list?pageSize=200', 'supervisor');
    expect(r.success, r.message).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    for (const t of r.result.records) expect(t.overdue).toBe(['ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'SUBMITTED', 'REJECTED'].includes(t.status) && t.deadline < today);
    expect(r.result.records.some((t: any) => t.overdue)).toBe(true);
  });
});
