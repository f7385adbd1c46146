import { describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { useEffect } from 'react';
import { InputCell, reactCell, SelectCell, type TableContext } from './cells';
import { usePortals, type PortalHost } from './portals';
import type { EditColumn } from './model';

type Params = Parameters<InputCell['init']>[0];

/** An always-edit text cell in a grid cell element, with the grid parts it uses faked. */
function inputCell(column: EditColumn, value: unknown, context: Partial<TableContext> = {}) {
  const eGridCell = document.createElement('div');
  eGridCell.tabIndex = -1;
  document.body.append(eGridCell);
  const setDataValue = vi.fn();
  const validate = vi.fn();
  const p = { column, value, data: { id: 'r1' }, node: { setDataValue }, eGridCell, context: { disabled: false, validate, columnValues: () => [], ...context } } as unknown as Params;
  const cell = new InputCell();
  cell.init(p);
  eGridCell.append(cell.getGui());
  const box = cell.getGui();
  const input = () => box.querySelector('input');
  /** Types at the end, one key at a time (an empty string clears the input). */
  const type = (text: string) => {
    const i = input()!;
    if (!text) i.value = '';
    for (const ch of text || ['']) {
      i.value += ch;
      i.dispatchEvent(new Event('input'));
    }
  };
  const key = (k: string) => input()!.dispatchEvent(new KeyboardEvent('keydown', { key: k }));
  return { cell, eGridCell, box, input, type, key, setDataValue, validate, p };
}

describe('always-edit text cell (InputCell)', () => {
  it('shows the value in an input look-alike; focus turns it into an input with the caret at the end', () => {
    const c = inputCell({ key: 'name', title: '姓名', type: 'input' }, '王磊');
    expect(c.box).toHaveClass('j-cell-input');
    expect(c.box).toHaveTextContent('王磊');
    expect(c.input()).toBeNull();
    c.eGridCell.focus();
    expect(c.input()).toHaveValue('王磊');
    expect(document.activeElement).toBe(c.input());
    expect(c.input()!.selectionStart).toBe(2);
  });

  it('a click on the box turns it into a focused input', () => {
    const c = inputCell({ key: 'name', title: '姓名', type: 'input' }, 'ab');
    c.box.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 0 }));
    expect(document.activeElement).toBe(c.input());
  });

  it('applies the typing rules and marks errors while typing; Enter writes the stored value; blur brings the box back', () => {
    const tags = inputCell({ key: 'kw', title: '关键词', type: 'tags' }, '');
    tags.eGridCell.focus();
    tags.type('abcdef');
    expect(tags.input()).toHaveValue('ab;cd;ef;');

    const score = inputCell({ key: 'score', title: '评分', type: 'inputNumber', validateRules: [{ required: true, message: '请输入评分' }] }, 90);
    score.eGridCell.focus();
    score.type('');
    expect(score.box).toHaveClass('j-cell-input-error');
    expect(score.box.title).toBe('请输入评分');
    score.type('7a.5x');
    expect(score.input()).toHaveValue('7.5');
    expect(score.box).not.toHaveClass('j-cell-input-error');
    score.key('Enter');
    expect(score.setDataValue).toHaveBeenCalledWith('score', 7.5, 'j-cell');
    score.input()!.blur();
    expect(score.input()).toBeNull();
    expect(score.box).toHaveTextContent('7.5');
  });

  it('Escape restores the written value; leaving unchanged validates without writing', () => {
    const c = inputCell({ key: 'name', title: '姓名', type: 'input' }, '王磊');
    c.eGridCell.focus();
    c.type('x');
    c.key('Escape');
    expect(c.input()).toHaveValue('王磊');
    c.input()!.blur();
    expect(c.setDataValue).not.toHaveBeenCalled();
    expect(c.validate).toHaveBeenCalledWith('r1', 'name');
  });

  it('a value changed elsewhere replaces the text; disabled cells never become inputs', () => {
    const c = inputCell({ key: 'name', title: '姓名', type: 'input' }, 'a');
    c.cell.refresh({ ...c.p, value: 'b' });
    expect(c.box).toHaveTextContent('b');
    const off = inputCell({ key: 'name', title: '姓名', type: 'input', disabled: true }, 'a');
    off.eGridCell.focus();
    expect(off.input()).toBeNull();
    expect(off.box).toHaveClass('j-cell-disabled');
  });
});

describe('selection checkbox (SelectCell)', () => {
  it("follows the row's selection and selectability, and selects through the grid", () => {
    const listeners: Record<string, () => void> = {};
    const node = { selected: false, selectable: true, isSelected: () => node.selected, setSelected: vi.fn(), addEventListener: (t: string, f: () => void) => (listeners[t] = f), removeEventListener: vi.fn() };
    const cell = new SelectCell();
    cell.init({ node } as unknown as Parameters<SelectCell['init']>[0]);
    const box = cell.getGui();
    document.body.append(box);
    const input = box.querySelector('input')!;
    expect(box).toHaveClass('ag-checkbox-input-wrapper');
    expect(input).not.toBeChecked();
    input.click();
    expect(node.setSelected).toHaveBeenCalledWith(true);
    node.selected = true;
    listeners.rowSelected!();
    expect(input).toBeChecked();
    expect(box).toHaveClass('ag-checked');
    node.selectable = false;
    listeners.selectableChanged!();
    expect(input).toBeDisabled();
    cell.destroy();
    expect(node.removeEventListener).toHaveBeenCalledTimes(2);
  });
});

describe('React content in grid-owned DOM (portals)', () => {
  it('renders, updates and removes portals of the table', async () => {
    let host!: PortalHost;
    function Table() {
      const [h, portals] = usePortals();
      useEffect(() => void (host = h), [h]);
      return <div>{portals}</div>;
    }
    render(<Table />);
    const el = document.createElement('div');
    document.body.append(el);
    act(() => host.render(el, <b>一</b>));
    expect(el).toHaveTextContent('一');
    act(() => host.render(el, <b>二</b>));
    expect(el).toHaveTextContent('二');
    act(() => host.render(el, null));
    expect(el).toBeEmptyDOMElement();
  });

  it('a React cell renders its component through the context portal', () => {
    const portal = vi.fn();
    const Cell = reactCell((p) => <span>{String(p.value)}</span>);
    const cell = new Cell();
    cell.init({ value: 3, context: { portal } } as unknown as Params);
    expect(portal).toHaveBeenLastCalledWith(cell.getGui(), expect.objectContaining({ props: expect.objectContaining({ value: 3 }) }));
    cell.destroy();
    expect(portal).toHaveBeenLastCalledWith(cell.getGui(), null);
  });
});
