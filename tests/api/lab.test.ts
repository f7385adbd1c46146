import dayjs from 'dayjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, fileTestServer } from '../helpers/server.js';

/** 实验室管理: bookings (capacity, overlapping sections, who may change them, approval), orders priced on the server, date and week checks. */
const s = fileTestServer();
let admin = '';
let teacher = '';
let teacher2 = '';
const { call, list } = apiCalls(() => s, () => admin);
const day = (n: number) => dayjs().add(n, 'day').format('YYYY-MM-DD');
let labId = '';
let manager = ''; // SY-A301's manager: its bookings' 实验室预约审批 task is theirs
/** Decides a booking as its process's current task (the old 审核 routes refuse a booking in the process). */
async function decide(id: string, action: 'approve' | 'reject', comment = '') {
  const old = await call('post', `/lab/reservation/${action}?id=${id}&opinion=${encodeURIComponent(comment || '同意')}`);
  expect(old.message).toContain('我的待办');
  const inst = (await call('get', `/workflow/instance/byBusiness?bizType=lab_reservation&bizId=${id}`)).result;
  const task = (await list('/workflow/task/todo?pageSize=100', manager)).find((t) => t.instanceId === inst.id);
  return call('post', `/workflow/task/${action}`, { id: task.id, comment }, manager);
}

beforeAll(async () => {
  [admin, teacher, teacher2] = [await s.login('admin'), await s.login('teacher'), await s.login('teacher2')];
  labId = (await list('/lab/catalogue/list?code=SY-A301'))[0].id;
  manager = await s.login('secretary');
}, 120_000);

describe('实验室预约', () => {
  it('books a lab for a teacher, refusing a past date, too many people, reversed sections and overlapping sections', async () => {
    const book = (body: object, token = teacher) => call('post', '/lab/reservation/add', { labId, purpose: '课程设计', attendance: 30, useDate: day(20), startSection: 1, endSection: 2, ...body }, token);
    expect((await book({ useDate: day(-1) })).message).toBe('不能预约今天之前的日期');
    expect((await book({ attendance: 61 })).message).toBe('人数超过实验室容纳人数（60人）');
    expect((await book({ startSection: 4, endSection: 3 })).message).toBe('开始节次不能大于结束节次');
    const ok = await book({ applicantId: 'forged', status: 'APPROVED' });
    expect(ok.success, ok.message).toBe(true);
    const mine = (await list(`/lab/reservation/list?labId=${labId}&useDate=${day(20)}`, teacher))[0];
    expect(mine).toMatchObject({ status: 'PENDING', applicantId_dictText: '王磊', startSection: 1, endSection: 2 });
    expect((await book({ startSection: 2, endSection: 3 }, teacher2)).message).toBe('该时段已有预约：第1-2节（王磊，待审核）');
    expect((await book({ startSection: 3, endSection: 4 }, teacher2)).success).toBe(true);
    // Only the applicant changes a pending booking; a teacher cannot approve.
    expect((await call('put', '/lab/reservation/edit', { id: mine.id, purpose: '改' }, teacher2)).message).toBe('只能修改自己的预约');
    expect((await call('post', `/lab/reservation/approve?id=${mine.id}`, {}, teacher)).code).toBe(510);
    // The manager approves; an approved booking is no longer edited, and is cancelled by its applicant.
    expect((await decide(mine.id, 'approve', '同意')).success).toBe(true);
    expect((await call('put', '/lab/reservation/edit', { id: mine.id, purpose: '改' }, teacher)).message).toBe('只能修改待审核的预约');
    expect((await call('post', `/lab/reservation/approve?id=${mine.id}`)).message).toBe('只能审核待审核的预约');
    expect((await call('post', `/lab/reservation/cancel?id=${mine.id}`, {}, teacher2)).message).toBe('只能取消自己的预约');
    expect((await call('post', `/lab/reservation/cancel?id=${mine.id}`, {}, teacher)).success).toBe(true);
    expect((await book({}, teacher2)).success).toBe(true); // the cancelled sections are free again
    const other = (await list(`/lab/reservation/list?labId=${labId}&useDate=${day(20)}`)).find((b) => b.startSection === 3 && b.status === 'PENDING');
    expect((await decide(other.id, 'reject')).message).toBe('请填写驳回原因');
    expect((await decide(other.id, 'reject', '该时段另有安排')).success).toBe(true);
    expect((await call('get', `/lab/reservation/queryById?id=${other.id}`)).result).toMatchObject({ status: 'REJECTED', approveOpinion: '该时段另有安排' });
  });

  it('tells the applicant when their booking is decided', async () => {
    const ok = await call('post', '/lab/reservation/add', { labId, purpose: '答辩', attendance: 10, useDate: day(21), startSection: 5, endSection: 6 }, teacher);
    expect(ok.success, ok.message).toBe(true);
    const b = (await list(`/lab/reservation/list?labId=${labId}&useDate=${day(21)}`))[0];
    expect((await decide(b.id, 'approve')).success).toBe(true);
    const notices = await call('get', '/sys/annountCement/listByUser?pageSize=50', undefined, teacher);
    const titles = JSON.stringify(notices.result);
    expect(titles).toContain(`审批通过：实验室预约：软件工程实验室 ${day(21)} 第5-6节`); // the process tells the applicant
  });
});

describe('实验订单, 合同, 计划, 使用记录', () => {
  it('prices an order on the server from the service and the contract party, ignoring a sent amount', async () => {
    const services = await list('/lab/service/list?pageSize=20');
    const xrd = services.find((x) => x.name.startsWith('X射线'))!;
    const contracts = await list('/lab/contract/list');
    const active = contracts.find((c) => c.status === 'ACTIVE')!;
    const expired = contracts.find((c) => c.status === 'EXPIRED')!;
    const applicant = (await call('get', '/sys/user/getMultiUser?username=teacher2')).result[0];
    const add = (body: object) => call('post', '/lab/order/add', { serviceId: xrd.id, applicantId: applicant.id, sampleCount: 5, amount: 1, researchGroup: `测试组${Math.random()}`, ...body });
    expect((await add({ contractId: expired.id })).message).toBe('所选合同未生效');
    expect((await add({ researchGroup: '校内组' })).success).toBe(true);
    expect((await add({ researchGroup: '校外组', contractId: active.id })).success).toBe(true);
    const orders = await list('/lab/order/list?pageSize=50');
    const inside = orders.find((o) => o.researchGroup === '校内组');
    expect(inside).toMatchObject({ applicantId_dictText: '赵婷', status: 'SUBMITTED' });
    expect(Number(inside.amount)).toBe(400); // 5 × the campus price 80
    const outside = orders.find((o) => o.researchGroup === '校外组');
    expect(Number(outside.amount)).toBe(1000); // 5 × the outside price 200
    expect(outside.orderNo).toMatch(new RegExp(`^SY${dayjs().format('YYYY')}\\d{5}$`));
  });

  it('refuses a contract ending before it starts, a plan with bad weeks or too many students, a use record ending before it starts', async () => {
    expect((await call('post', '/lab/contract/add', { contractNo: 'HT-X1', partyName: '甲方', validFrom: '2026-12-01', validTo: '2026-11-01' })).message).toBe('截止日期不能早于生效日期');
    const term = (await list('/supervisor/term/list?isCurrent=true'))[0];
    const plan = (body: object) => call('post', '/lab/plan/add', { termId: term.id, labId, itemName: '实验一', stdCount: 30, weeks: '1-8', ...body });
    expect((await plan({ weeks: '第一周' })).message).toBe('上课周次格式不正确，例如 1-8,10-16 或 1-15(单)');
    expect((await plan({ stdCount: 90 })).message).toBe('学生人数超过实验室容纳人数（60人），请分组安排');
    expect((await plan({})).success).toBe(true);
    const me = (await call('get', '/sys/user/getMultiUser?username=teacher')).result[0];
    const use = (body: object) => call('post', '/lab/useRecord/add', { labId, userId: me.id, useDate: day(-1), startTime: '10:00', endTime: '09:00', ...body });
    expect((await use({})).message).toBe('结束时间应晚于开始时间');
    expect((await use({ endTime: '11:40' })).success).toBe(true);
  });

  it('shows the labs to a teacher, read-only', async () => {
    expect((await list('/lab/catalogue/list', teacher)).length).toBe(4);
    expect((await call('post', '/lab/catalogue/add', { code: 'X', name: 'X' }, teacher)).code).toBe(510);
    expect((await call('get', '/lab/order/list', undefined, teacher)).code).toBe(510);
  });
});
