import { describe, expect, it } from 'vitest';
import { apiCalls, fileTestServer } from '../helpers/server.js';
import { tokenFor } from './lecture-fixture.js';

/** 审核评估: the index tree, audit items and workgroups, and improvement tasks raised from an item's problem. */
const s = fileTestServer(['admin']);
const { call, list } = apiCalls(() => s, () => s.tok.admin);
const indexByCode = async (code: string) => (await list(`/audit/index/list?code=${code}&pageSize=100`)).find((r) => r.code === code);

describe('审核指标', () => {
  it('seeds the 第二类 index system: 7 一级 and 27 二级 indexes, 审核重点 under them, each with its lead department', async () => {
    const roots = await list('/audit/index/list?parentId=0&pageSize=100');
    expect(roots.map((r) => `${r.code} ${r.name}`)).toEqual([
      '1 办学方向与本科地位', '2 培养过程', '3 教学资源与利用', '4 教师队伍', '5 学生发展', '6 质量保障', '7 教学成效',
    ]);
    expect(roots.every((r) => r.level === 1 && r.hasChild === '1' && r.schemeType === 'C2_2' && r.leadDepartId_dictText)).toBe(true);
    let second = 0;
    for (const r of roots) second += (await list(`/audit/index/list?parentId=${r.id}&pageSize=100`)).length;
    expect(second).toBe(27);
    const classroom = await indexByCode('2.4');
    const points = await list(`/audit/index/list?parentId=${classroom.id}&pageSize=100`);
    expect(points.map((p) => [p.code, p.level_dictText])).toEqual([['2.4.1', '审核重点'], ['2.4.2', '审核重点'], ['2.4.3', '审核重点']]);
    expect((await indexByCode('4.3.1'))).toMatchObject({ quantitative: true, threshold: '≥90%', optionType_dictText: '定量必选' });
  });

  it('numbers an index after its parent, takes level and type from it, and refuses a wrong or repeated number', async () => {
    const parent = await indexByCode('2.3');
    const add = (body: object) => call('post', '/audit/index/add', { schemeType: 'C1', name: '实践教学基地建设与利用情况', ...body });
    expect((await add({ parentId: parent.id, code: '2.4.1' })).message).toBe('编号应以上级编号“2.3.”开头');
    expect((await add({ parentId: parent.id, code: '2.3' })).message).toBe('审核重点的编号应为3段，例如 2.4.1');
    expect((await add({ code: '8.1' })).message).toBe('一级指标的编号应为1段，例如 2');
    expect((await add({ parentId: parent.id, code: '2.3.x' })).message).toBe('指标编号：指标编号格式为 1、1.2 或 1.2.3');
    expect((await add({ parentId: 'no-such-index', code: '2.3.1' })).message).toBe('上级指标不存在');
    const ok = await add({ parentId: parent.id, code: '2.3.1' });
    expect(ok.success, ok.message).toBe(true);
    expect((await add({ parentId: parent.id, code: '2.3.1' })).message).toBe('编号“2.3.1”已存在');
    const child = await indexByCode('2.3.1');
    expect(child).toMatchObject({ level: 3, schemeType: 'C2_2', parentId: parent.id });
    expect((await indexByCode('2.3')).hasChild).toBe('1');
    expect((await add({ parentId: child.id, code: '2.3.1' })).message).toBe('审核重点下不能再添加下级指标');
    // A parent cannot change, nor can a number with children under it.
    expect((await call('put', '/audit/index/edit', { id: child.id, parentId: (await indexByCode('2.2')).id })).message).toBe('不能修改上级指标，请删除后在新的上级下添加');
    expect((await call('put', '/audit/index/edit', { id: parent.id, code: '2.9' })).message).toBe('该指标下还有下级指标，不能修改编号');
    const root = await indexByCode('2');
    expect((await call('put', '/audit/index/edit', { id: root.id, schemeType: 'C1' })).message).toBe('该指标下还有下级指标，不能修改评估类型');
    // Deleting: not while children are left; the parent is childless again once its last child goes.
    expect((await call('delete', `/audit/index/delete?id=${parent.id}`)).message).toBe('该指标下还有下级指标，请先删除下级指标');
    expect((await call('delete', `/audit/index/delete?id=${child.id}`)).success).toBe(true);
    expect((await indexByCode('2.3')).hasChild).toBe('0');
    // A new index goes after its siblings.
    const roots = await list('/audit/index/list?parentId=0&pageSize=100');
    expect((await add({ code: '8' })).success).toBe(true);
    expect((await list('/audit/index/list?parentId=0&pageSize=100')).map((r) => r.code)).toEqual([...roots.map((r) => r.code), '8']);
  });
});

describe('审核要点 and 工作组', () => {
  it('lists the seeded items with their index number, workgroup and department, and refuses items on a 一级 index', async () => {
    const items = await list('/audit/item/list?pageSize=50');
    expect(items.length).toBeGreaterThanOrEqual(9);
    expect(items.map((i) => i.indexCode)).toEqual([...items.map((i) => i.indexCode)].sort());
    const listening = items.find((i) => i.content === '听课评价结果的反馈与改进情况');
    expect(listening).toMatchObject({ indexCode: '2.4.2', status: 'PROBLEM', status_dictText: '存在问题', workgroupId_dictText: '督查组', respDepartId_dictText: '教务处' });
    const one = await indexByCode('1');
    expect((await call('post', '/audit/item/add', { indexId: one.id, content: '办学定位' })).message).toBe('审核要点应挂在二级指标或审核重点下，请选择下级指标');
    const point = await indexByCode('2.4.3');
    expect((await call('post', '/audit/item/add', { indexId: point.id, content: '试卷抽检', status: 'PROBLEM' })).message).toBe('状态为“存在问题”时请填写存在问题');
    const added = await call('post', '/audit/item/add', { indexId: point.id, content: '试卷抽检', status: 'TODO' });
    expect(added.success, added.message).toBe(true);
    const item = (await list('/audit/item/list?content=试卷抽检'))[0];
    expect(item.indexCode).toBe('2.4.3');
    // Renumbering an index renumbers its items.
    expect((await call('put', '/audit/index/edit', { id: point.id, code: '2.4.9' })).success).toBe(true);
    expect((await call('get', `/audit/item/queryById?id=${item.id}`)).result.indexCode).toBe('2.4.9');
    expect((await call('delete', `/audit/index/delete?id=${point.id}`)).message).toBe('该指标下还有审核要点，请先删除审核要点');
  });

  it('shows each workgroup with its leader, members and indexes by name, and keeps one that still has items', async () => {
    const groups = await list('/audit/workgroup/list?pageSize=20');
    expect(groups.map((g) => g.name)).toEqual(['评估工作领导小组', '评建办公室', '报告撰写组', '支撑材料组', '督查组']);
    expect(groups[1]).toMatchObject({ groupType_dictText: '评建办公室', leaderId_dictText: '张建国', members_dictText: '张建国,陈静', indexScope_dictText: '质量保障' });
    expect((await call('delete', `/audit/workgroup/delete?id=${groups[4].id}`)).message).toBe('还有审核要点由该工作组负责，请先调整审核要点');
    expect((await call('post', '/audit/workgroup/add', { name: '督查组', groupType: 'INSPECTION' })).success).toBe(false);
  });

  it('is read-only for a department leader and closed to a teacher', async () => {
    const leader = await s.login('leader');
    expect((await list('/audit/item/list', leader)).length).toBeGreaterThan(0);
    const point = await indexByCode('6.1.1');
    const denied = await call('post', '/audit/item/add', { indexId: point.id, content: 'x' }, leader);
    expect(denied.success).toBe(false);
    expect(denied.code).toBe(510);
    const teacher = await s.login('teacher');
    expect((await call('get', '/audit/index/list', undefined, teacher)).code).toBe(510);
  });
});

describe('improvement tasks from audit items', () => {
  it('raises a task pre-filled from an item whose self-check found a problem, and refuses one without a problem or from an unknown item', async () => {
    const items = await list('/audit/item/list?pageSize=50');
    const problem = items.find((i) => i.indexCode === '4.3.1')!;
    const done = items.find((i) => i.status === 'DONE')!;
    expect((await call('get', `/improvement/task/prefill?auditItemId=${done.id}`)).message).toBe('该审核要点没有记录存在的问题，无需整改');
    const pre = await call('get', `/improvement/task/prefill?auditItemId=${problem.id}`);
    expect(pre.success, pre.message).toBe(true);
    expect(pre.result).toMatchObject({
      title: '审核评估 4.3.1 教授主讲本科课程人数占教授总数的比例 问题整改', source: 'AUDIT', sourceId: problem.id,
      description: problem.problem, respDepartId: problem.respDepartId,
    });
    const saved = await call('post', '/improvement/task/add', pre.result);
    expect(saved.success, saved.message).toBe(true);
    expect(saved.result).toMatchObject({ source_dictText: '审核评估', respDepartId_dictText: '人事处', status: 'DRAFT' });
    expect(saved.result.termId).toBeTruthy();
    const forged = await call('post', '/improvement/task/add', { ...pre.result, sourceId: 'no-such-item' });
    expect(forged.message).toBe('来源审核要点不存在');
    // Raising one takes the right to read audit items as well.
    const { token } = await tokenFor(s, 'teacher', ['improvement:task:add']);
    expect((await call('get', `/improvement/task/prefill?auditItemId=${problem.id}`, undefined, token)).code).toBe(510);
  });
});
