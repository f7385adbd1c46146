import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { defaultActions } from '../../renderer/ListPage';
import { queryParams } from '../../renderer/listRequest';
import { urlsOf } from '../../renderer/scope';

describe('list page helpers', () => {
  it('turns query values into JeecgBoot parameters', () => {
    const fields = [
      { name: 'name', label: '名称' },
      { name: 'code', label: '编号', rule: 'begin' as const },
      { name: 'sex', label: '性别', widget: 'Select', dict: 'sex' },
      { name: 'age', label: '年龄', widget: 'NumberRange' },
      { name: 'birthday', label: '生日', widget: 'DateRange' },
      { name: 'tags', label: '标签', widget: 'MultiSelect', rule: 'in' as const },
      { name: 'empty', label: '空' },
    ];
    expect(
      queryParams(fields, { name: ' 王 ', code: 'KH', sex: '1', age: [18, undefined], birthday: [dayjs('2020-01-02'), dayjs('2020-03-04')], tags: ['a', 'b'], empty: '' }),
    ).toEqual({ name: '*王*', code: 'KH*', sex: '1', age_begin: 18, birthday_begin: '2020-01-02', birthday_end: '2020-03-04', tags: 'a,b' });
  });

  it('derives urls from resource and standard actions from the permission prefix', () => {
    const s = { kind: 'list' as const, title: 'T', resource: '/demo/customer', permission: 'demo:customer', api: { list: '/x/list' }, form: { fields: [] } };
    expect(urlsOf(s)).toMatchObject({ list: '/x/list', add: '/demo/customer/add', deleteBatch: '/demo/customer/deleteBatch', exportXls: '/demo/customer/exportXls' });
    const a = defaultActions(s);
    expect(a.toolbar!.map((x) => [x.key, x.permission])).toEqual([
      ['add', 'demo:customer:add'],
      ['import', 'demo:customer:importExcel'],
      ['export', 'demo:customer:exportXls'],
    ]);
    expect(a.batch!.map((x) => x.permission)).toEqual(['demo:customer:deleteBatch']);
    expect(a.row!.map((x) => x.key)).toEqual(['edit', 'detail', 'delete']);
    // No form → no add/edit/detail.
    expect(defaultActions({ ...s, form: undefined }).row!.map((x) => x.key)).toEqual(['delete']);
  });
});
