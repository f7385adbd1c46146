import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

/** Online forms authored in the browser (issue 31): the change in words, additive only, versions and rollback, export / import, copy. */
const s = fileTestServer(['admin', 'teacher']);

const get = async (url: string, token = s.tok.admin) => (await s.get(url, token)).json();
const field = (dbFieldName: string, dbFieldTxt: string, dbType: string, more: Record<string, unknown> = {}) => ({ dbFieldName, dbFieldTxt, dbType, dbLength: 50, isShowList: 1, isShowForm: 1, ...more });

describe('online form definitions', () => {
  let headId = '';
  const fields = [field('check_item', '检查项目', 'string', { fieldMustInput: '1', isQuery: 1 }), field('result', '检查结果', 'string', { dictField: 'yn' })];

  it('describes the database change in words before it is applied, additive only', async () => {
    const r = (await s.post('online/cgform/api/addAll', { head: { tableName: 'form_check', tableTxt: '教学检查记录' }, fields }, s.tok.admin)).json();
    expect(r.success).toBe(true);
    headId = r.result;
    const plan = (await get(`online/cgform/api/syncPlan/${headId}`)).result;
    expect(plan).toMatchObject({ allowed: true });
    expect(plan.steps[0]).toMatch(/^新建数据表 form_check（教学检查记录），字段：.*检查项目（check_item，文本，长度 50，必填）/);
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/normal`, {}, s.tok.admin)).json().success).toBe(true);
    expect((await get(`online/cgform/api/syncPlan/${headId}`)).result.steps).toEqual(['数据库表已是最新，无需变更']);
    await s.post('online/cgform/api/form/form_check', { checkItem: '教案', result: 'Y' }, s.tok.admin);

    // edit: one field removed, one added, one widened
    const edited = [field('check_item', '检查项目', 'string', { dbLength: 100, fieldMustInput: '1' }), field('checker', '检查人', 'string')];
    expect((await s.put('online/cgform/api/editAll', { head: { id: headId, tableTxt: '教学检查记录' }, fields: edited }, s.tok.admin)).json().success).toBe(true);
    const steps = (await get(`online/cgform/api/syncPlan/${headId}`)).result.steps as string[];
    expect(steps).toEqual(expect.arrayContaining(['加宽字段 检查项目（check_item，文本，长度 100，必填）（不丢失数据）', '新增字段 检查人（checker，文本，长度 50）', '字段 result 已从表单中移除：仅隐藏，数据库中的列和数据保留']));
    expect((await s.post(`online/cgform/api/doDbSynch/${headId}/normal`, {}, s.tok.admin)).json().success).toBe(true);
    const { rows } = await sql<{ result: string }>`select result from form_check`.execute(s.running.ctx.db);
    expect(rows[0]!.result).toBe('Y'); // the removed field's data is still there

    // narrowing is named and refused
    await s.put('online/cgform/api/editAll', { head: { id: headId }, fields: [field('check_item', '检查项目', 'string', { dbLength: 10 })] }, s.tok.admin);
    const refused = (await get(`online/cgform/api/syncPlan/${headId}`)).result;
    expect(refused.allowed).toBe(false);
    expect(refused.steps[0]).toContain('不能执行：字段 检查项目（check_item）的变更会丢失数据');
  });

  it('versions every saved definition and rolls back', async () => {
    const versions = (await get(`online/cgform/api/versions/${headId}`)).result as Array<{ version: number; definition: { fields: Array<{ dbFieldName: string }> } }>;
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions[2]!.definition.fields.map((f) => f.dbFieldName)).toEqual(['check_item', 'result']);
    expect((await s.post(`online/cgform/api/rollback/${headId}/2`, {}, s.tok.admin)).json()).toMatchObject({ success: true, message: '已回滚到版本 2，请同步数据库' });
    const fieldsNow = (await get(`online/cgform/field/listByHeadId?headId=${headId}`)).result as Array<{ dbFieldName: string; dbLength: number }>;
    expect(fieldsNow.map((f) => [f.dbFieldName, f.dbLength])).toEqual([['check_item', 100], ['checker', 50]]);
    expect((await get(`online/cgform/api/versions/${headId}`)).result[0]).toMatchObject({ version: 4, note: '回滚到版本 2' });
    expect((await s.post(`online/cgform/api/rollback/${headId}/99`, {}, s.tok.admin)).json()).toMatchObject({ success: false, message: '版本不存在' });
  });

  it('exports, imports and copies a definition as JSON', async () => {
    const def = (await get('online/cgform/api/exportDefinition/form_check')).result;
    expect(def.head).toEqual(expect.objectContaining({ tableName: 'form_check', tableTxt: '教学检查记录' }));
    expect(def.head.id).toBeUndefined();
    expect(def.fields.map((f: { dbFieldName: string }) => f.dbFieldName)).toEqual(['check_item', 'checker']);
    expect((await s.post('online/cgform/api/importDefinition', def, s.tok.admin)).json()).toMatchObject({ success: false, message: expect.stringContaining('form_check') });
    const imported = (await s.post('online/cgform/api/importDefinition', { ...def, head: { ...def.head, tableName: 'form_check_b' } }, s.tok.admin)).json();
    expect(imported.success).toBe(true);
    const copy = (await s.post('online/cgform/api/copy/form_check', { tableName: 'form_check_c' }, s.tok.admin)).json();
    expect(copy.success).toBe(true);
    const copied = (await get(`online/cgform/api/exportDefinition/${copy.result}`)).result;
    expect(copied.head).toMatchObject({ tableName: 'form_check_c', tableTxt: '教学检查记录（复制）' });
    expect(copied.fields).toEqual(def.fields);
    expect((await get(`online/cgform/api/versions/${copy.result}`)).result[0]).toMatchObject({ version: 1, note: '复制自 form_check' });
  });

  it('defines a form from the 新增 dialog (flat head, editable-table rows) and gives the synced form its menu entry', async () => {
    const r = (await s.post('online/cgform/api/define', { tableName: 'form_define', tableTxt: '定义测试', id: 'forged', fields: [{ dbFieldName: 'title', dbFieldTxt: '标题', fieldMustInput: '1', isQuery: '1' }, { dbFieldName: '' }] }, s.tok.admin)).json();
    expect(r.success).toBe(true);
    const def = (await get(`online/cgform/api/exportDefinition/${r.result}`)).result;
    expect(def.fields).toEqual([expect.objectContaining({ dbFieldName: 'title', dbType: 'string', dbLength: 50, fieldMustInput: '1', isQuery: 1, isShowList: 1, isShowForm: 1 })]);
    expect((await s.post(`online/cgform/api/doDbSynch/${r.result}/normal`, {}, s.tok.admin)).json().success).toBe(true);
    const menu = async (token: string) => JSON.stringify((await get('sys/permission/getUserPermissionByToken', token)).result);
    expect(await menu(s.tok.admin)).toContain('/online/cgformList/form_define');
    expect(await menu(s.tok.teacher)).not.toContain('/online/cgformList/form_define');
    // a second sync does not add a second entry
    await s.post(`online/cgform/api/doDbSynch/${r.result}/normal`, {}, s.tok.admin);
    const n = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('url', '=', '/online/cgformList/form_define').execute();
    expect(n).toHaveLength(1);
  });

  it('refuses a teacher', async () => {
    for (const url of [`online/cgform/api/syncPlan/${headId}`, `online/cgform/api/versions/${headId}`, 'online/cgform/api/exportDefinition/form_check'])
      expect(await get(url, s.tok.teacher)).toMatchObject({ success: false, code: 510 });
    expect((await s.post('online/cgform/api/copy/form_check', { tableName: 'form_x' }, s.tok.teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.post('online/cgform/api/define', { tableName: 'form_x' }, s.tok.teacher)).json()).toMatchObject({ success: false, code: 510 });
  });
});
