import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The page designer (issue 31, server/design): validation, versions, the served override, rollback, the shipped-default notice. */
let s: TestServer;
const tok: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  for (const u of ['admin', 'supervisor', 'teacher']) tok[u] = await s.login(u);
});
afterAll(() => s?.close());

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
    for (const [m, url] of [['get', 'design/pages'], ['get', `design/page?id=${PAGE}`], ['post', 'design/validate'], ['post', 'design/save'], ['post', 'design/rollback']] as const) {
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

  it('notices a shipped default that changed under a local version', async () => {
    await post('design/save', { id: PAGE, schema: { ...shipped, title: '本地' } });
    expect((await get(`design/page?id=${PAGE}`)).result.shippedChanged).toBe(false);
    // the file's hash stored with the version no longer matches: as after an upgrade that changed the file
    await s.running.ctx.db.updateTable('design_page_version').set({ file_hash: 'old' }).where('page_id', '=', PAGE).execute();
    expect((await get(`design/page?id=${PAGE}`)).result).toMatchObject({ shippedChanged: true, live: { saved: true } });
    expect((await get('design/pages')).result.find((p: { id: string }) => p.id === PAGE)).toMatchObject({ shippedChanged: true });
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
