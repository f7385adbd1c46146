import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { multipart } from '../fixtures/crud-users.js';

/** Online forms (issue 31): one-to-many sub-tables saved with their master, tree forms, indexes, export / import files, the versions list. */
const s = fileTestServer(['admin', 'teacher']);

const get = async (url: string, token = s.tok.admin) => (await s.get(url, token)).json();
const post = async (url: string, body: unknown, token = s.tok.admin) => (await s.post(url, body, token)).json();
const put = async (url: string, body: unknown, token = s.tok.admin) => (await s.put(url, body, token)).json();
const row = (dbFieldName: string, dbFieldTxt: string, more: Record<string, unknown> = {}) => ({ dbFieldName, dbFieldTxt, ...more });
const sync = async (code: string) => (await s.post(`online/cgform/api/doDbSynch/${code}/normal`, {}, s.tok.admin)).json();

describe('a main table with a sub-table', () => {
  it('defines the sub-table with a foreign key to the main one; the sub-table must be synced after it', async () => {
    const main = await post('online/cgform/api/define', { tableName: 'form_insp', tableTxt: '教学检查记录', fields: [row('check_item', '检查项目', { fieldMustInput: '1' }), row('check_grade', '评价等级', { dictField: 'eval_grade' })] });
    expect(main.success).toBe(true);
    expect(await post('online/cgform/api/define', { tableName: 'form_insp_item', tableTxt: '检查明细', tableType: 3, fields: [row('item_name', '明细')] })).toMatchObject({ success: false, message: '附表请填写主表（主表的表名）' });
    expect(await post('online/cgform/api/define', { tableName: 'form_insp_item', tableTxt: '检查明细', tableType: 3, mainTable: 'form_nope', fields: [row('item_name', '明细')] })).toMatchObject({ success: false, message: '主表“form_nope”不存在，请先定义主表' });
    const sub = await post('online/cgform/api/define', {
      tableName: 'form_insp_item', tableTxt: '检查明细', tableType: 3, mainTable: 'form_insp', foreignKey: 'insp_id',
      fields: [row('item_name', '明细', { fieldMustInput: '1' }), row('score', '得分', { dbType: 'int' })],
    });
    expect(sub.success).toBe(true);
    const def = (await get('online/cgform/api/exportDefinition/form_insp')).result;
    expect(def.subTables).toHaveLength(1);
    expect(def.subTables[0].fields.find((f: { dbFieldName: string }) => f.dbFieldName === 'insp_id')).toMatchObject({ mainTable: 'form_insp', mainField: 'id', dbType: 'string', dbLength: 32, isShowForm: 0 });
    expect((await get('online/cgform/head/list?tableName=form_insp')).result.records[0]).toMatchObject({ tableType: 2 });

    expect(await sync('form_insp_item')).toMatchObject({ success: false, message: '请先同步主表“form_insp”' });
    expect((await sync('form_insp')).success).toBe(true);
    expect((await sync('form_insp_item')).success).toBe(true);
    // a sub-table gets no menu entry of its own
    const menu = JSON.stringify((await get('sys/permission/getUserPermissionByToken')).result);
    expect(menu).toContain('/online/cgformList/form_insp');
    expect(menu).not.toContain('/online/cgformList/form_insp_item');
  });

  it('describes its sub-tables to the generated screen', async () => {
    const cols = (await get('online/cgform/api/getColumns/form_insp')).result;
    expect(cols.subTables).toEqual([
      expect.objectContaining({ key: 'form_insp_item', title: '检查明细', foreignKey: 'inspId', listUrl: '/online/cgform/api/getData/form_insp_item?column=subSortNo&order=asc', columns: [{ key: 'itemName', title: '明细', type: 'input', required: true }, { key: 'score', title: '得分', type: 'number' }] }),
    ]);
    expect(cols.formFields.map((f: { field: string }) => f.field)).toEqual(['checkItem', 'checkGrade']);
    // 预览 checks a record and its rows against the definitions and writes nothing
    expect(await post('online/cgform/api/previewCheck/form_insp', { checkItem: 'x', form_insp_item: [{ score: 1 }] })).toMatchObject({ success: false, message: '检查明细第1行：明细不能为空' });
    expect(await put('online/cgform/api/previewCheck/form_insp', { checkItem: 'x', form_insp_item: [{ itemName: 'y' }] })).toMatchObject({ success: true, message: '预览：数据有效，未保存' });
    expect((await get('online/cgform/api/getData/form_insp')).result.total).toBe(0);
  });

  let id = '';
  it('saves a record with its sub-table rows atomically, validated by the sub-table definition', async () => {
    const bad = await post('online/cgform/api/form/form_insp', { checkItem: '教案检查', form_insp_item: [{ itemName: '教案', score: 5 }, { score: 3 }] });
    expect(bad).toMatchObject({ success: false, message: '检查明细第2行：明细不能为空' });
    expect((await get('online/cgform/api/getData/form_insp')).result.total).toBe(0); // nothing saved

    const added = await post('online/cgform/api/form/form_insp', { checkItem: '教案检查', checkGrade: 'A', form_insp_item: [{ itemName: '教案', score: 5, inspId: 'forged' }, { itemName: '课件', score: 4 }] });
    expect(added.success).toBe(true);
    id = added.result;
    const one = (await get(`online/cgform/api/form/form_insp/${id}`)).result;
    expect(one.form_insp_item.map((r: { itemName: string; inspId: string }) => [r.itemName, r.inspId])).toEqual([['教案', id], ['课件', id]]);
    expect((await get(`online/cgform/api/getData/form_insp_item?inspId=${id}`)).result.total).toBe(2);

    // edit: one row changed, one removed, one added
    const [first] = one.form_insp_item as Array<{ id: string }>;
    expect((await put('online/cgform/api/form/form_insp', { id, checkItem: '教案检查', form_insp_item: [{ id: first!.id, itemName: '教案（修改）', score: 6 }, { itemName: '听课笔记', score: 2 }] })).success).toBe(true);
    const after = (await get(`online/cgform/api/form/form_insp/${id}`)).result.form_insp_item as Array<{ itemName: string; id: string }>;
    expect(after.map((r) => r.itemName)).toEqual(['教案（修改）', '听课笔记']); // in the order entered
    expect(after.find((r) => r.itemName === '教案（修改）')!.id).toBe(first!.id);

    // a failing row rolls back the master's change too
    expect(await put('online/cgform/api/form/form_insp', { id, checkItem: '改了', form_insp_item: [{ itemName: '' }] })).toMatchObject({ success: false, message: '检查明细第1行：明细不能为空' });
    expect((await get(`online/cgform/api/form/form_insp/${id}`)).result).toMatchObject({ checkItem: '教案检查' });
    expect(await put('online/cgform/api/form/form_insp', { id, form_insp_item: 'x' })).toMatchObject({ success: false, message: '检查明细的内容应为列表' });
  });

  it('deletes the sub-table rows with their master, and refuses to delete a main definition with sub-tables', async () => {
    expect((await s.del(`online/cgform/api/form/form_insp/${id}`, s.tok.admin)).json().success).toBe(true);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from form_insp_item`.execute(s.running.ctx.db);
    expect(rows[0]!.n).toBe(0);
    const head = (await get('online/cgform/head/list?tableName=form_insp')).result.records[0];
    expect((await s.del(`online/cgform/head/delete?id=${head.id}`, s.tok.admin)).json()).toMatchObject({ success: false, message: '该表单还有附表，请先删除附表的定义' });
  });

  it('a teacher can neither read the definition nor write records', async () => {
    expect(await get('online/cgform/api/getColumns/form_insp', s.tok.teacher)).toMatchObject({ success: false, code: 510 });
    expect(await post('online/cgform/api/form/form_insp', { checkItem: 'x' }, s.tok.teacher)).toMatchObject({ success: false, code: 510 });
    expect(await get('online/cgform/api/versionList?headId=form_insp', s.tok.teacher)).toMatchObject({ success: false, code: 510 });
    expect((await s.get('online/cgform/api/exportDefinitionFile/form_insp', s.tok.teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect(await put('online/cgform/api/define', { id: 'form_insp' }, s.tok.teacher)).toMatchObject({ success: false, code: 510 });
  });
});

describe('a tree form', () => {
  it('needs its name field; stores parent and has-child; lists roots and children', async () => {
    expect(await post('online/cgform/api/define', { tableName: 'form_org', tableTxt: '检查组织', isTree: 'Y', fields: [row('org_name', '名称')] })).toMatchObject({ success: false, message: '树表单请填写树显示字段（节点名称的字段名）' });
    const r = await post('online/cgform/api/define', { tableName: 'form_org', tableTxt: '检查组织', isTree: true, treeFieldname: 'org_name', treeParentIdField: 'pid', fields: [row('org_name', '名称', { fieldMustInput: '1' })] });
    expect(r.success).toBe(true);
    expect((await get(`online/cgform/api/syncPlan/${r.result}`)).result.steps[0]).toContain('父级节点（pid，文本，长度 32）、是否有子节点（has_child，文本，长度 3）');
    expect((await sync('form_org')).success).toBe(true);
    const cols = (await get('online/cgform/api/getColumns/form_org')).result;
    expect(cols.tree).toEqual({ parentField: 'pid', hasChildField: 'hasChild', nameField: 'orgName' });
    expect(cols.formFields.map((f: { field: string }) => f.field)).toEqual(['orgName']);

    const root = (await post('online/cgform/api/form/form_org', { orgName: '教务处' })).result;
    await post('online/cgform/api/form/form_org', { orgName: '教学科', pid: root });
    const roots = (await get('online/cgform/api/getData/form_org?pid=0')).result.records;
    expect(roots).toEqual([expect.objectContaining({ orgName: '教务处', hasChild: '1', pid: '0' })]);
    expect((await get(`online/cgform/api/getData/form_org?pid=${root}`)).result.records.map((x: { orgName: string }) => x.orgName)).toEqual(['教学科']);
    expect((await s.del(`online/cgform/api/form/form_org/${root}`, s.tok.admin)).json()).toMatchObject({ success: false, message: '该节点下还有子节点，请先删除子节点' });
  });
});

describe('indexes', () => {
  let headId = '';
  it('are defined over one or more fields, described in words and applied additively', async () => {
    const r = await post('online/cgform/api/define', {
      tableName: 'form_room', tableTxt: '检查教室',
      fields: [row('room_no', '教室编号'), row('campus', '校区'), row('floor', '楼层', { dbType: 'int' })],
      indexes: [{ indexName: '教室唯一', indexField: 'campus，room_no', indexType: 'unique' }],
    });
    expect(r.success).toBe(true);
    headId = r.result;
    expect((await get(`online/cgform/api/syncPlan/${headId}`)).result.steps).toContain('新建唯一索引（校区、教室编号）');
    expect((await sync('form_room')).success).toBe(true);
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'form_room' and indexname like 'ux_%'`.execute(s.running.ctx.db);
    expect(rows[0]!.indexdef).toContain('(campus, room_no)');
    expect((await get(`online/cgform/api/syncPlan/${headId}`)).result.steps).toEqual(['数据库表已是最新，无需变更']);
    expect(await post('online/cgform/api/define', { tableName: 'form_x1', tableTxt: 'x', fields: [row('a', 'A')], indexes: [{ indexField: 'b' }] })).toMatchObject({ success: false, message: '索引“索引1”的字段“b”不在表单字段中' });
  });

  it('a unique violation is a clear Chinese error', async () => {
    expect((await post('online/cgform/api/form/form_room', { roomNo: '101', campus: '东区' })).success).toBe(true);
    expect((await post('online/cgform/api/form/form_room', { roomNo: '101', campus: '西区' })).success).toBe(true);
    expect(await post('online/cgform/api/form/form_room', { roomNo: '101', campus: '东区' })).toMatchObject({ success: false, message: '检查教室中已存在校区为“东区”、教室编号为“101”的记录，不能重复' });
  });

  it('a new unique index over duplicated data is refused in the plan', async () => {
    const def = (await get(`online/cgform/api/versions/${headId}`)).result[0].definition;
    const edited = await put('online/cgform/api/define', { id: headId, tableName: 'form_room', tableTxt: '检查教室', fields: def.fields, indexes: [...def.indexes, { indexName: '编号', indexField: 'room_no', indexType: 'unique' }, { indexName: '楼层', indexField: 'floor' }] });
    expect(edited.success).toBe(true);
    const plan = (await get(`online/cgform/api/syncPlan/${headId}`)).result;
    expect(plan.allowed).toBe(false);
    expect(plan.steps).toEqual(['新建普通索引（楼层）', '不能执行：已有数据中教室编号存在重复值，无法建立唯一索引，请先修正数据']);
    // the versions list (版本 of 表单开发) and rollback to the first version
    const list = (await get(`online/cgform/api/versionList?headId=${headId}`)).result;
    expect(list.records.map((v: { version: number; current: string; indexCount: number }) => [v.version, v.current, v.indexCount])).toEqual([[2, '当前', 3], [1, '', 1]]);
    expect((await post(`online/cgform/api/rollback/${headId}/1`, {})).success).toBe(true);
    expect((await get(`online/cgform/api/syncPlan/${headId}`)).result.steps).toEqual(['数据库表已是最新，无需变更']);
  });
});

describe('export and import as a file', () => {
  const upload = (name: string, text: string) => s.call({ method: 'POST', url: 'online/cgform/api/importDefinitionFile', token: s.tok.admin, ...multipart([{ name, data: Buffer.from(text) }]) });

  it('exports a main table with its sub-tables as JSON and imports it under new names', async () => {
    const file = await s.get('online/cgform/api/exportDefinitionFile/form_insp', s.tok.admin);
    expect(file.headers['content-disposition']).toContain('form_insp.json');
    const text = file.body;
    expect(JSON.parse(text)).toMatchObject({ format: 'online-form', head: { tableName: 'form_insp' }, subTables: [{ head: { tableName: 'form_insp_item' } }] });
    expect((await upload('form_insp.json', text)).json()).toMatchObject({ success: false, message: '数据库中已存在表“form_insp”，请换一个表名' });
    const r = (await upload('copy.json', text.replaceAll('form_insp', 'form_insp2'))).json();
    expect(r).toMatchObject({ success: true, message: '导入成功（含 1 个附表），请同步数据库' });
    const sub = (await get('online/cgform/api/exportDefinition/form_insp2_item')).result;
    expect(sub.fields.find((f: { mainTable?: string }) => f.mainTable)).toMatchObject({ mainTable: 'form_insp2' });
  });

  it('refuses unknown or unsafe content with a Chinese message, importing nothing', async () => {
    const base = { format: 'online-form', head: { tableName: 'form_evil', tableTxt: '坏' }, fields: [{ dbFieldName: 'a', dbFieldTxt: 'A', dbType: 'string' }] };
    const refused = async (body: unknown, name = 'x.json') => (await upload(name, typeof body === 'string' ? body : JSON.stringify(body))).json();
    expect(await refused({ ...base, head: { ...base.head, id: 'x', isDbSynch: 'Y' } })).toMatchObject({ success: false, message: '导入的定义不正确：定义.head.id 是未知内容，未导入任何内容' });
    expect(await refused({ ...base, fields: [{ ...base.fields[0], enhanceJs: 'alert(1)' }] })).toMatchObject({ success: false, message: '导入的定义不正确：定义.fields[0].enhanceJs 是未知内容，未导入任何内容' });
    expect(await refused({ ...base, fields: [{ ...base.fields[0], dbFieldTxt: { $gt: 1 } }] })).toMatchObject({ success: false, message: '导入的定义不正确：定义.fields[0].dbFieldTxt 应为文本、数字或是否，未导入任何内容' });
    expect(await refused({ ...base, head: { tableName: 'sys_user', tableTxt: 'x' } })).toMatchObject({ success: false, message: expect.stringContaining('系统保留') });
    expect(await refused({ ...base, fields: [{ dbFieldName: 'a;drop table x', dbFieldTxt: 'A', dbType: 'string' }] })).toMatchObject({ success: false, message: expect.stringContaining('字段名') });
    expect(await refused({ ...base, subTables: [{ head: { tableName: 'form_evil_s', tableTxt: 's' }, fields: [{ dbFieldName: 'b', dbFieldTxt: 'B', dbType: 'string' }] }] })).toMatchObject({ success: false, message: '导入的定义不正确：附表“form_evil_s”没有外键字段' });
    expect(await refused('{not json')).toMatchObject({ success: false, message: '文件不是有效的 JSON，未导入任何内容' });
    expect(await refused(base, 'x.exe')).toMatchObject({ success: false, message: '文件“x.exe”不是 JSON 文件，只支持 .json' });
    expect((await get('online/cgform/head/list?tableName=form_evil')).result.total).toBe(0);
  });
});
