import { beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, fileTestServer } from '../helpers/server.js';
import { buildXml } from '../../server/workflow/seed.js';

/**
 * 审批流程 forms from page schemas (issue 28): the start form and a task's form are `form` pages
 * (workflow/forms/*); the scoped routes serve their fields, the server checks what is submitted against them,
 * merges it into the instance's data (gateway conditions see it) and records it in the history.
 */
const s = fileTestServer(['admin', 'teacher', 'teacher2', 'leader', 'secretary', 'deptadmin']);
const as = (u: string) => apiCalls(() => s, () => s.tok[u]!);
let general = '';

const processes = async () => as('teacher').list('/workflow/process/list');
const todo = (user: string) => as(user).list('/workflow/task/todo?pageSize=100');
const taskOf = async (user: string, instanceId: string) => (await todo(user)).find((t) => t.instanceId === instanceId);
const detail = async (id: string) => (await as('admin').call('get', `/workflow/instance/queryById?id=${id}`)).result;
const start = (form: Record<string, unknown>) => as('teacher').call('post', '/workflow/instance/start', { versionId: general, form });

beforeAll(async () => {
  general = (await processes()).find((p) => p.modelKey === 'general')?.versionId;
}, 120_000);

describe('workflow forms', () => {
  it('the start form of 通用审批 is its page’s fields; a business process cannot be started here', async () => {
    expect(general).toBeTruthy();
    const r = await as('teacher').call('get', `/workflow/process/form?versionId=${general}`);
    expect(r.success, r.message).toBe(true);
    expect(r.result.title).toBe('通用审批申请');
    expect(r.result.fields.map((f: any) => f.name)).toEqual(['title', 'amount', 'reason', 'attachments']);
    expect(r.result.fields.find((f: any) => f.name === 'reason')).toMatchObject({ label: '申请事由', required: true });
    const lab = await as('admin').list('/workflow/model/list?pageSize=50');
    const labModel = lab.find((m) => m.modelKey === 'lab_reservation');
    const versions = (await as('admin').call('get', `/workflow/model/versions?modelId=${labModel.id}`)).result.records;
    const refused = await as('teacher').call('get', `/workflow/process/form?versionId=${versions[0].id}`);
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('业务页面');
  });

  it('refuses a missing required field by its label and a number out of range; drops unknown fields', async () => {
    const missing = await start({ title: '缺事由', amount: 100 });
    expect(missing.success).toBe(false);
    expect(missing.message).toBe('申请事由不能为空');
    const negative = await start({ title: '负数', amount: -5, reason: '测试' });
    expect(negative.success).toBe(false);
    expect(negative.message).toBe('金额（元）不能小于0');
    const text = await start({ title: '文字', amount: '很多', reason: '测试' });
    expect(text.message).toBe('金额（元）必须是数字');
    const long = await start({ title: 'x'.repeat(101), reason: '测试' });
    expect(long.message).toBe('申请标题最多100个字符');

    const ok = await start({ title: '差旅报销', amount: 800, reason: '参加会议', approvedAmount: 999999, hack: '<script>' });
    expect(ok.success, ok.message).toBe(true);
    const d = await detail(ok.result.id);
    expect(d.title).toBe('差旅报销');
    expect(d.variables).toEqual({ amount: 800, reason: '参加会议' });
    const startStep = d.steps.find((x: any) => x.event === 'START');
    expect(startStep.form).toEqual({ 申请标题: '差旅报销', '金额（元）': '800', 申请事由: '参加会议' });
  });

  it('the task form: its page’s fields filled with the instance’s data, only for who may act on it', async () => {
    const r = await start({ title: '购买图书', amount: 2600, reason: '教学参考书' });
    const task = await taskOf('leader', r.result.id);
    expect(task?.formKey).toBe('workflow/forms/GeneralReview');
    const f = await as('leader').call('get', `/workflow/task/form?id=${task.id}`);
    expect(f.success, f.message).toBe(true);
    expect(f.result.values).toMatchObject({ title: '购买图书', amount: 2600, reason: '教学参考书' });
    expect(f.result.fields.find((x: any) => x.name === 'amount').readOnly).toBe(true);
    expect(f.result.fields.find((x: any) => x.name === 'approvedAmount')).toMatchObject({ label: '核定金额（元）', required: true });
    expect(f.result.fields.find((x: any) => x.name === 'approvedAmount').readOnly).toBeUndefined();
    for (const other of ['teacher', 'teacher2', 'secretary']) {
      const no = await as(other).call('get', `/workflow/task/form?id=${task.id}`);
      expect(no.success, other).toBe(false);
      expect(no.message).toContain('无权');
    }
    expect((await as('admin').call('get', `/workflow/task/form?id=${task.id}`)).success).toBe(true);
    // view=1 (驳回): everything read-only
    const view = await as('leader').call('get', `/workflow/task/form?id=${task.id}&view=1`);
    expect(view.result.fields.every((x: any) => x.readOnly)).toBe(true);
  });

  it('approve stores the task form’s value in the instance; a gateway condition on it routes', async () => {
    const big = await start({ title: '采购设备', amount: 30000, reason: '实验室设备' });
    const small = await start({ title: '采购耗材', amount: 30000, reason: '实验耗材' });
    const t1 = await taskOf('leader', big.result.id);
    const none = await as('leader').call('post', '/workflow/task/approve', { id: t1.id, comment: '同意' });
    expect(none.success).toBe(false);
    expect(none.message).toBe('核定金额（元）不能为空');
    const over = await as('leader').call('post', '/workflow/task/approve', { id: t1.id, form: { approvedAmount: 99999999 } });
    expect(over.message).toBe('核定金额（元）不能大于10000000');
    // the applicant's amount is read-only in this form: sent anyway, it is ignored
    const ok1 = await as('leader').call('post', '/workflow/task/approve', { id: t1.id, comment: '同意', form: { approvedAmount: 20000, amount: 1 } });
    expect(ok1.success, ok1.message).toBe(true);
    let d = await detail(big.result.id);
    expect(d.variables).toMatchObject({ amount: 30000, approvedAmount: 20000 });
    expect(d.status).toBe('RUNNING');
    expect(d.currentNodes).toBe('财务审核'); // approvedAmount > 10000
    expect(d.steps.find((x: any) => x.event === 'TASK').form).toEqual({ '核定金额（元）': '20000' });
    const fin = await taskOf('deptadmin', big.result.id);
    expect(fin).toBeTruthy();
    // the finance step's form shows the approved amount to change
    expect((await as('deptadmin').call('get', `/workflow/task/form?id=${fin.id}`)).result.values.approvedAmount).toBe(20000);

    const t2 = await taskOf('leader', small.result.id);
    expect((await as('leader').call('post', '/workflow/task/approve', { id: t2.id, form: { approvedAmount: 8000 } })).success).toBe(true);
    d = await detail(small.result.id);
    expect(d.variables.approvedAmount).toBe(8000);
    expect(d.status).toBe('COMPLETED'); // 8000 ≤ 10000: no finance step
    expect(await taskOf('deptadmin', small.result.id)).toBeUndefined();
  });

  it('resubmit: the applicant corrects the start form filled with the current data', async () => {
    const r = await start({ title: '培训费', amount: 500, reason: '外出培训' });
    const t = await taskOf('leader', r.result.id);
    expect((await as('leader').call('post', '/workflow/task/reject', { id: t.id, comment: '请写明培训名称' })).success).toBe(true);
    const back = await taskOf('teacher', r.result.id);
    expect(back.kind).toBe('RESUBMIT');
    const f = await as('teacher').call('get', `/workflow/task/form?id=${back.id}`);
    expect(f.result.values).toMatchObject({ title: '培训费', amount: 500, reason: '外出培训' });
    expect(f.result.fields.every((x: any) => !x.readOnly)).toBe(true);
    const bad = await as('teacher').call('post', '/workflow/task/resubmit', { id: back.id, form: { reason: '' } });
    expect(bad.message).toBe('申请事由不能为空');
    expect((await as('teacher').call('post', '/workflow/task/resubmit', { id: back.id, form: { title: '培训费（教学能力）', amount: 600, reason: '教学能力培训' } })).success).toBe(true);
    const d = await detail(r.result.id);
    expect(d.title).toBe('培训费（教学能力）');
    expect(d.variables).toMatchObject({ amount: 600, reason: '教学能力培训' });
  });

  it('deploy refuses a model whose formKey names no form page; the picker lists the form pages', async () => {
    const xml = buildXml('form_missing', '缺表单', [
      { id: 'start', type: 'startEvent', col: 0 },
      { id: 'check', type: 'userTask', name: '审核', col: 1, attrs: { assignee: 'leader', formKey: 'workflow/forms/Nope' } },
      { id: 'end', type: 'endEvent', col: 2 },
    ], [{ id: 'f1', from: 'start', to: 'check' }, { id: 'f2', from: 'check', to: 'end' }]);
    const add = await as('admin').call('post', '/workflow/model/add', { name: '缺表单', modelKey: 'form_missing', xml });
    const dep = await as('admin').call('post', '/workflow/model/deploy', { id: add.result.id });
    expect(dep.success).toBe(false);
    expect(dep.message).toContain('任务“审核”的表单“workflow/forms/Nope”不存在');
    // a page that exists but is not a form page is refused too
    const list = await as('admin').call('post', '/workflow/model/deploy', { id: add.result.id, xml: xml.replace('workflow/forms/Nope', 'workflow/TodoList') });
    expect(list.message).toContain('workflow/TodoList');
    const ok = await as('admin').call('post', '/workflow/model/deploy', { id: add.result.id, xml: xml.replace('workflow/forms/Nope', 'workflow/forms/GeneralReview') });
    expect(ok.success, ok.message).toBe(true);

    const forms = await as('admin').call('get', '/workflow/forms');
    expect(forms.result.map((f: any) => f.id)).toEqual(expect.arrayContaining(['workflow/forms/GeneralApply', 'workflow/forms/GeneralReview']));
    expect(forms.result.every((f: any) => f.id !== 'workflow/TodoList')).toBe(true);
    expect((await as('teacher').call('get', '/workflow/forms')).success).toBe(false);
  });
});
