import { describe, expect, it } from 'vitest';
import { jsonDiff } from '@shared/json-diff';

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
