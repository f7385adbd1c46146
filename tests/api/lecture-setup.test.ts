import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { tokenFor } from './lecture-fixture.js';

const s = fileTestServer();
let token = '';
const call = async (method: 'get' | 'post' | 'put', path: string, body?: unknown) => {
  const url = `/jeecg-boot${path}`;
  const r = method === 'get' ? await s.get(url, token) : await s[method](url, body ?? {}, token);
  return r.json() as { success: boolean; message: string; result: any };
};

beforeAll(async () => {
  const ops = ['list', 'add', 'edit', 'delete', 'queryById'];
  // Terms and index systems are university-wide (issue 27 rule 2): a university role (scope all) administers them.
  token = (await tokenFor(s, 'supervisor', [...ops.map((o) => `supervisor:index:${o}`), ...ops.map((o) => `supervisor:term:${o}`), 'supervisor:index:publish', 'supervisor:term:setCurrent', 'supervisor:courseSchedule:list', 'supervisor:courseSchedule:add'])).token;
}, 120_000);

describe('index systems', () => {
  it('publishes only a tree that adds up, and versions a published system on edit', async () => {
    const tree = [
      { name: '教学态度', maxScore: 40, children: [{ name: '备课', maxScore: 20 }, { name: '纪律', maxScore: 20 }] },
      { name: '教学效果', maxScore: 50, children: [{ name: '效果', maxScore: 50 }] },
    ];
    const add = await call('post', '/supervisor/index/add', { name: '实验课评价', lessonKind: 'EXPERIMENT', fullScore: 100, indexList: tree });
    expect(add.success, add.message).toBe(true);
    const id = add.result.id;
    expect((await call('post', `/supervisor/index/publish?id=${id}`)).message).toBe('一级指标分值合计 90 分，应等于满分 100 分');
    tree[1]!.maxScore = 60;
    expect((await call('put', '/supervisor/index/edit', { id, indexList: tree })).success).toBe(true);
    expect((await call('post', `/supervisor/index/publish?id=${id}`)).message).toBe('一级指标“教学效果”的二级指标分值合计 50 分，应等于 60 分');
    tree[1]!.children[0]!.maxScore = 60;
    expect((await call('put', '/supervisor/index/edit', { id, indexList: tree })).success).toBe(true);
    expect((await call('post', `/supervisor/index/publish?id=${id}`)).success).toBe(true);

    const edited = await call('put', '/supervisor/index/edit', { id, name: '实验课评价（修订）' });
    expect(edited.success, edited.message).toBe(true);
    expect(edited.message).toContain('新版本');
    expect(edited.result).toMatchObject({ version: 2, status: 'DRAFT', rootId: id, name: '实验课评价（修订）' });
    const orig = (await call('get', `/supervisor/index/queryById?id=${id}`)).result;
    expect(orig).toMatchObject({ status: 'PUBLISHED', version: 1, name: '实验课评价' });
    const v2 = (await call('get', `/supervisor/index/queryById?id=${edited.result.id}`)).result;
    expect(v2.indexList.map((i: any) => [i.name, i.maxScore, i.children.length])).toEqual([['教学态度', 40, 2], ['教学效果', 60, 1]]);
  });

  it('refuses bad grade bands and bad scores with clear messages', async () => {
    const bad = await call('post', '/supervisor/index/add', { name: 'x', lessonKind: 'PE', gradeBands: [{ grade: 'A', label: '好', min: 50 }], indexList: [{ name: 'a', maxScore: 100 }] });
    expect(bad.message).toBe('等级划分需要一个从 0 分开始的等级');
    const neg = await call('post', '/supervisor/index/add', { name: 'x', lessonKind: 'PE', indexList: [{ name: '态度', maxScore: -5 }] });
    expect(neg.message).toBe('指标“态度”的分值必须是大于 0 的数字');
  });
});

describe('terms', () => {
  it('keeps exactly one current term', async () => {
    const add = await call('post', '/supervisor/term/add', { code: '2026-2027-2', name: '2026-2027学年第二学期', startDate: '2027-02-22', weekCount: 18 });
    expect(add.success, add.message).toBe(true);
    const created = (await call('get', '/supervisor/term/list?code=2026-2027-2')).result.records[0];
    expect(created.isCurrent).toBe(false);
    const cur = await call('post', `/supervisor/term/setCurrent?id=${created.id}`);
    expect(cur.result.id).toBe(created.id);
    const list = (await call('get', '/supervisor/term/list?pageSize=50')).result.records as any[];
    expect(list.filter((t) => t.isCurrent).map((t) => t.id)).toEqual([created.id]);
    expect((await call('get', '/supervisor/term/current')).result.code).toBe('2026-2027-2');
    expect((await call('post', '/supervisor/term/add', { code: '2026学年', name: 'x', startDate: '2027-02-22' })).message).toContain('学期代码格式');
  });

  it('computes week masks for schedule lines and refuses bad week text', async () => {
    const task = await s.running.ctx.db.selectFrom('sup_course_task').select(['id', 'name']).executeTakeFirstOrThrow();
    const ok = await call('post', '/supervisor/courseSchedule/add', { taskId: task.id, weekday: 7, startSection: 3, endSection: 4, weeks: '1-8(单),10-12' });
    expect(ok.success, ok.message).toBe(true);
    const line = (await call('get', `/supervisor/courseSchedule/list?taskId=${task.id}&weekday=7`)).result.records[0];
    expect(Number(line.weekMask)).toBe(0b111001010101); // weeks 1,3,5,7,10,11,12
    expect(line.taskId_dictText).toBe(task.name); // the list names the teaching class, not its id
    // The form's task picker searches the teaching classes by name (a declared table dictionary).
    const found = (await call('get', `/sys/dict/loadDict/sup_course_task,name,id?keyword=${encodeURIComponent(task.name!)}`)).result as Array<{ value: string }>;
    expect(found.map((o) => o.value)).toContain(task.id);
    expect((await call('post', '/supervisor/courseSchedule/add', { taskId: task.id, weekday: 2, startSection: 3, endSection: 4, weeks: '8-1' })).message).toContain('周次格式不正确');
  });
});
