import { describe, expect, it } from 'vitest';
import { filterTree, toTreeData } from '@renderer/AsideTree';

const tree = { url: '/sys/sysDepart/queryTreeList', param: 'orgCode', keyField: 'orgCode' };
const answer = [
  {
    id: '1', orgCode: 'A01', title: '某某大学',
    children: [
      { id: '2', orgCode: 'A01A01', title: '计算机学院', children: [{ id: '3', orgCode: 'A01A01A01', title: '软件工程教研室', children: [] }] },
      { id: '4', orgCode: 'A01A02', title: '数学与统计学院', children: null },
    ],
  },
];

describe('the aside tree of a list', () => {
  it('reads nested nodes by keyField / titleField (a leaf has no children list)', () => {
    const data = toTreeData(answer, tree);
    expect(data[0]).toMatchObject({ key: 'A01', title: '某某大学' });
    expect(data[0]!.children!.map((n) => n.key)).toEqual(['A01A01', 'A01A02']);
    expect(data[0]!.children![0]!.children![0]).toEqual({ key: 'A01A01A01', title: '软件工程教研室', children: undefined });
    expect(data[0]!.children![1]!.children).toBeUndefined();
    expect(toTreeData({ records: [{ key: 'k', name: 'N' }] }, { url: '/x', param: 'p', titleField: 'name' })).toEqual([{ key: 'k', title: 'N', children: undefined }]);
  });
  it('a search keeps the matching nodes with their ancestors; a matching node keeps its subtree', () => {
    const data = toTreeData(answer, tree);
    const math = filterTree(data, '数学');
    expect(math).toHaveLength(1);
    expect(math[0]!.children!.map((n) => n.title)).toEqual(['数学与统计学院']);
    const cs = filterTree(data, '计算机');
    expect(cs[0]!.children![0]!.children!.map((n) => n.title)).toEqual(['软件工程教研室']);
    expect(filterTree(data, '没有')).toEqual([]);
    expect(filterTree(data, '')).toBe(data);
  });
});
