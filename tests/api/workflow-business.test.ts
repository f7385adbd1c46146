import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { apiCalls, fileTestServer } from '../helpers/server.js';

/**
 * 审批流程 (issue 28), the business side: 合同审批 started from 合同管理 (department leader → 财务 → countersign
 * of two, the contract's status following it), the header's to-do count and 我的待办 kept by wf_task_user.
 */
const s = fileTestServer(['admin', 'teacher', 'leader', 'deptadmin', 'supervisor', 'secretary']);
const as = (u: string) => apiCalls(() => s, () => s.tok[u]!);
const todo = (u: string) => as(u).list('/workflow/task/todo?pageSize=100');
const count = async (u: string) => {
  const r = await as(u).call('get', '/workflow/task/todoCount');
  expect(r.success, r.message).toBe(true);
  return r.result.count as number;
};
const contractOf = async (no: string) => (await as('admin').list(`/lab/contract/list?contractNo=${encodeURIComponent(no)}`)).find((c) => c.contractNo === no);

let labId = '';
async function newContract(no: string, amount: number) {
  // 软件工程实验室 belongs to the college whose leader is `leader`.
  labId ||= (await as('admin').list(`/lab/catalogue/list?code=SY-A301`)).find((l) => l.code === 'SY-A301').id;
  const r = await as('admin').call('post', '/lab/contract/add', { contractNo: no, partyName: '测试委托方', partyType: 'OUTER', labId, amount, signDate: '2026-11-20', status: 'DRAFT' });
  expect(r.success, r.message).toBe(true);
  return (await contractOf(no)).id as string;
}

describe('合同审批 from 合同管理', () => {
  it('runs leader → finance → countersign of two; the contract becomes 生效 and shows its approval', async () => {
    const id = await newContract('HT-WF-001', 52000);
    const before = { leader: await count('leader'), finance: await count('deptadmin') };
    const refused = await as('teacher').call('post', `/workflow/biz/contract?id=${id}`);
    expect(refused.success).toBe(false); // no lab:contract:edit
    const sub = await as('admin').call('post', `/workflow/biz/contract?id=${id}`);
    expect(sub.success, sub.message).toBe(true);
    expect((await contractOf('HT-WF-001')).status).toBe('PENDING');
    // While it is under approval the contract is the process's: no edit, no delete, and nobody picks 审批中 by hand.
    const edit = await as('admin').call('put', '/lab/contract/edit', { id, amount: 1 });
    expect(edit.success).toBe(false);
    expect(edit.message).toMatch(/合同正在审批中，不能修改/);
    const del = await as('admin').call('delete', `/lab/contract/delete?id=${id}`);
    expect(del.success).toBe(false);
    expect(del.message).toMatch(/合同正在审批中，不能删除/);
    const byHand = await as('admin').call('post', '/lab/contract/add', { contractNo: 'HT-WF-HAND', partyName: '测试委托方', partyType: 'OUTER', labId, amount: 1, signDate: '2026-11-20', status: 'PENDING' });
    expect(byHand.success).toBe(false);
    expect(byHand.message).toMatch(/不能直接选择/);
    expect(Number((await contractOf('HT-WF-001')).amount)).toBe(52000);
    const again = await as('admin').call('post', `/workflow/biz/contract?id=${id}`);
    expect(again.success).toBe(false);
    expect(again.message).toContain('草稿或已退回');

    const inst = (await as('admin').call('get', `/workflow/instance/byBusiness?bizType=lab_contract&bizId=${id}`)).result;
    expect(inst.status).toBe('RUNNING');
    expect(inst.currentNodes).toBe('部门领导审批');
    expect(await count('leader')).toBe(before.leader + 1);

    // Wrong assignee refused: the finance user cannot act on the leader's task.
    const leaderTask = (await todo('leader')).find((t) => t.instanceId === inst.id);
    expect(leaderTask?.bizType).toBe('lab_contract');
    const wrong = await as('deptadmin').call('post', '/workflow/task/approve', { id: leaderTask.id, comment: '越权' });
    expect(wrong.success).toBe(false);
    expect(wrong.message).toContain('不是该任务的处理人');

    expect((await as('leader').call('post', '/workflow/task/approve', { id: leaderTask.id, comment: '同意' })).success).toBe(true);
    expect(await count('leader')).toBe(before.leader);
    expect(await count('deptadmin')).toBe(before.finance + 1);
    const fin = (await todo('deptadmin')).find((t) => t.instanceId === inst.id);
    expect(fin.name).toBe('财务审核');
    expect((await as('deptadmin').call('post', '/workflow/task/approve', { id: fin.id, comment: '预算充足' })).success).toBe(true);

    const signers = ['supervisor', 'admin'];
    for (const u of signers) expect((await todo(u)).filter((t) => t.instanceId === inst.id).map((t) => t.name)).toEqual(['会签']);
    const first = (await todo('supervisor')).find((t) => t.instanceId === inst.id);
    expect((await as('supervisor').call('post', '/workflow/task/approve', { id: first.id, comment: '会签同意' })).success).toBe(true);
    expect((await contractOf('HT-WF-001')).status).toBe('PENDING'); // one of two signed
    const second = (await todo('admin')).find((t) => t.instanceId === inst.id);
    expect((await as('admin').call('post', '/workflow/task/approve', { id: second.id, comment: '会签同意' })).success).toBe(true);

    expect((await contractOf('HT-WF-001')).status).toBe('ACTIVE');
    const detail = (await as('admin').call('get', `/workflow/instance/queryById?id=${inst.id}`)).result;
    expect(detail.status).toBe('COMPLETED');
    expect(detail.variables).toMatchObject({ contractNo: 'HT-WF-001', amount: 52000 });
    expect(detail.steps.filter((x: any) => x.event === 'TASK').map((x: any) => x.elementName)).toEqual(['部门领导审批', '财务审核', '会签', '会签']);
    expect(detail.steps.filter((x: any) => x.event === 'TASK').every((x: any) => x.decision === 'approve' && x.userName)).toBe(true);
    expect(detail.steps.map((x: any) => x.event)).toEqual(['START', 'TASK', 'TASK', 'TASK', 'TASK', 'END']);
  });

  it('a rejected contract is 已退回; withdrawn it is a draft again and may be submitted anew', async () => {
    const id = await newContract('HT-WF-002', 800);
    expect((await as('admin').call('post', `/workflow/biz/contract?id=${id}`)).success).toBe(true);
    const inst = (await as('admin').call('get', `/workflow/instance/byBusiness?bizType=lab_contract&bizId=${id}`)).result;
    const t = (await todo('leader')).find((x) => x.instanceId === inst.id);
    expect((await as('leader').call('post', '/workflow/task/reject', { id: t.id, comment: '金额有误' })).success).toBe(true);
    expect((await contractOf('HT-WF-002')).status).toBe('REJECTED');
    expect((await as('admin').call('post', '/workflow/instance/withdraw', { id: inst.id, reason: '重新起草' })).success).toBe(true);
    expect((await contractOf('HT-WF-002')).status).toBe('DRAFT');
    expect((await as('admin').call('post', `/workflow/biz/contract?id=${id}`)).success).toBe(true);
    expect((await contractOf('HT-WF-002')).status).toBe('PENDING');
  });
});

describe('我的待办 and its count', () => {
  it('the count follows creation, transfer and completion; the list pages in arrival order and filters', async () => {
    const base = await count('leader');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await as('teacher').call('post', '/workflow/instance/start', { modelKey: 'contract', title: `计数${i}`, variables: { amount: i, reason: '测试' } });
      expect(r.success, r.message).toBe(true);
      ids.push(r.result.id);
    }
    expect(await count('leader')).toBe(base + 3);
    const page1 = await as('leader').call('get', '/workflow/task/todo?pageNo=1&pageSize=2');
    expect(page1.result.total).toBe(base + 3);
    expect(page1.result.records).toHaveLength(2);
    // Pages are disjoint and together the whole list (newest first; ties within a second by task id).
    const all: any[] = [];
    for (let p = 1; p <= Math.ceil((base + 3) / 2); p++) all.push(...(await as('leader').call('get', `/workflow/task/todo?pageNo=${p}&pageSize=2`)).result.records);
    expect(new Set(all.map((r) => r.id)).size).toBe(base + 3);
    expect(all.filter((r) => String(r.title).startsWith('计数')).map((r) => r.title).sort()).toEqual(['计数0', '计数1', '计数2']);
    expect(all.map((r) => r.createTime)).toEqual([...all.map((r) => r.createTime)].sort().reverse());
    const filtered = await as('leader').call('get', `/workflow/task/todo?title=${encodeURIComponent('计数1')}`);
    expect(filtered.result.records.map((r: any) => r.title)).toEqual(['计数1']);
    expect(filtered.result.total).toBe(1);
    // A transfer moves the task from one list to the other; the teacher never sees it.
    // One of this test's own tasks: the task left from the test before may share their second and sort first.
    const t = all.find((r) => String(r.title).startsWith('计数'));
    const sup = await count('supervisor');
    expect((await as('leader').call('post', '/workflow/task/transfer', { id: t.id, userId: (await as('admin').list('/sys/user/list?username=supervisor&pageSize=50')).find((u) => u.username === 'supervisor').id })).success).toBe(true);
    expect(await count('leader')).toBe(base + 2);
    expect(await count('supervisor')).toBe(sup + 1);
    expect((await todo('teacher')).some((x) => x.id === t.id)).toBe(false);
    // Withdrawn by the applicant: gone from every list.
    for (const id of ids) expect((await as('teacher').call('post', '/workflow/instance/withdraw', { id, reason: '' })).success).toBe(true);
    expect(await count('leader')).toBe(base);
    expect(await count('supervisor')).toBe(sup);
  });
});

describe('实验室预约: the old 审核 routes do not bypass the process', () => {
  it('approve / reject of a booking in 实验室预约审批 are refused, pointing to 我的待办; the process decides it', async () => {
    const lab = (await as('teacher').list('/lab/catalogue/list?pageSize=50')).find((l) => l.code === 'SY-A301');
    const day = dayjs().add(25, 'day').format('YYYY-MM-DD');
    const r = await as('teacher').call('post', '/lab/reservation/add', { labId: lab.id, purpose: '流程内预约', attendance: 10, useDate: day, startSection: 1, endSection: 2 });
    expect(r.success, r.message).toBe(true);
    const booking = (await as('teacher').list(`/lab/reservation/list?useDate=${day}`)).find((b) => b.purpose === '流程内预约');
    for (const path of ['approve', 'reject']) {
      const old = await as('admin').call('post', `/lab/reservation/${path}`, { id: booking.id, opinion: '直接审核' });
      expect(old.success).toBe(false);
      expect(old.message).toContain('我的待办');
    }
    expect((await as('teacher').list(`/lab/reservation/list?useDate=${day}`)).find((b) => b.id === booking.id).status).toBe('PENDING');
    const inst = (await as('teacher').call('get', `/workflow/instance/byBusiness?bizType=lab_reservation&bizId=${booking.id}`)).result;
    const task = (await todo('secretary')).find((t) => t.instanceId === inst.id);
    expect((await as('leader').call('post', '/workflow/task/approve', { id: task.id })).success).toBe(false); // not the lab's manager
    expect((await as('secretary').call('post', '/workflow/task/approve', { id: task.id, comment: '同意' })).success).toBe(true);
    expect((await as('teacher').list(`/lab/reservation/list?useDate=${day}`)).find((b) => b.id === booking.id).status).toBe('APPROVED');
  });
});

describe('整改延期申请: who may ask, and when', () => {
  it('rows carry the extension status; a second request, a task without a deadline and other users are refused', async () => {
    const db = s.running.ctx.db;
    const users = await db.selectFrom('sys_user').select(['id', 'username']).where('username', 'in', ['secretary', 'supervisor']).execute();
    const idOf = (u: string) => users.find((x) => x.username === u)!.id as string;
    const base = { status: 'ISSUED', resp_person_id: idOf('secretary'), issuer_id: idOf('supervisor') };
    await db.insertInto('imp_task').values([
      { id: 'wfbiz00000000000000000000000001', task_no: 'ZG-WB-1', title: '课件待完善', deadline: '2026-12-31', ...base },
      { id: 'wfbiz00000000000000000000000002', task_no: 'ZG-WB-2', title: '无期限任务', deadline: null, ...base },
    ]).execute();
    const row = async (no: string) => (await as('secretary').list(`/improvement/task/list?taskNo=${no}&pageSize=50`)).find((r) => r.taskNo === no);
    expect((await row('ZG-WB-1')).extensionStatus).toBeNull();
    const ask = (taskId: string, user = 'secretary') => as(user).call('post', '/workflow/biz/impExtension', { taskId, newDeadline: '2027-02-28', reason: '寒假' });
    expect((await ask('wfbiz00000000000000000000000001', 'supervisor')).message).toBe('只有整改责任人可以申请延期');
    expect((await ask('wfbiz00000000000000000000000002')).message).toContain('没有整改期限');
    expect((await ask('wfbiz00000000000000000000000001')).success).toBe(true);
    expect((await row('ZG-WB-1')).extensionStatus).toBe('RUNNING');
    const again = await ask('wfbiz00000000000000000000000001');
    expect(again.success).toBe(false);
    expect(again.message).toContain('已有进行中的延期申请');
  });
});
