import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { apiCalls, startTestServer, type TestServer } from '../helpers/server.js';
import { startServer } from '../../server/start.js';
import { fireDueTimers } from '../../server/workflow/service.js';
import { buildXml } from '../../server/workflow/seed.js';

/** 审批流程 (issue 28): models on bpmn-engine, every task action, scoping, restart, timers. */
let s: TestServer;
const tokens: Record<string, string> = {};
const as = (u: string) => apiCalls(() => s, () => tokens[u]!);

// A three-step model: the department leader, then (amount > 1000) the secretary, then a countersign of two.
const XML = buildXml(
  'test_three',
  '三步审批',
  [
    { id: 'start', type: 'startEvent', name: '开始', col: 0 },
    { id: 'lead', type: 'userTask', name: '领导审批', col: 1, attrs: { assignee: 'leader' } },
    { id: 'gw', type: 'exclusiveGateway', name: '金额', col: 2 },
    { id: 'sec', type: 'userTask', name: '秘书审核', col: 3, row: 1, attrs: { assignee: 'secretary', dueTime: 'PT1H', onTimeout: 'approve' } },
    { id: 'sign', type: 'userTask', name: '会签', col: 4, countersign: 'all', attrs: { assignee: 'user:supervisor,deptadmin' } },
    { id: 'end', type: 'endEvent', name: '结束', col: 5 },
  ],
  [
    { id: 'f1', from: 'start', to: 'lead' },
    { id: 'f2', from: 'lead', to: 'gw' },
    { id: 'f3', from: 'gw', to: 'sec', cond: '${amount > 1000}' },
    { id: 'f4', from: 'gw', to: 'sign' },
    { id: 'f5', from: 'sec', to: 'sign' },
    { id: 'f6', from: 'sign', to: 'end' },
  ],
  { gw: 'f4' },
);

let versionId = '';
async function todo(user: string) {
  return as(user).list('/workflow/task/todo?pageSize=100');
}
async function act(user: string, action: string, body: Record<string, unknown>) {
  return as(user).call('post', `/workflow/task/${action}`, body);
}
async function start(amount: number) {
  const r = await as('teacher').call('post', '/workflow/instance/start', { versionId, title: `报销${amount}`, variables: { amount, reason: '测试' } });
  expect(r.success, r.message).toBe(true);
  return r.result.id as string;
}
const taskOf = async (user: string, instanceId: string) => (await todo(user)).find((t) => t.instanceId === instanceId);

beforeAll(async () => {
  s = await startTestServer();
  for (const u of ['admin', 'teacher', 'leader', 'secretary', 'supervisor', 'deptadmin', 'teacher2']) tokens[u] = await s.login(u);
  const add = await as('admin').call('post', '/workflow/model/add', { name: '三步审批', modelKey: 'test_three', xml: XML });
  expect(add.success, add.message).toBe(true);
  const dep = await as('admin').call('post', '/workflow/model/deploy', { id: add.result.id });
  expect(dep.success, dep.message).toBe(true);
  versionId = dep.result.id;
}, 120_000);
afterAll(async () => s?.close());

describe('models', () => {
  it('refuses scripts, bad XML, unknown elements and oversize files; deploys numbered versions', async () => {
    const bad = await as('admin').call('post', '/workflow/model/validate', { xml: XML.replace('<userTask id="lead"', '<scriptTask id="x" scriptFormat="javascript"><script>process.exit()</script></scriptTask><userTask id="lead"') });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('不支持的节点类型');
    expect((await as('admin').call('post', '/workflow/model/validate', { xml: '<definitions' })).message).toContain('不是有效的BPMN');
    expect((await as('admin').call('post', '/workflow/model/validate', { xml: XML.replace('<process ', '<process foo:bar="1" ').replace('sourceRef="lead"', 'sourceRef="nope"') })).success).toBe(false);
    expect((await as('admin').call('post', '/workflow/model/validate', { xml: XML + ' '.repeat(600 * 1024) })).message).toContain('过大');
    expect((await as('admin').call('post', '/workflow/model/validate', { xml: XML.replace('${amount &gt; 1000}', '${amount &gt;}') })).success).toBe(false);
    expect((await as('teacher').call('post', '/workflow/model/deploy', { id: 'x' })).code).toBe(510);
    const models = await as('admin').list('/workflow/model/list?pageSize=50');
    expect(models.map((m) => m.modelKey)).toEqual(expect.arrayContaining(['lab_reservation', 'contract', 'imp_extension', 'test_three']));
  });

  it('a suspended version cannot be started; instances keep their version', async () => {
    const models = await as('admin').list('/workflow/model/list?pageSize=50');
    const m = models.find((x) => x.modelKey === 'test_three')!;
    expect((await as('admin').call('post', '/workflow/model/version/suspend', { id: versionId })).success).toBe(true);
    const r = await as('teacher').call('post', '/workflow/instance/start', { versionId, variables: {} });
    expect(r.message).toContain('挂起');
    expect((await as('admin').call('post', '/workflow/model/version/activate', { id: versionId })).success).toBe(true);
    const versions = await as('admin').list(`/workflow/model/versions?modelId=${m.id}`);
    expect(versions[0].version).toBe(1);
  });
});

describe('task actions', () => {
  it('approve through a condition and a countersign; history records every step', async () => {
    const id = await start(5000);
    const t1 = await taskOf('leader', id);
    expect(t1?.name).toBe('领导审批');
    // The wrong user is refused, in Chinese.
    const wrong = await act('teacher2', 'approve', { id: t1.id });
    expect(wrong.success).toBe(false);
    expect(wrong.message).toContain('不是该任务的处理人');
    expect((await act('leader', 'approve', { id: t1.id, comment: '同意' })).success).toBe(true);
    // Idempotent: the same completion again answers the stored outcome.
    const again = await act('leader', 'approve', { id: t1.id });
    expect(again.success).toBe(true);
    expect(again.result.already).toBe(true);
    const t2 = await taskOf('secretary', id);
    expect(t2?.name).toBe('秘书审核');
    expect((await act('secretary', 'approve', { id: t2.id })).success).toBe(true);
    const a = await taskOf('supervisor', id);
    const b = await taskOf('deptadmin', id);
    expect(a?.name).toBe('会签');
    expect(b?.name).toBe('会签');
    expect((await act('supervisor', 'approve', { id: a.id })).success).toBe(true);
    let d = (await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result;
    expect(d.status).toBe('RUNNING');
    expect((await act('deptadmin', 'approve', { id: b.id })).success).toBe(true);
    d = (await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result;
    expect(d.status).toBe('COMPLETED');
    expect(d.markers.done).toEqual(expect.arrayContaining(['start', 'lead', 'gw', 'f3', 'sec', 'sign', 'end']));
    expect(d.markers.done).not.toContain('f4');
    expect(d.steps.filter((x: any) => x.event === 'TASK').map((x: any) => x.userName)).toEqual(['李明华', '陈静', '张建国', '刘洋']);
    expect((await as('leader').list('/workflow/task/done')).some((t) => t.instanceId === id)).toBe(true);
  });

  it('a small amount skips the secretary (the condition runs on the form)', async () => {
    const id = await start(100);
    await act('leader', 'approve', { id: (await taskOf('leader', id)).id });
    expect(await taskOf('secretary', id)).toBeUndefined();
    expect(await taskOf('supervisor', id)).toBeDefined();
  });

  it('reject to the applicant, resubmit, then pass; reject to the previous step', async () => {
    const id = await start(5000);
    await act('leader', 'approve', { id: (await taskOf('leader', id)).id });
    const sec = await taskOf('secretary', id);
    expect((await act('secretary', 'reject', { id: sec.id })).message).toContain('请填写驳回原因');
    expect((await act('secretary', 'reject', { id: sec.id, comment: '金额不对', target: 'previous' })).success).toBe(true);
    const lead2 = await taskOf('leader', id);
    expect(lead2?.name).toBe('领导审批');
    expect((await act('leader', 'reject', { id: lead2.id, comment: '请补充材料' })).success).toBe(true);
    const back = await taskOf('teacher', id);
    expect(back?.kind).toBe('RESUBMIT');
    expect((await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result.status).toBe('RETURNED');
    expect((await act('teacher', 'resubmit', { id: back.id, variables: { amount: 500 } })).success).toBe(true);
    const lead3 = await taskOf('leader', id);
    expect(lead3).toBeDefined();
    await act('leader', 'approve', { id: lead3.id });
    expect(await taskOf('secretary', id)).toBeUndefined(); // the corrected amount skips the secretary
    for (const u of ['supervisor', 'deptadmin']) await act(u, 'approve', { id: (await taskOf(u, id)).id });
    expect((await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result.status).toBe('COMPLETED');
  });

  it('a countersign reject returns the application', async () => {
    const id = await start(1);
    await act('leader', 'approve', { id: (await taskOf('leader', id)).id });
    await act('supervisor', 'reject', { id: (await taskOf('supervisor', id)).id, comment: '不同意' });
    expect(await taskOf('deptadmin', id)).toBeUndefined();
    expect((await taskOf('teacher', id))?.kind).toBe('RESUBMIT');
  });

  it('transfer, add a signer, comment with attachments', async () => {
    const id = await start(1);
    const t = await taskOf('leader', id);
    expect((await act('leader', 'comment', { id: t.id, comment: '看过了', attachments: 'temp/a.pdf' })).success).toBe(true);
    expect((await act('leader', 'transfer', { id: t.id, userId: (await as('admin').list('/sys/user/list?username=secretary'))[0].id })).success).toBe(true);
    expect(await taskOf('leader', id)).toBeUndefined();
    const t2 = await taskOf('secretary', id);
    expect(t2?.id).toBe(t.id);
    const teacher2Id = (await as('admin').list('/sys/user/list?username=teacher2'))[0].id;
    expect((await act('secretary', 'addSign', { id: t2.id, userId: teacher2Id })).success).toBe(true);
    const extra = await taskOf('teacher2', id);
    expect(extra?.kind).toBe('ADDSIGN');
    await act('secretary', 'approve', { id: t2.id });
    expect(await taskOf('supervisor', id)).toBeUndefined(); // waits for the added signer
    await act('teacher2', 'approve', { id: extra.id });
    expect(await taskOf('supervisor', id)).toBeDefined();
    const d = (await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result;
    expect(d.steps.map((x: any) => x.event)).toEqual(expect.arrayContaining(['COMMENT', 'TRANSFER', 'ADDSIGN']));
    expect(d.steps.find((x: any) => x.event === 'COMMENT').attachments).toBe('temp/a.pdf');
  });
});

describe('security', () => {
  it('an instance is visible only to the applicant, its assignees and administrators', async () => {
    const id = await start(1);
    expect((await as('teacher2').call('get', `/workflow/instance/queryById?id=${id}`)).success).toBe(false);
    expect((await as('leader').call('get', `/workflow/instance/queryById?id=${id}`)).success).toBe(true);
    expect((await as('admin').call('get', `/workflow/instance/queryById?id=${id}`)).success).toBe(true);
    expect((await as('teacher2').list('/workflow/instance/list?pageSize=100')).some((i) => i.id === id)).toBe(false);
    expect((await as('teacher').call('get', '/workflow/admin/tasks')).code).toBe(510);
    const all = await as('admin').list('/workflow/admin/tasks?pageSize=100');
    expect(all.some((t) => t.instanceId === id)).toBe(true);
  });

  it('administrators reassign and terminate with a reason', async () => {
    const id = await start(1);
    const t = await taskOf('leader', id);
    const secId = (await as('admin').list('/sys/user/list?username=secretary'))[0].id;
    expect((await as('admin').call('post', '/workflow/admin/reassign', { id: t.id, userId: secId })).success).toBe(true);
    expect((await taskOf('secretary', id))?.id).toBe(t.id);
    expect((await as('admin').call('post', '/workflow/admin/terminate', { instanceId: id })).message).toContain('终止原因');
    expect((await as('admin').call('post', '/workflow/admin/terminate', { instanceId: id, reason: '重复申请' })).success).toBe(true);
    expect(await taskOf('secretary', id)).toBeUndefined();
    expect((await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result.endReason).toBe('重复申请');
  });
});

describe('timers', () => {
  it('an overdue task escalates once however many pollers race', async () => {
    const id = await start(5000);
    await act('leader', 'approve', { id: (await taskOf('leader', id)).id });
    const sec = await taskOf('secretary', id);
    expect(sec.dueTime).toBeTruthy();
    const db = s.running.ctx.db;
    await db.updateTable('wf_timer').set({ due_at: dayjs().subtract(1, 'minute').format('YYYY-MM-DD HH:mm:ss') }).where('instance_id', '=', id).execute();
    const fired = await Promise.all([fireDueTimers(s.running.ctx, 'a'), fireDueTimers(s.running.ctx, 'b'), fireDueTimers(s.running.ctx, 'c')]);
    expect(fired.reduce((x, y) => x + y, 0)).toBe(1);
    const d = (await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result;
    expect(d.steps.filter((x: any) => x.event === 'OVERDUE')).toHaveLength(1);
    // Auto-approved as the model says: the countersign waits now.
    expect(await taskOf('secretary', id)).toBeUndefined();
    expect(await taskOf('supervisor', id)).toBeDefined();
  });
});

describe('lab reservation', () => {
  it('a booking outside opening hours goes to the lab manager, then the department leader; the booking is approved', async () => {
    const labs = await as('teacher').list('/lab/catalogue/list?pageSize=50');
    const lab = labs.find((l) => l.code === 'SY-A301');
    const day = dayjs().add(20, 'day').format('YYYY-MM-DD');
    const r = await as('teacher').call('post', '/lab/reservation/add', { labId: lab.id, purpose: '晚间实验课', attendance: 20, useDate: day, startSection: 9, endSection: 10 });
    expect(r.success, r.message).toBe(true);
    const mine = await as('teacher').list(`/lab/reservation/list?useDate=${day}`);
    const booking = mine.find((b) => b.purpose === '晚间实验课');
    const inst = (await as('teacher').call('get', `/workflow/instance/byBusiness?bizType=lab_reservation&bizId=${booking.id}`)).result;
    expect(inst.status).toBe('RUNNING');
    const m = await taskOf('secretary', inst.id); // SY-A301's manager
    expect(m?.name).toBe('实验室负责人审核');
    await act('secretary', 'approve', { id: m.id });
    const l = await taskOf('leader', inst.id);
    expect(l?.name).toBe('部门领导审批');
    await act('leader', 'approve', { id: l.id });
    const after = (await as('teacher').list(`/lab/reservation/list?useDate=${day}`)).find((b) => b.id === booking.id);
    expect(after.status).toBe('APPROVED');
  });
});

describe('整改延期申请', () => {
  it('the responsible person asks, the issuer approves, the deadline changes and the log says why', async () => {
    const db = s.running.ctx.db;
    const users = await db.selectFrom('sys_user').select(['id', 'username']).where('username', 'in', ['secretary', 'supervisor']).execute();
    const idOf = (u: string) => users.find((x) => x.username === u)!.id as string;
    const taskId = 'wfext000000000000000000000000001';
    await db.insertInto('imp_task').values({ id: taskId, task_no: 'ZG-WF-1', title: '教案不规范', status: 'ISSUED', deadline: '2026-12-31', resp_person_id: idOf('secretary'), issuer_id: idOf('supervisor') }).execute();
    expect((await as('teacher').call('post', '/workflow/biz/impExtension', { taskId, newDeadline: '2027-01-31', reason: '期末' })).message).toBe('只有整改责任人可以申请延期');
    expect((await as('secretary').call('post', '/workflow/biz/impExtension', { taskId, newDeadline: '2026-12-01', reason: '期末' })).message).toBe('新的期限须晚于当前期限');
    const r = await as('secretary').call('post', '/workflow/biz/impExtension', { taskId, newDeadline: '2027-01-31', reason: '期末考试周无法组织整改' });
    expect(r.success, r.message).toBe(true);
    const t = await taskOf('supervisor', r.result.id);
    expect(t?.name).toBe('下发人审批');
    await act('supervisor', 'approve', { id: t.id });
    const task = await db.selectFrom('imp_task').select('deadline').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(String(task.deadline)).toContain('2027-01-31');
    const log = await db.selectFrom('imp_action_log').select(['action', 'comment']).where('target_id', '=', taskId).executeTakeFirstOrThrow();
    expect(log.action).toBe('EXTEND');
    expect(log.comment).toContain('期末考试周无法组织整改');
  });
});

describe('restart', () => {
  it('a new server on the same database resumes an instance where it was', async () => {
    const id = await start(5000);
    await act('leader', 'approve', { id: (await taskOf('leader', id)).id });
    await s.running.stop();
    const running = await startServer(s.cfg, { logger: false, listen: false });
    await running.prepared;
    // The helper's request functions are bound to the first process: rebind them to the new one.
    const call: TestServer['call'] = ({ token, headers, ...o }) => running.app.inject({ ...o, headers: { ...(token ? { 'x-access-token': token } : {}), ...headers } });
    Object.assign(s, {
      running,
      call,
      get: (url: string, token?: string) => call({ method: 'GET', url, token }),
      post: (url: string, body: any, token?: string) => call({ method: 'POST', url, token, payload: body }),
      login: async (username: string) => (await call({ method: 'POST', url: '/jeecg-boot/sys/login', payload: { username, password: 'Observe#2026' } })).json().result.token,
    });
    for (const u of Object.keys(tokens)) tokens[u] = await s.login(u);
    const sec = await taskOf('secretary', id);
    expect(sec?.name).toBe('秘书审核');
    await act('secretary', 'approve', { id: sec.id });
    for (const u of ['supervisor', 'deptadmin']) await act(u, 'approve', { id: (await taskOf(u, id)).id });
    expect((await as('teacher').call('get', `/workflow/instance/queryById?id=${id}`)).result.status).toBe('COMPLETED');
  }, 60_000);
});
