import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { editorTabs, setIn } from '@renderer/design/editors';
import { ListEditor } from '@renderer/design/ListEditor';

/** The page designer's form editors (renderer/design): which parts a kind offers, and problems at their JSON path. */
afterEach(cleanup);

describe('page designer editors', () => {
  const keys = (doc: Record<string, unknown>) => editorTabs(doc, [], () => {}).map((t) => t.key);

  it('offer the parts of the kind (and any part the draft holds)', () => {
    expect(keys({ kind: 'list', title: 'x' })).toEqual(['columns', 'query', 'form', 'subTables', 'actions']);
    expect(keys({ kind: 'dashboard', title: 'x', panels: [] })).toEqual(['panels', 'filters']);
    expect(keys({ kind: 'detail', title: 'x', sections: [] })).toEqual(['sections', 'actions']);
    expect(keys({ kind: 'tabs', title: 'x', tabs: [] })).toEqual(['tabs']);
    expect(keys({ kind: 'form', title: 'x', form: { fields: [], subTables: [] } })).toEqual(['form', 'subTables']);
  });

  it('setIn writes a path of a copy and drops an emptied top-level list', () => {
    const doc = { kind: 'list', columns: [{ dataIndex: 'a' }], form: { fields: [] } };
    expect(setIn(doc, ['form', 'subTables'], [{ key: 's' }])).toEqual({ ...doc, form: { fields: [], subTables: [{ key: 's' }] } });
    expect(setIn(doc, ['columns'], [])).toEqual({ kind: 'list', form: { fields: [] } });
    expect(doc.columns).toHaveLength(1);
  });

  it('a list editor marks the input of a problem and names its row; edits, reorders and removes items', () => {
    let items: Array<Record<string, unknown>> = [
      { dataIndex: 'a', title: 'A' },
      { dataIndex: 'b', title: 42 },
    ];
    const problems = [
      { path: '/columns/1/title', reason: '应为文本' },
      { path: '/columns/0', reason: '缺少必填属性“width”' },
      { path: '/query/fields/0', reason: 'elsewhere' },
    ];
    const fields = [
      { key: 'dataIndex', label: '字段' },
      { key: 'title', label: '标题' },
      { key: 'width', label: '宽度', type: 'number' as const },
    ];
    const view = () => <ListEditor label="列" path="/columns" items={items} fields={fields} problems={problems} onChange={(v) => (items = v)} newItem={() => ({ dataIndex: '' })} />;
    const { rerender } = render(view());
    expect(screen.getByLabelText('列 2 标题').closest('.ant-input-status-error, .ant-input')!.className).toContain('ant-input-status-error');
    expect(screen.getByLabelText('列 1 宽度').closest('.ant-input-number')!.className).toContain('status-error');
    expect(screen.getByLabelText('列 1 标题').className).not.toContain('status-error');
    const listed = document.querySelector('.design-field-problems')!.textContent!;
    expect(listed).toContain('列 2 title：应为文本');
    expect(listed).toContain('列 1：缺少必填属性“width”');
    expect(listed).not.toContain('elsewhere');
    fireEvent.change(screen.getByLabelText('列 2 标题'), { target: { value: 'B' } });
    expect(items[1]).toEqual({ dataIndex: 'b', title: 'B' });
    rerender(view());
    fireEvent.click(screen.getByLabelText('列 2 上移'));
    expect(items.map((i) => i.dataIndex)).toEqual(['b', 'a']);
    rerender(view());
    fireEvent.click(screen.getByLabelText('列 1 删除'));
    expect(items.map((i) => i.dataIndex)).toEqual(['a']);
  });
});
