import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { newId } from '../../server/util.js';

const s = fileTestServer(['admin']);

const get = async (url: string) => (await s.get(url, s.tok.admin)).json();

describe('dictionaries', () => {
  it('serves system dictionaries', async () => {
    const b = await get('sys/dict/getDictItems/sex');
    expect(b.success).toBe(true);
    expect(b.result).toEqual(expect.arrayContaining([{ value: '1', text: '男', title: '男', label: '男' }]));
    expect((await get('sys/dict/getDictItems/no_such_dict')).result).toEqual([]);
    const all = await get('sys/dict/queryAllDictItems');
    expect(all.result.sex).toHaveLength(2);
    expect((await get('sys/dict/refleshCache')).success).toBe(true);
    expect((await get('sys/dict/getDictText/sex/2')).result).toBe('女');
  });

  it('shows a dictionary change at once: CRUD writes clear the cache, 刷新缓存 picks up direct changes', async () => {
    const items = await get('sys/dictItem/list?pageSize=50&dictId=' + (await get('sys/dict/list?dictCode=sex')).result.records[0].id);
    const female = items.result.records.find((i: { itemValue: string }) => i.itemValue === '2');
    expect((await get('sys/dict/getDictText/sex/2')).result).toBe('女');
    expect((await (await s.put('sys/dictItem/edit', { ...female, itemText: '女性' }, s.tok.admin)).json()).success).toBe(true);
    expect((await get('sys/dict/getDictText/sex/2')).result).toBe('女性');
    // A change made behind the engine's back (e.g. another tool) shows after 刷新缓存.
    await s.running.ctx.db.updateTable('sys_dict_item').set({ item_text: '女' }).where('id', '=', female.id).execute();
    expect((await get('sys/dict/refleshCache')).message).toBe('刷新缓存完成！');
    expect((await get('sys/dict/queryAllDictItems')).result.sex.find((i: { value: string }) => i.value === '2').text).toBe('女');
  });

  it('serves declared table dictionaries only, and refuses SQL conditions', async () => {
    const ok = await get('sys/dict/getDictItems/sys_depart,depart_name,org_code');
    expect(ok.success).toBe(true);
    expect(ok.result.length).toBeGreaterThan(0);
    expect(ok.result[0]).toHaveProperty('text');
    expect(await get(`sys/dict/getDictItems/${encodeURIComponent('sys_user,password,username')}`)).toMatchObject({ success: false, message: expect.stringContaining('未在实体中声明') });
    expect(await get(`sys/dict/getDictItems/${encodeURIComponent("sys_depart,depart_name,org_code,1=1 or '1'='1'")}`)).toMatchObject({ success: false, message: expect.stringContaining('字典Code格式不正确') });
    expect(await get(`sys/dict/getDictItems/${encodeURIComponent('sys_depart where 1=1,depart_name,org_code')}`)).toMatchObject({ success: false });
    expect(await get(`sys/dict/getDictItems/${encodeURIComponent("sex' or 1=1--")}`)).toMatchObject({ success: false });
  });

  it('lists a table dictionary in its entity\'s list order (terms newest first), not by id', async () => {
    // Past terms added after the seeded ones: their ids say nothing about their dates.
    const db = s.running.ctx.db;
    await db.insertInto('sup_term').values(['2023-2024-1', '2024-2025-2', '2023-2024-2', '2024-2025-1'].map((code) => {
      const [y0, y1, n] = code.split('-');
      return { id: newId(), code, name: `${y0}-${y1}学年第${n === '1' ? '一' : '二'}学期`, school_year: `${y0}-${y1}`, term_no: Number(n), start_date: n === '1' ? `${y0}-09-01` : `${y1}-03-01`,
        end_date: n === '1' ? `${y1}-01-15` : `${y1}-07-05`, week_count: 18, is_current: false, create_by: 'test', create_time: '2026-11-01 00:00:00' };
    })).execute();
    const byStart = (await db.selectFrom('sup_term').select('name').orderBy('start_date', 'desc').execute()).map((r) => String(r.name));
    expect(byStart.length).toBeGreaterThanOrEqual(6);
    const texts = (r: { result: Array<{ text: string }> }) => r.result.map((t) => t.text);
    expect(texts(await get('sys/dict/getDictItems/sup_term,name,id'))).toEqual(byStart);
    expect(texts(await get(`sys/dict/loadDict/sup_term,name,id?keyword=${encodeURIComponent('学年')}`))).toEqual(byStart);
  });

  it('searches with loadDict and translates with loadDictItem', async () => {
    const all = await get('sys/dict/getDictItems/sys_depart,depart_name,org_code');
    const first = all.result[0];
    const found = await get(`sys/dict/loadDict/sys_depart,depart_name,org_code?keyword=${encodeURIComponent(first.text.slice(0, 2))}`);
    expect(found.result.length).toBeGreaterThan(0);
    expect(found.result.length).toBeLessThanOrEqual(10);
    expect(found.result.some((x: { value: string }) => x.value === first.value)).toBe(true);
    expect((await get('sys/dict/loadDict/sys_depart,depart_name,org_code?pageSize=2')).result).toHaveLength(2);
    expect((await get(`sys/dict/loadDict/sys_depart,depart_name,org_code?keyword=${encodeURIComponent('%')}`)).result).toEqual([]);
    const texts = await get(`sys/dict/loadDictItem/sys_depart,depart_name,org_code?key=${first.value},NOPE`);
    expect(texts.result).toEqual([first.text]);
    expect((await get('sys/dict/loadDictItem/sex?key=1,2')).result).toEqual(['男', '女']);
  });

  it('loads tree data only from tree entities with allow-listed columns and conditions', async () => {
    const roots = await get('sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=');
    expect(roots.success).toBe(true);
    expect(roots.result.length).toBeGreaterThan(0);
    const withKids = roots.result.find((n: { isLeaf: boolean }) => !n.isLeaf);
    if (withKids) {
      const kids = await get(`sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=${withKids.key}`);
      expect(kids.result.every((n: { parentId: string }) => n.parentId === withKids.key)).toBe(true);
    }
    expect(await get('sys/dict/loadTreeData?tableName=sys_user&text=password&code=id&pidField=id')).toMatchObject({ success: false });
    expect(await get('sys/dict/loadTreeData?tableName=sys_depart&text=pg_sleep(5)&code=id&pidField=parent_id')).toMatchObject({ success: false });
    const cond = encodeURIComponent(JSON.stringify({ memo: 'x' }));
    expect(await get(`sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&condition=${cond}`)).toMatchObject({ success: false, message: '查询条件不支持字段“memo”' });
    expect(await get('sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&condition=not-json')).toMatchObject({ success: false, message: '组件JTreeSelect-condition传值有误，需要一个json字符串!' });
  });
});

describe('category tree', () => {
  it('adds a tree and loads roots, children, one node and names', async () => {
    expect((await s.post('sys/category/add', { name: '学科', code: 'C_SUBJ' }, s.tok.admin)).json().success).toBe(true);
    const root = (await get('sys/category/loadOne?field=code&val=C_SUBJ')).result;
    expect(root).toMatchObject({ name: '学科', code: 'C_SUBJ', pid: '0' });
    await s.post('sys/category/add', { name: '理学', code: 'C_SUBJ_01', pid: root.id }, s.tok.admin);
    await s.post('sys/category/add', { name: '工学', code: 'C_SUBJ_02', pid: root.id }, s.tok.admin);
    const roots = await get('sys/category/loadTreeRoot?async=true&pcode=0');
    const node = roots.result.find((n: { code: string }) => n.code === 'C_SUBJ');
    expect(node).toMatchObject({ key: root.id, title: '学科', isLeaf: false });
    const kids = await get(`sys/category/loadTreeChildren?pid=${root.id}`);
    expect(kids.result.map((n: { title: string }) => n.title).sort()).toEqual(['工学', '理学']);
    const under = await get('sys/category/loadTreeRoot?async=true&pcode=C_SUBJ');
    expect(under.result).toHaveLength(2);
    const names = await get(`sys/category/loadDictItem?ids=${kids.result[0].key},${kids.result[1].key}`);
    expect(names.result.sort()).toEqual(['工学', '理学']);
    expect(await get('sys/category/loadOne?field=name;drop&val=x')).toMatchObject({ success: false });
    expect(await get('sys/category/loadTreeRoot?pcode=NOPE')).toMatchObject({ success: false, message: '分类编码“NOPE”不存在' });
    // A node with children stays; once its last child goes, it is a leaf again.
    expect((await s.del(`sys/category/delete?id=${root.id}`, s.tok.admin)).json()).toMatchObject({ success: false, message: '该分类下还有子节点，请先删除子节点' });
    for (const k of kids.result as Array<{ key: string }>) expect((await s.del(`sys/category/delete?id=${k.key}`, s.tok.admin)).json().success).toBe(true);
    const after = (await get('sys/category/loadTreeRoot?async=true&pcode=0')).result.find((n: { code: string }) => n.code === 'C_SUBJ');
    expect(after).toMatchObject({ key: root.id, isLeaf: true });
  });
});

describe('duplicate check and check rules', () => {
  it('checks duplicates on allow-listed tables and fields', async () => {
    expect(await get('sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=admin')).toMatchObject({ success: false, message: '该值不可用，系统中已存在！' });
    expect(await get('sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=nobody_here')).toMatchObject({ success: true, message: '该值可用！' });
    const adminId = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirst())!.id;
    expect(await get(`sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=admin&dataId=${adminId}`)).toMatchObject({ success: true });
    expect(await get('sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=')).toMatchObject({ success: true, code: 500, message: '数据为空,不作处理！' });
    expect(await get('sys/duplicate/check?tableName=sys_user&fieldName=password&fieldVal=x')).toMatchObject({ success: false, message: '不支持对该表或字段做重复校验' });
    expect(await get('sys/duplicate/check?tableName=pg_user&fieldName=usename&fieldVal=x')).toMatchObject({ success: false, message: '不支持对该表或字段做重复校验' });
  });

  it('checks values against stored rules (digits consumed in turn)', async () => {
    const ruleJson = JSON.stringify([{ digits: 2, pattern: '^[A-Z]+$', message: '前两位必须是大写字母' }, { digits: '*', pattern: '^\\d+$', message: '其余必须是数字' }]);
    expect((await s.post('sys/checkRule/add', { ruleName: '工号', ruleCode: 'work_no', ruleJson }, s.tok.admin)).json().success).toBe(true);
    expect((await s.post('sys/checkRule/add', { ruleName: '坏', ruleCode: 'bad_rule', ruleJson: '{"x":1}' }, s.tok.admin)).json()).toMatchObject({ success: false, message: '校验规则JSON必须是数组' });
    expect(await get('sys/checkRule/checkByCode?ruleCode=work_no&value=AB123')).toMatchObject({ success: true });
    expect(await get('sys/checkRule/checkByCode?ruleCode=work_no&value=ab123')).toMatchObject({ success: false, message: '前两位必须是大写字母', result: { beginIndex: 0, endIndex: 2, checkValue: 'ab', passed: false } });
    expect(await get('sys/checkRule/checkByCode?ruleCode=work_no&value=AB12x')).toMatchObject({ success: false, message: '其余必须是数字' });
    expect(await get('sys/checkRule/checkByCode?ruleCode=nope&value=1')).toMatchObject({ success: false, message: '该编码不存在' });
  });
});

describe('fill rules', () => {
  it('hands out consecutive numbers per day', async () => {
    const { nextNumber } = await import('../../server/crud/fill-rule.js');
    const ctx = s.running.ctx;
    const a = await nextNumber(ctx, 'test_no');
    const b = await nextNumber(ctx, 'test_no');
    expect(a).toMatch(/^TEST_NO\d{8}0001$/);
    expect(b).toBe(a.replace(/0001$/, '0002'));
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => nextNumber(ctx, 'test_no')));
    expect(new Set(all).size).toBe(5);
    // a rolled-back transaction gives its number back
    await ctx.db.transaction().execute(async (trx) => {
      await nextNumber(ctx, 'test_no', trx);
      throw new Error('rollback');
    }).catch(() => undefined);
    expect(await nextNumber(ctx, 'test_no')).toMatch(/0008$/);
  });
});
