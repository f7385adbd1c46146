import { describe, expect, it } from 'vitest';
import { parsePlainValue, plainConditions, superConditions, parseSort, parsePaging, escapeLike, coerce } from '../../server/crud/query.js';
import { dataRuleConditions, resolveRuleValue } from '../../server/crud/data-rules.js';
import type { EntitySchema } from '../../server/crud/entity-types.js';

const e: EntitySchema = {
  name: 'demo', table: 'demo', title: '示例',
  fields: [
    { name: 'id', type: 'string', length: 32, primary: true },
    { name: 'name', type: 'string', length: 50, title: '名称', filterable: true, sortable: true },
    { name: 'age', type: 'integer', title: '年龄', filterable: true, sortable: true },
    { name: 'sex', type: 'integer', dict: 'sex', filterable: true, sortable: true },
    { name: 'birthday', type: 'date', title: '生日', filterable: true },
    { name: 'visit', type: 'datetime', title: '拜访', filterable: true },
    { name: 'secretNote', type: 'string', length: 10, secret: true, filterable: true, sortable: true },
    { name: 'memo', type: 'text' },
    { name: 'orgCode', type: 'string', length: 64, filterable: true },
  ],
  defaultSort: { field: 'age', order: 'desc' },
};

describe('plain parameter rules', () => {
  it.each([
    ['*abc*', 'like', 'abc'],
    ['*abc', 'left_like', 'abc'],
    ['abc*', 'right_like', 'abc'],
    ['*', 'eq', '*'],
    ['a,b,c', 'in', ['a', 'b', 'c']],
    ['!abc', 'ne', 'abc'],
    ['>= 5', 'ge', '5'],
    ['<= 5', 'le', '5'],
    ['> 5', 'gt', '5'],
    ['< 5', 'lt', '5'],
    ['!= x', 'ne', 'x'],
    ['a++b', 'eq', 'a,b'],
    [',1,3,', 'like_any', ['1', '3']],
    ['plain', 'eq', 'plain'],
    ['>=5', 'eq', '>=5'],
  ])('%s → %s', (raw, rule, value) => {
    expect(parsePlainValue(raw)).toEqual({ rule, value });
  });

  it('types values and ranges, ignores unknown and secret fields', () => {
    const c = plainConditions(e, { name: '*王*', age: '>= 18', birthday_begin: '2000-01-01', visit_end: '2026-11-21', secretNote: 'x', memo: 'y', nosuch: 'z', pageNo: '1' });
    expect(c.map((x) => [x.field.name, x.rule, x.value])).toEqual([
      ['name', 'like', '王'],
      ['age', 'ge', 18],
      ['birthday', 'ge', '2000-01-01'],
      ['visit', 'le', '2026-11-21 23:59:59'],
    ]);
    expect(plainConditions(e, { visit_begin: '2026-11-21' })[0]!.value).toBe('2026-11-21 00:00:00');
    expect(plainConditions(e, { sex_MultiString: '1,2' })[0]).toMatchObject({ rule: 'in', value: [1, 2] });
  });

  it('refuses values of the wrong type with the field named', () => {
    expect(() => plainConditions(e, { age: 'abc' })).toThrow('“年龄”的值“abc”不是有效的整数');
    expect(() => plainConditions(e, { birthday: '21/11/2026' })).toThrow('生日');
    expect(() => coerce({ name: 'n', type: 'number' }, 'NaN')).toThrow();
  });

  it('escapes like wildcards', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });
});

describe('super query', () => {
  const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  it('parses allowed fields and rules, drops incomplete conditions', () => {
    const r = superConditions(e, { superQueryParams: enc([{ field: 'age', rule: 'gt', val: '3', type: 'int' }, { field: 'name', rule: 'in', val: 'a,b' }, { field: 'name', rule: 'eq', val: '' }]), superQueryMatchType: 'or' });
    expect(r.match).toBe('or');
    expect(r.conditions.map((c) => [c.field.name, c.rule, c.value])).toEqual([['age', 'gt', 3], ['name', 'in', ['a', 'b']]]);
  });
  it('refuses unknown fields, rules, match types and bad JSON', () => {
    expect(() => superConditions(e, { superQueryParams: enc([{ field: 'memo', rule: 'eq', val: 'x' }]) })).toThrow('高级查询不支持字段“memo”');
    expect(() => superConditions(e, { superQueryParams: enc([{ field: 'secretNote', rule: 'eq', val: 'x' }]) })).toThrow('不支持字段');
    expect(() => superConditions(e, { superQueryParams: enc([{ field: 'name', rule: 'ext', val: '1=1' }]) })).toThrow('高级查询不支持规则“ext”');
    expect(() => superConditions(e, { superQueryParams: enc([{ field: 'name', rule: 'eq', val: 'x' }]), superQueryMatchType: 'xor' })).toThrow();
    expect(() => superConditions(e, { superQueryParams: '{bad' })).toThrow('JSON');
    expect(() => superConditions(e, { superQueryParams: enc({ field: 'name' }) })).toThrow('JSON 数组');
  });
});

describe('sort and paging', () => {
  it('sorts only on sortable, non-secret fields; dictText maps back', () => {
    expect(parseSort(e, {}).map((s) => [s.field.name, s.order])).toEqual([['age', 'desc']]);
    expect(parseSort(e, { column: 'sex_dictText', order: 'asc' }).map((s) => s.field.name)).toEqual(['sex']);
    expect(parseSort(e, { column: 'name,age', order: 'asc' })).toHaveLength(2);
    expect(parseSort(e, { column: 'createTime' }).map((s) => s.field.name)).toEqual(['createTime']);
    expect(parseSort({ ...e, audit: false }, { column: 'createTime' })).toEqual([]); // the client default, tolerated without audit fields
    expect(() => parseSort(e, { column: 'memo' })).toThrow('不支持按“memo”排序');
    expect(() => parseSort(e, { column: 'secretNote' })).toThrow();
    expect(() => parseSort(e, { column: 'name', order: 'asc;drop' })).toThrow();
  });
  it('validates paging', () => {
    expect(parsePaging({})).toEqual({ pageNo: 1, pageSize: 10 });
    expect(parsePaging({ pageNo: '3', pageSize: '1000' })).toEqual({ pageNo: 3, pageSize: 1000 });
    expect(() => parsePaging({ pageSize: '1001' })).toThrow('不能超过1000');
    expect(() => parsePaging({ pageNo: 'x' })).toThrow('pageNo');
    expect(() => parsePaging({ pageNo: '0' })).toThrow();
    expect(() => parsePaging({ pageSize: '2.5' })).toThrow();
  });
});

describe('data rules', () => {
  const user = { username: 'zhang', orgCode: 'A01A02' };
  it('resolves system variables', () => {
    expect(resolveRuleValue('#{sys_org_code}', user)).toBe('A01A02');
    expect(resolveRuleValue('#{sys_user_code}', user)).toBe('zhang');
    expect(resolveRuleValue('#{sys_date}', user)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(resolveRuleValue('#{sys_time}', user)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(resolveRuleValue('#{unknown}', user)).toBeUndefined();
  });
  it('turns rules into conditions and denies what cannot be applied safely', () => {
    const c = dataRuleConditions(e, [
      { ruleColumn: 'orgCode', ruleConditions: 'RIGHT_LIKE', ruleValue: '#{sys_org_code}' },
      { ruleColumn: 'org_code', ruleConditions: '=', ruleValue: 'A01' },
      { ruleColumn: 'age', ruleConditions: 'IN', ruleValue: '1,2' },
      { ruleColumn: 'age', ruleConditions: '>=', ruleValue: '18' },
    ], user);
    expect(c.map((x) => (x === 'deny' ? x : [x.field.name, x.rule, x.value]))).toEqual([
      ['orgCode', 'right_like', 'A01A02'],
      ['orgCode', 'eq', 'A01'],
      ['age', 'in', [1, 2]],
      ['age', 'ge', 18],
    ]);
    const denied = dataRuleConditions(e, [
      { ruleColumn: 'orgCode', ruleConditions: 'USE_SQL_RULES', ruleValue: '1=1' },
      { ruleColumn: 'nosuch', ruleConditions: '=', ruleValue: 'x' },
      { ruleColumn: 'secretNote', ruleConditions: '=', ruleValue: 'x' },
      { ruleColumn: 'age', ruleConditions: '=', ruleValue: 'abc' },
      { ruleColumn: 'name', ruleConditions: '=', ruleValue: '#{sys_password}' },
    ], user);
    expect(denied).toEqual(['deny', 'deny', 'deny', 'deny', 'deny']);
  });
});
