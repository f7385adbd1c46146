import { beforeEach, describe, expect, it } from 'vitest';
import { buildQuery, changeRule, chooseField, deleteSaved, isActive, loadSaved, saveQuery, valueOf, valueWidgetOf } from './query';

describe('query builder rules', () => {
  beforeEach(() => localStorage.clear());
  it('copies field details and clears the value', () => {
    const r = chooseField({ field: 'a', rule: 'like', val: 'x' }, { value: 'sex', text: '性别', type: 'list', dictCode: 'sex' });
    expect(r).toMatchObject({ field: 'sex', rule: 'like', type: 'list', dictCode: 'sex', val: undefined });
  });
  it('only in keeps several values; leaving in keeps the first', () => {
    expect(valueOf('in', ['1', '2'])).toBe('1,2');
    expect(valueOf('eq', ['1', '2'])).toBe('1');
    expect(changeRule({ field: 'a', rule: 'in', val: '1,2' }, 'eq').val).toBe('1');
    expect(changeRule({ field: 'a', rule: 'eq', val: '1,2' }, 'in').val).toBe('1,2');
  });
  it('value widgets by type', () => {
    expect(valueWidgetOf('sel_search')).toBe('dictSearch');
    expect(valueWidgetOf('list_multi')).toBe('dictMulti');
    expect(valueWidgetOf('pca')).toBe('area');
    expect(valueWidgetOf('int')).toBe('number');
    expect(valueWidgetOf('switch')).toBe('switch');
    expect(valueWidgetOf('string')).toBe('input');
  });
  it('empty conditions', () => {
    expect(() => buildQuery([], 'and')).toThrow('不能查询空条件');
    expect(() => buildQuery([{ field: 'a', rule: 'eq', val: '' }], 'and')).toThrow('不能查询空条件');
    expect(buildQuery([{ field: 'a', rule: 'eq', val: '1' }], 'or')).toEqual({ matchType: 'or', params: [{ field: 'a', rule: 'eq', val: '1' }] });
    expect(isActive([])).toBe(false);
  });
  it('saved queries per page path with overwrite confirm', async () => {
    const rows = [{ field: 'a', rule: 'eq' as const, val: '1' }];
    await expect(saveQuery('/p', 'x', 'and', [], async () => true)).rejects.toThrow('空条件不能保存');
    await expect(saveQuery('/p', ' ', 'and', rows, async () => true)).rejects.toThrow('保存名称不能为空');
    expect(await saveQuery('/p', 'q1', 'and', rows, async () => true)).toBe(true);
    let asked = '';
    expect(await saveQuery('/p', 'q1', 'or', rows, async (m) => ((asked = m), false))).toBe(false);
    expect(asked).toBe('q1 已存在，是否覆盖？');
    expect(loadSaved('/p')[0]?.matchType).toBe('and');
    await saveQuery('/p', 'q1', 'or', rows, async () => true);
    expect(loadSaved('/p')).toHaveLength(1);
    expect(loadSaved('/p')[0]?.matchType).toBe('or');
    expect(loadSaved('/other')).toEqual([]);
    deleteSaved('/p', 'q1');
    expect(loadSaved('/p')).toEqual([]);
  });
});
