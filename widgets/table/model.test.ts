import { describe, expect, it } from 'vitest';
import { addRows, applyLiveUpdate, cellText, cellTextValue, cellTyping, TEXT_CELL_TYPES, flattenTree, footerRows, groupThousands, isDisabledRow, isTempId, minWidthOf, moveRow, removeRows, renumber, selectionChange, visibleButtons, widthOf, type EditColumn, type Row } from './model';
import { parseSocketMessage, vxeSocketUrl } from './socket';

const cols: EditColumn[] = [
  { key: 'name', title: '姓名', type: 'input', defaultValue: '无名' },
  { key: 'ok', title: '确认', type: 'checkbox', customValue: ['Y', 'N'], defaultChecked: true },
  { key: 'score', title: '分', type: 'inputNumber', statistics: ['sum', 'average'] },
];
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, score: i + 1 }));

describe('editable table model', () => {
  it('typing in text cells: the tags semicolon rule and the number rule; stored values', () => {
    expect(cellTyping('tags', 'abcde', 'abcd')).toBe('ab;cd;e');
    expect(cellTyping('tags', 'ab;cd;e;f', 'ab;cd;e;')).toBe('ab;cd;ef;');
    expect(cellTyping('inputNumber', '12a', '12')).toBe('12');
    expect(cellTyping('inputNumber', '-1.5', '-1.')).toBe('-1.5');
    expect(cellTyping('input', 'a;b', 'a;')).toBe('a;b');
    expect(cellTextValue('inputNumber', '3.50')).toBe(3.5);
    expect(cellTextValue('inputNumber', '-')).toBe('');
    expect(cellTextValue('tags', 'ab;')).toBe('ab;');
    expect(cellText(0)).toBe('0');
    expect(cellText(null)).toBe('');
    expect([...TEXT_CELL_TYPES].sort()).toEqual(['input', 'inputNumber', 'input_pop', 'normal', 'tags']);
  });
  it('widths and minimums of SPEC §9', () => {
    expect(widthOf({ type: 'input' })).toBe(120);
    expect(widthOf({ type: 'datetime' })).toBe(200);
    expect(widthOf({ type: 'sel_user' })).toBe(220);
    expect(widthOf({ type: 'sel_depart' })).toBe(160);
    expect(widthOf({ type: 'input', width: 90 })).toBe(90);
    expect(minWidthOf({ type: 'datetime' })).toBe(190);
    expect(minWidthOf({ type: 'date' })).toBe(135);
    expect(minWidthOf({ type: 'row-number' })).toBe(60);
    expect(minWidthOf({ type: 'row-checkbox' })).toBe(40);
    expect(minWidthOf({ type: 'row-checkbox' }, true)).toBe(60);
  });

  it('adds rows with defaults: appended at index 0, inserted at an index, count at least 1', () => {
    const r = addRows(rows(3), cols, 0, 0);
    expect(r.added).toHaveLength(1);
    expect(r.rows.at(-1)).toMatchObject({ name: '无名', ok: 'Y' });
    expect(isTempId(r.added[0]!.id)).toBe(true);
    const ins = addRows(rows(3), cols, 2, 1);
    expect(ins.rows.map((x) => x.id).slice(2)).toEqual(['r1', 'r2', 'r3']);
    expect(new Set(ins.rows.map((x) => x.id)).size).toBe(5);
  });

  it('removal keeps ids of saved rows for the delete list', () => {
    const withNew = addRows(rows(2), cols).rows;
    const tmp = withNew[2]!.id;
    const r = removeRows(withNew, ['r1', tmp]);
    expect(r.rows.map((x) => x.id)).toEqual(['r2']);
    expect(r.deleted).toEqual(['r1']);
  });

  it('moves and renumbers from 1', () => {
    expect(moveRow(rows(3), 'r1', 'down').map((r) => r.id)).toEqual(['r2', 'r1', 'r3']);
    expect(moveRow(rows(3), 'r1', 'up').map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    expect(renumber([{ id: 'b' }, { id: 'a', orderNum: 7 }]).map((r) => r.orderNum)).toEqual([1, 2]);
  });

  it('footer rows 合计 and 平均', () => {
    const f = footerRows(rows(4), cols);
    expect(f.map((r) => r.__footer)).toEqual(['合计', '平均']);
    expect(f[0]!.score).toBe(10);
    expect(f[1]!.score).toBe(2.5);
    expect(groupThousands(1234567.5)).toBe('1,234,567.5');
  });

  it('disabled rows and the selection-change payload', () => {
    expect(isDisabledRow({ status: '2' }, { status: ['2', '3'] })).toBe(true);
    expect(isDisabledRow({ status: '1' }, { status: '2' })).toBe(false);
    const all = rows(3);
    expect(selectionChange([], ['r1'], all, 3)).toMatchObject({ action: 'selected', selectedRowIds: ['r1'] });
    expect(selectionChange(['r1'], [], all, 3).action).toBe('unselected');
    expect(selectionChange([], ['r1', 'r2', 'r3'], all, 3).action).toBe('selected-all');
  });

  it('live update: id kept, tug_status merged', () => {
    const base: Row[] = [{ id: 'a', name: 'x', tug_status: { locked: false, by: 'u1' } }];
    const r = applyLiveUpdate(base, { id: 'a', name: 'y', tug_status: { locked: true } });
    expect(r.hit).toBe(true);
    expect(r.rows[0]).toEqual({ id: 'a', name: 'y', tug_status: { locked: true, by: 'u1' } });
    expect(applyLiveUpdate(base, { id: 'zz' }).hit).toBe(false);
  });

  it('tree rows flatten by expansion', () => {
    const tree: Row[] = [{ id: 'p', children: [{ id: 'c' }] }];
    expect(flattenTree(tree, new Set()).map((r) => r.id)).toEqual(['p']);
    expect(flattenTree(tree, new Set(['p'])).map((r) => [r.id, r.__level])).toEqual([['p', 0], ['c', 1]]);
  });

  it('toolbar buttons excluded by the authorisation prefix', () => {
    const granted = new Set(['sub:add']);
    expect(visibleButtons(['add', 'save', 'remove', 'clearSelection'], 'sub', (c) => granted.has(c))).toEqual(['add', 'clearSelection']);
    expect(visibleButtons(['add', 'remove'], undefined, () => false)).toEqual(['add', 'remove']);
  });
});

describe('table socket messages', () => {
  it('ignores invalid JSON and unknown shapes', () => {
    expect(parseSocketMessage('{bad')).toBeUndefined();
    expect(parseSocketMessage('{"type":"other"}')).toBeUndefined();
    expect(parseSocketMessage('{"type":"heart_beat","data":"-"}')).toEqual({ type: 'heart_beat' });
    expect(parseSocketMessage(JSON.stringify({ type: 'common_send_date', data: { socketKey: 'k', args: ['update_vxe_table', { id: 'a' }] } }))).toEqual({ type: 'update', socketKey: 'k', record: { id: 'a' } });
  });
  it('derives the address from the API base', () => {
    expect(vxeSocketUrl('u1', 'p1', '/jeecg-boot', { protocol: 'https:', host: 'x.edu.cn' })).toBe('wss://x.edu.cn/jeecg-boot/vxeSocket/u1/p1');
    expect(vxeSocketUrl('u1', 'p1', 'http://api:8080/jeecg-boot')).toBe('ws://api:8080/jeecg-boot/vxeSocket/u1/p1');
  });
});
