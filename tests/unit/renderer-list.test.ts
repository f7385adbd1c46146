import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { actionColumnWidth, defaultActions } from '../../renderer/ListPage';
import { fitWidth, textWidth } from '../../renderer/list/ListTable';
import { queryParams } from '../../shared/list-request';
import { urlsOf } from '../../renderer/scope';
import type { ActionSchema } from '../../shared/page-schema';

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

  it('sizes the action column by the links the widest row shows, not by every conditional step', () => {
    const a = (key: string, label: string, extra: Record<string, unknown> = {}) => ({ key, label, type: 'link' as const, ...extra });
    // A workflow's per-status steps: each row shows 详情 and the steps of its own status.
    const actions: ActionSchema[] = [
      a('detail', '详情'),
      a('edit', '编辑', { visible: 'DRAFT' }),
      a('issue', '下发', { visible: 'DRAFT' }),
      a('accept', '签收', { visible: 'ISSUED' }),
      a('verify', '验收通过', { visible: 'SUBMITTED' }),
      a('reject', '退回', { visible: 'SUBMITTED' }),
      a('close', '销号', { visible: 'VERIFIED' }),
      a('remove', '删除', { visible: 'DRAFT', dropdown: true }),
    ];
    const shown = (r: Record<string, unknown>) => actions.filter((x) => x.visible === undefined || x.visible === r.status);
    const every = actionColumnWidth(actions.map((x) => ({ ...x, visible: undefined })), [], shown);
    const draft = actionColumnWidth(actions, [{ status: 'DRAFT' }], shown); // 详情 编辑 下发 更多
    const submitted = actionColumnWidth(actions, [{ status: 'SUBMITTED' }], shown); // 详情 验收通过 退回
    expect(draft).toBe((2 + 2 + 2 + 3) * 14 + 3 * 21 + 34); // three 2-character links, 更多 and three gaps
    expect(submitted).toBe((2 + 4 + 2) * 14 + 2 * 21 + 34);
    expect(actionColumnWidth(actions, [{ status: 'ISSUED' }, { status: 'DRAFT' }, { status: 'SUBMITTED' }], shown)).toBe(Math.max(draft, submitted));
    expect(every).toBeGreaterThan(draft + 100);
    // Before any row: the unconditional links only (at least 80 px: the title and one link).
    expect(actionColumnWidth(actions, [], shown)).toBe(80);
  });

  it('fits a column to its title and cells, at most its declared width', () => {
    const rows = [{ n: '11', c: '数据结构' }, { n: '3', c: '高等数学（下）' }];
    const text = (v: unknown) => String(v ?? '');
    // 周次: its title (2 CJK characters and the sort icon) is wider than its numbers.
    expect(fitWidth({ dataIndex: 'n', title: '周次', width: 140, sorter: true }, rows, text)).toBe(2 * 14 + 22 + 21);
    // 课程名称: its widest cell (7 CJK characters).
    expect(fitWidth({ dataIndex: 'c', title: '课程名称', width: 140 }, rows, text)).toBe(7 * 14 + 21);
    // Never wider than declared; before any row, and for an unknown widget cell, the declared width.
    expect(fitWidth({ dataIndex: 'c', title: '课程名称', width: 90 }, rows, text)).toBe(90);
    expect(fitWidth({ dataIndex: 'c', title: '课程名称', width: 140 }, [], text)).toBe(140);
    expect(fitWidth({ dataIndex: 'c', title: '图片', width: 140, widget: 'cell:image' }, rows, text)).toBe(140);
    expect(textWidth('TK2026')).toBe(2 * 8 + 4 * 8);
  });
});
