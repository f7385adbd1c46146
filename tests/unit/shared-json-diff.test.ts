import { describe, expect, it } from 'vitest';
import { jsonDiff, jsonMerge3 } from '@shared/json-diff';

describe('jsonDiff', () => {
  it('lists added, removed and changed values at their JSON paths', () => {
    const a = { title: 'A', columns: [{ dataIndex: 'x', title: 'X' }, { dataIndex: 'y' }], 'a/b': 1 };
    const b = { title: 'B', columns: [{ dataIndex: 'x', title: 'X2', sorter: true }], extra: [1] };
    expect(jsonDiff(a, b)).toEqual([
      { path: '/title', kind: 'changed', before: 'A', after: 'B' },
      { path: '/columns/0/title', kind: 'changed', before: 'X', after: 'X2' },
      { path: '/columns/0/sorter', kind: 'added', after: true },
      { path: '/columns/1', kind: 'removed', before: { dataIndex: 'y' } },
      { path: '/a~1b', kind: 'removed', before: 1 },
      { path: '/extra', kind: 'added', after: [1] },
    ]);
  });
  it('is empty for equal values and whole for a change of type', () => {
    expect(jsonDiff({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    expect(jsonDiff(null, { a: 1 })).toEqual([{ path: '/', kind: 'changed', before: null, after: { a: 1 } }]);
  });
});

describe('jsonMerge3 (基于新默认重新应用)', () => {
  const col = (dataIndex: string, title: string, extra: Record<string, unknown> = {}) => ({ dataIndex, title, ...extra });
  const base = { kind: 'list', title: '听课记录', pageSize: 10, columns: [col('a', 'A'), col('b', 'B'), col('c', 'C')] };

  it('keeps what the author changed and takes what only the upgrade changed', () => {
    const local = { ...base, title: '本校听课记录', columns: [col('c', 'C'), col('a', 'A 改')] }; // b removed, c moved first, a renamed
    const theirs = { ...base, pageSize: 20, columns: [col('a', 'A'), col('n', 'New'), col('b', 'B'), col('c', 'C', { width: 90 })] };
    const m = jsonMerge3(base, local, theirs);
    expect(m.conflicts).toEqual([]);
    expect(m.value).toEqual({ kind: 'list', title: '本校听课记录', pageSize: 20, columns: [col('c', 'C', { width: 90 }), col('a', 'A 改'), col('n', 'New')] });
  });

  it('lets the author win where both changed the same thing, and names the place', () => {
    const m = jsonMerge3(base, { ...base, title: '本地' }, { ...base, title: '新默认' });
    expect(m).toEqual({ value: { ...base, title: '本地' }, conflicts: ['/title'] });
  });

  it('drops an item the upgrade removed unless the author changed it', () => {
    const theirs = { ...base, columns: [col('a', 'A'), col('c', 'C')] };
    expect(jsonMerge3(base, { ...base, title: 'x' }, theirs).value).toEqual({ ...base, title: 'x', columns: [col('a', 'A'), col('c', 'C')] });
    const m = jsonMerge3(base, { ...base, columns: [col('a', 'A'), col('b', 'B 改'), col('c', 'C')] }, theirs);
    expect(m).toEqual({ value: { ...base, columns: [col('a', 'A'), col('b', 'B 改'), col('c', 'C')] }, conflicts: ['/columns/1'] });
  });
});
