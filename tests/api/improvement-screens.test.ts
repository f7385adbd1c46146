import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';

/** The server side of the improvement and statistics screens: the 分解 prefill, parent titles, name filters. */
const s = fileTestServer();
const who: Who = {};
const call = callsAs(s, who);

beforeAll(async () => {
  for (const u of ['supervisor', 'secretary', 'teacher', 'leader']) who[u] = await tokenFor(s, u, ROLE_PERMS[u]!);
}, 120_000);

describe('improvement screens', () => {
  it('pre-fills a subtask from its task only once the task is signed for; lists subtasks with the task title', async () => {
    const db = s.running.ctx.db;
    const rec = await db.selectFrom('sup_lecture_record').select('id').where('teacher_id', '=', who.teacher!.id).where('status', 'in', ['SUBMITTED', 'CONFIRMED']).executeTakeFirstOrThrow();
    const pre = await call('get', `/improvement/task/prefill?recordId=${rec.id}`, 'leader');
    // Given to the college (the prefill names the observed teacher; the college splits the work here).
    const add = await call('post', '/improvement/task/add', 'leader', { ...pre.result, respPersonId: null, title: '分解预填测试任务', requirement: '规范板书' });
    expect(add.success, add.message).toBe(true);
    const id = add.result.id as string;
    // A draft is not visible to the responsible department yet; once issued, it must be signed for first.
    expect((await call('get', `/improvement/subtask/prefill?taskId=${id}`, 'secretary')).message).toBe('未找到对应整改任务');
    await call('post', '/improvement/task/transition', 'leader', { id, action: 'ISSUE' });
    expect((await call('get', `/improvement/subtask/prefill?taskId=${id}`, 'secretary')).message).toBe('整改任务签收后才能分解子任务');
    await call('post', '/improvement/task/transition', 'secretary', { id, action: 'ACCEPT' });
    const sp = await call('get', `/improvement/subtask/prefill?taskId=${id}`, 'secretary');
    expect(sp.success, sp.message).toBe(true);
    expect(sp.result).toMatchObject({ taskId: id, taskId_dictText: '分解预填测试任务', measures: '规范板书', deadline: pre.result.deadline });
    // The teacher may not split (no improvement:subtask:add).
    expect((await call('get', `/improvement/subtask/prefill?taskId=${id}`, 'teacher')).code).toBe(510);
    const sub = await call('post', '/improvement/subtask/add', 'secretary', { ...sp.result, title: '子任务A', assigneeId: who.teacher!.id });
    expect(sub.success, sub.message).toBe(true);
    await call('post', '/improvement/subtask/transition', 'secretary', { id: sub.result.id, action: 'ISSUE' });
    const list = await call('get', '/improvement/subtask/list?pageSize=100', 'teacher');
    expect(list.result.records.find((r: any) => r.id === sub.result.id)?.taskId_dictText).toBe('分解预填测试任务');
    // An unknown task is refused.
    expect((await call('get', `/improvement/subtask/prefill?taskId=nope`, 'secretary')).message).toBe('未找到对应整改任务');
  });

  it('filters both reports by name (the screens\' 姓名 / 授课教师 field, plain or *like*)', async () => {
    const all = (await call('get', '/supervisor/report/frequency', 'supervisor')).result as any[];
    const name = String(all.find((r) => r.actual > 0)!.realname);
    const one = (await call('get', `/supervisor/report/frequency?realname=${encodeURIComponent(`*${name}*`)}`, 'supervisor')).result as any[];
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((r) => String(r.realname).includes(name))).toBe(true);
    expect(one).toEqual(all.filter((r) => String(r.realname).includes(name)));
    const perf = (await call('get', '/supervisor/report/performance', 'supervisor')).result as any[];
    const t = String(perf[0]!.realname);
    const pf = (await call('get', `/supervisor/report/performance?realname=${encodeURIComponent(t)}`, 'supervisor')).result as any[];
    expect(pf).toEqual(perf.filter((r) => String(r.realname).includes(t)));
  });
});
