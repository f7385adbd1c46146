import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { JSwitch } from './dict/JSwitch';
import { JInputTags } from './inputs/JInputTags';
import { JInputNumber } from './inputs/JInputNumber';
import { JEllipsis } from './inputs/JEllipsis';
import { JAreaLinkage } from './area/JAreaLinkage';
import { JPopup } from './pickers/JPopup';
import { JTreeDict } from './dict/JTreeDict';
import { popoverPlacement } from './inputs/JSubTablePopover';
import { WIDGETS } from './index';
import { getWidget } from './registry';

describe('widget components', () => {
  it('JSwitch: empty emits the off value; toggling emits the options', () => {
    const onChange = vi.fn();
    const { rerender } = render(<JSwitch value="" onChange={onChange} options={['1', '0']} />);
    expect(onChange).toHaveBeenLastCalledWith('0');
    rerender(<JSwitch value="0" onChange={onChange} options={['1', '0']} />);
    fireEvent.click(screen.getByRole('switch'));
    expect(onChange).toHaveBeenLastCalledWith('1');
  });

  it('JInputTags applies the semicolon rule', () => {
    const onChange = vi.fn();
    render(<JInputTags onChange={onChange} />);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'a;bcd' } });
    expect(onChange).toHaveBeenLastCalledWith('ab;cd;');
  });

  it('JInputNumber reverts bad input and emits a float on blur', () => {
    const onChange = vi.fn();
    render(<JInputNumber onChange={onChange} />);
    const box = screen.getByRole('textbox') as HTMLInputElement;
    fireEvent.change(box, { target: { value: '-1.5' } });
    fireEvent.change(box, { target: { value: '-1.5x' } });
    expect(box.value).toBe('-1.5');
    fireEvent.blur(box);
    expect(onChange).toHaveBeenLastCalledWith(-1.5);
  });

  it('JEllipsis cuts at 25 characters', () => {
    render(<JEllipsis value={'字'.repeat(30)} />);
    expect(screen.getByText(`${'字'.repeat(25)}…`)).toBeInTheDocument();
  });

  it('configuration errors are shown in Chinese (or the SPEC text)', async () => {
    render(<JAreaLinkage type="tree" />);
    expect(screen.getByText('Bad type value')).toBeInTheDocument();
    render(<JPopup code="r" orgFields="a,b" destFields="c" />);
    expect(screen.getByText('popup参数未正确配置,原始值和目标值数量不一致!')).toBeInTheDocument();
    render(<JTreeDict dict="t,n,i" condition="x=1" />);
    expect(screen.getByText('组件JTreeSelect-condition传值有误，需要一个json字符串!')).toBeInTheDocument();
  });

  it('sub-table popover flips above with less than 350 px below', () => {
    expect(popoverPlacement(500, 900)).toBe('bottom');
    expect(popoverPlacement(600, 949)).toBe('top');
  });

  it('every widget is registered by name and loads', async () => {
    for (const name of ['JDictSelectTag', 'JSearchSelectTag', 'JMultiSelectTag', 'JTreeDict', 'JCategorySelect', 'JSwitch', 'JSelectUserByDep', 'JSelectUser', 'JSearchUser', 'JSelectDepart', 'JSelectRole', 'JSelectPosition', 'JPopup', 'JSelectBizComponent', 'JAreaLinkage', 'JUpload', 'JImageUpload', 'JFilePop', 'JEasyCron', 'JCron', 'JMarkdownEditor', 'JEditor', 'JCodeEditor', 'JSlider', 'JPrompt', 'JEllipsis', 'JInputTags', 'JInputNumber', 'JDate', 'JTime', 'JDetailsModal', 'JSubTablePopover', 'JEditableTable'])
      expect(getWidget(name), name).toBeTruthy();
    for (const [name, [load, exp]] of Object.entries(WIDGETS)) {
      if (name.startsWith('JEditor') || name === 'JMarkdownEditor' || name === 'JCodeEditor') continue; // CSS-heavy editors: covered by Storybook
      expect(['function', 'object'], name).toContain(typeof (await load())[exp]);
    }
    const Lazy = getWidget('JEllipsis')!;
    render(<Lazy value="懒加载" />);
    await waitFor(() => expect(screen.getByText('懒加载')).toBeInTheDocument());
  });
});

describe('JSuperQuery', () => {
  it('draws its button at once; the builder mounts on first use and keeps its conditions between openings', async () => {
    const { JSuperQuery } = await import('./query/JSuperQuery');
    const onSearch = vi.fn();
    render(<JSuperQuery fieldList={[{ value: 'name', text: '姓名', type: 'string' }]} saveCode="test:superquery" onSearch={onSearch} />);
    const button = screen.getByRole('button', { name: '高级查询' });
    expect(screen.queryByText('高级查询构造器')).toBeNull(); // no builder before the button is used
    fireEvent.click(button);
    await screen.findByText('高级查询构造器');
    fireEvent.click(screen.getByRole('button', { name: '添加条件' }));
    await waitFor(() => expect(document.querySelectorAll('.j-super-query-row')).toHaveLength(2));
    fireEvent.click(document.querySelector('.ant-modal-close')!);
    fireEvent.click(button);
    await waitFor(() => expect(document.querySelectorAll('.j-super-query-row')).toHaveLength(2));
    // 重置 runs an empty query: the page's search follows, and the button is not marked active.
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    expect(onSearch).toHaveBeenLastCalledWith([], 'and');
    expect(button.className).not.toMatch(/ant-btn-primary/);
  });
});
