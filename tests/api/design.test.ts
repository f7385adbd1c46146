import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

/** The page designer (issue 31, server/design): validation, versions, the served override, rollback, the shipped-default notice. */
const s = fileTestServer(['admin', 'supervisor', 'teacher']);
const { tok } = s;

const PAGE = 'supervisor/LectureRecordList';
const shipped = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/pages', `${PAGE}.json`), 'utf8')) as Record<string, any>;
const get = async (url: string, token = tok.admin) => (await s.get(url, token)).json();
const post = async (url: string, body: unknown, token = tok.admin) => (await s.post(url, body, token)).json();
const served = async (token = tok.supervisor) => (await get(`schema/page/${PAGE}`, token)).result as Record<string, any>;

describe('page designer', () => {
  it('lists the pages with their state and refuses a teacher everywhere', async () => {
    const r = await get('design/pages');
    expect(r.success).toBe(true);
    expect(r.result.find((p: { id: string }) => p.id === PAGE)).toMatchObject({ title: '听课记录', kind: 'list', saved: false, version: null });
    for (const [m, url] of [['get', 'design/pages'], ['get', `design/page?id=${PAGE}`], ['post', 'design/validate'], ['post', 'design/save'], ['post', 'design/rollback'], ['post', 'design/upgrade']] as const) {
      const a = m === 'get' ? await s.get(url, tok.teacher) : await s.post(url, { id: PAGE, schema: shipped }, tok.teacher);
      expect(a.json()).toMatchObject({ success: false, code: 510 });
    }
    expect((await s.post('design/save', { id: PAGE, schema: shipped }, tok.supervisor)).json()).toMatchObject({ success: false, code: 510 });
    // the designer screen itself is in the admin's menu only
    expect(await get('schema/page/design/PageDesigner')).toMatchObject({ success: true, result: { kind: 'designer' } });
    expect(await get('schema/page/design/PageDesigner', tok.teacher)).toMatchObject({ success: false, message: '页面配置不存在：design/PageDesigner' });
  });

  it('validates a draft against the composed meta-schema and the safety rules, with JSON paths', async () => {
    const check = async (schema: unknown) => (await post('design/validate', { id: PAGE, schema })).result.problems as Array<{ path: string; reason: string }>;
    expect(await check(shipped)).toEqual([]);
    const noTitle = structuredClone(shipped);
    delete noTitle.columns[2].title;
    expect(await check(noTitle)).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/columns/2', reason: expect.stringContaining('title') })]));
    expect(await check({ ...shipped, kind: 'hacker' })).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/kind' })]));
    expect(await check({ ...shipped, entity: 'no_such_entity' })).toEqual([expect.objectContaining({ path: '/entity', reason: expect.stringContaining('no_such_entity') })]);
    const widget = structuredClone(shipped);
    widget.columns[0].widget = 'EvilWidget';
    expect(await check(widget)).toEqual([{ file: expect.any(String), path: '/columns/0/widget', reason: '未注册的组件“EvilWidget”' }]);
    const expr = structuredClone(shipped);
    expr.columns[0].title = '{{ constructor.constructor("x")() }}';
    expect((await check(expr))[0]).toMatchObject({ path: '/columns/0/title', reason: expect.stringContaining('表达式有误') });
    expect(await check([1, 2])).toEqual([expect.objectContaining({ path: '/', reason: '页面配置必须是 JSON 对象' })]);
  });

  it('passes every shipped page as it is (an author can always save a screen they did not break)', async () => {
    const wrong: string[] = [];
    for (const p of (await get('design/pages')).result as Array<{ id: string }>) {
      const file = JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/pages', `${p.id}.json`), 'utf8'));
      const r = await post('design/validate', { id: p.id, schema: file });
      if (!r.success || r.result.problems.length) wrong.push(`${p.id}: ${JSON.stringify(r.result?.problems ?? r.message)}`);
    }
    expect(wrong).toEqual([]);
    // a template's parts are checked one by one
    const tpl = { kind: 'dashboard', title: '看板', panels: [{ type: 'stat', key: 'a', title: '共 {{ len($data) }} 条 · {{ $data.x + }}', url: '/sys/user/list' }] };
    expect((await post('design/validate', { id: 'dashboard/Analysis', schema: tpl })).result.problems).toEqual([expect.objectContaining({ path: '/panels/0/title', reason: expect.stringContaining('表达式有误') })]);
  });

  it('never stores an invalid schema', async () => {
    const bad = structuredClone(shipped);
    bad.query.fields[0].label = 42;
    const r = await post('design/save', { id: PAGE, schema: bad });
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('/query/fields/0/label') });
    expect(r.result.problems[0].path).toBe('/query/fields/0/label');
    expect((await get(`design/page?id=${PAGE}`)).result.versions).toEqual([]);
    expect(await served()).toEqual(shipped);
  });

  it('saves versions that are served instead of the file at once, diffs and rolls back', async () => {
    const before = await served(); // warm every cache on the way
    expect(before.columns).toHaveLength(shipped.columns.length);
    const v1 = structuredClone(shipped);
    v1.columns = v1.columns.filter((c: { dataIndex: string }) => c.dataIndex !== 'week');
    v1.query.fields.push({ name: 'courseName', label: '课程名称' });
    expect(await post('design/save', { id: PAGE, schema: v1, note: '去掉周次' })).toMatchObject({ success: true, result: { version: 1 } });
    expect(await served()).toEqual(v1);
    expect((await get('schema/pages', tok.supervisor)).result.find((p: { id: string }) => p.id === PAGE)).toMatchObject({ valid: true });

    const v2 = structuredClone(v1);
    v2.title = '听课记录（本校）';
    expect((await post('design/save', { id: PAGE, schema: v2 })).result.version).toBe(2);
    expect((await served()).title).toBe('听课记录（本校）');

    const info = (await get(`design/page?id=${PAGE}`)).result;
    expect(info.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(info.versions[1]).toMatchObject({ note: '去掉周次', createBy: 'admin', saved: true });
    expect(info).toMatchObject({ live: { version: 2, saved: true }, shippedChanged: false });
    expect((await get(`design/version?id=${PAGE}&version=1`)).result.schema).toEqual(v1);
    expect((await get(`design/version?id=${PAGE}&version=0`)).result.schema).toEqual(shipped);

    expect(await post('design/rollback', { id: PAGE, version: 1 })).toMatchObject({ success: true, result: { version: 3 } });
    expect(await served()).toEqual(v1);
    expect(await post('design/rollback', { id: PAGE, version: 0 })).toMatchObject({ success: true, result: { version: 4 } });
    expect(await served()).toEqual(shipped);
    expect((await get('design/pages')).result.find((p: { id: string }) => p.id === PAGE)).toMatchObject({ version: 4, saved: false });
    expect(await post('design/rollback', { id: PAGE, version: 99 })).toMatchObject({ success: false, message: '版本不存在' });
  });

  it('notices a shipped default that changed under a local version, shows the change, re-applies the local changes to it or keeps the local version', async () => {
    const live = async () => (await get(`design/page?id=${PAGE}`)).result;
    const top = async () => (await live()).versions[0].version as number;
    await post('design/save', { id: PAGE, schema: { ...shipped, title: '本地' } });
    expect((await live()).shippedChanged).toBe(false);
    // As after an upgrade: the file the local version was made from (kept with it) is not today's file.
    // The old file lacked the 周次 column and named the first column otherwise; the author then added a query field.
    const old = structuredClone(shipped);
    old.columns = old.columns.filter((c: { dataIndex: string }) => c.dataIndex !== 'week');
    old.columns[0].title = '旧的标题';
    const local = structuredClone(old);
    local.title = '听课记录（本校）';
    local.query.fields.push({ name: 'courseName', label: '课程名称' });
    const v = await top();
    await s.running.ctx.db.updateTable('design_page_version').set({ file_hash: 'old', file_schema: JSON.stringify(old), page_schema: JSON.stringify(local) }).where('page_id', '=', PAGE).where('version', '=', v).execute();
    const info = await live();
    expect(info).toMatchObject({ shippedChanged: true, live: { saved: true } });
    expect(info.shippedChange.changes).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/columns/0/title', kind: 'changed', before: '旧的标题', after: shipped.columns[0].title })]));
    expect((await get('design/pages')).result.find((p: { id: string }) => p.id === PAGE)).toMatchObject({ shippedChanged: true });

    // 保留本地版本: the same schema as a new version, the new file seen
    expect(await post('design/upgrade', { id: PAGE, mode: 'keep', baseVersion: v })).toMatchObject({ success: true, result: { version: v + 1 } });
    expect(await live()).toMatchObject({ shippedChanged: false, shippedChange: null });
    expect(await served()).toEqual(local);
    expect(await post('design/upgrade', { id: PAGE, mode: 'reapply' })).toMatchObject({ success: false, message: '出厂配置没有变化，无需处理' });

    // 基于新默认重新应用: the author's changes on the new file; what only the upgrade changed is taken
    await s.running.ctx.db.updateTable('design_page_version').set({ file_hash: 'old', file_schema: JSON.stringify(old) }).where('page_id', '=', PAGE).where('version', '=', v + 1).execute();
    const r = await post('design/upgrade', { id: PAGE, mode: 'reapply', baseVersion: v + 1 });
    expect(r).toMatchObject({ success: true, result: { version: v + 2, conflicts: [] } });
    const merged = await served();
    expect(merged.title).toBe('听课记录（本校）');
    expect(merged.query.fields.at(-1)).toEqual({ name: 'courseName', label: '课程名称' });
    expect(merged.columns).toEqual(shipped.columns); // the upgrade's 周次 column and first title
    expect(await live()).toMatchObject({ shippedChanged: false });
    expect((await live()).versions[0].note).toBe('基于新默认重新应用');
  });

  it('refuses a save based on an older version than the live one (another author saved in between)', async () => {
    const v = (await get(`design/page?id=${PAGE}`)).result.versions[0]?.version ?? 0;
    const r = await post('design/save', { id: PAGE, schema: shipped, baseVersion: v - 1 });
    expect(r).toMatchObject({ success: false, message: expect.stringContaining(`已有更新的版本 v${v}`) });
    expect((await get(`design/page?id=${PAGE}`)).result.versions[0].version).toBe(v);
    expect(await post('design/save', { id: PAGE, schema: shipped, baseVersion: v })).toMatchObject({ success: true, result: { version: v + 1 } });
  });

  it('an author who is not the administrator may use only the entities and pages they may open themselves', async () => {
    const db = s.running.ctx.db;
    const role = await db.selectFrom('sys_role').select('id').where('role_code', '=', 'supervisor').executeTakeFirstOrThrow();
    const perms = await db.selectFrom('sys_permission').select('id').where((eb) => eb.or([eb('perms', 'like', 'design:page:%'), eb('component', '=', 'design/PageDesigner')])).execute();
    expect(perms.length).toBeGreaterThanOrEqual(3);
    await db.insertInto('sys_role_permission').values(perms.map((p, i) => ({ id: `designtestgrant${String(i).padStart(17, '0')}`, role_id: role.id, permission_id: p.id }))).execute();
    const author = await s.login('supervisor');
    const check = async (schema: unknown) => (await post('design/validate', { id: PAGE, schema }, author)).result.problems as Array<{ path: string; reason: string }>;
    expect(await check(shipped)).toEqual([]);
    const page = structuredClone(shipped);
    page.actions.row.push({ key: 'users', label: '用户', type: 'page', page: 'system/UserList' });
    expect(await check(page)).toEqual([expect.objectContaining({ path: `/actions/row/${page.actions.row.length - 1}/page`, reason: '无权使用页面“system/UserList”' })]);
    expect(await check({ ...shipped, entity: 'sys_user' })).toEqual([expect.objectContaining({ path: '/entity', reason: '无权使用实体“sys_user”' })]);
    expect((await post('design/save', { id: PAGE, schema: page }, author)).message).toContain('无权使用页面');
    // the administrator may
    expect((await post('design/validate', { id: PAGE, schema: page })).result.problems).toEqual([]);
    await db.deleteFrom('sys_role_permission').where('id', 'like', 'designtestgrant%').execute();
  });

  it('reports cross-field problems in Chinese at their path', async () => {
    const dup = structuredClone(shipped);
    dup.actions.row.push({ ...dup.actions.row[0] });
    expect((await post('design/validate', { id: PAGE, schema: dup })).result.problems).toEqual([expect.objectContaining({ path: `/actions/row/${dup.actions.row.length - 1}/key`, reason: expect.stringContaining('重复') })]);
  });

  it('serves the file when a stored version no longer validates (the page keeps working)', async () => {
    const top = await s.running.ctx.db.selectFrom('design_page_version').select((eb) => eb.fn.max('version').as('m')).where('page_id', '=', PAGE).executeTakeFirstOrThrow();
    await s.running.ctx.db.updateTable('design_page_version').set({ page_schema: JSON.stringify({ kind: 'list', title: 'x', bogus: 1 }) }).where('page_id', '=', PAGE).where('version', '=', Number(top.m)).execute();
    expect(await served()).toEqual(shipped);
    expect((await get(`design/page?id=${PAGE}`)).result.live.problems[0]).toMatchObject({ path: '/' });
  });

  it('refuses unknown pages', async () => {
    expect(await post('design/save', { id: '../../etc/passwd', schema: shipped })).toMatchObject({ success: false, message: expect.stringContaining('页面不存在') });
    expect(await get('design/page?id=nope/Nope')).toMatchObject({ success: false });
  });
});
