import { describe, expect, it } from 'vitest';
import { fillTemplate, fillText, fillUrl, pathOf } from '@renderer/template';

describe('schema templates', () => {
  const data = { id: 'r1', n: 3, list: ['a', 'b'], user: { name: '王 磊' }, none: null };
  it('reads dotted paths', () => {
    expect(pathOf(data, 'user.name')).toBe('王 磊');
    expect(pathOf(data, 'user.x.y')).toBeUndefined();
    expect(pathOf({ departs: [{ n: 'a' }, { n: 'b' }] }, 'departs.n')).toEqual(['a', 'b']);
    expect(pathOf({ departs: [{ n: 'a' }] }, 'departs.0.n')).toBe('a');
  });
  it('fills texts and urls (encoded), arrays joined, missing values empty', () => {
    expect(fillText('{user.name}：{n}/{missing}', data)).toBe('王 磊：3/');
    expect(fillUrl('/x/{user.name}?ids={list}', data)).toBe('/x/%E7%8E%8B%20%E7%A3%8A?ids=a%2Cb');
  });
  it('keeps the raw value of a lone placeholder and leaves missing ones out of objects', () => {
    expect(fillTemplate({ roleId: '{id}', count: '{n}', ids: '{list}', label: 'n={n}', gone: '{missing}', fixed: 1, nested: { a: ['{id}'] } }, data)).toEqual({
      roleId: 'r1', count: 3, ids: ['a', 'b'], label: 'n=3', fixed: 1, nested: { a: ['r1'] },
    });
    expect(fillTemplate({ ids: '{list|join}' }, data)).toEqual({ ids: 'a,b' });
    expect(fillUrl('/d?ids={list|join}', data)).toBe('/d?ids=a%2Cb');
  });
});
