import { describe, expect, it, vi } from 'vitest';
import { useLayoutEffect, useRef, useState, type Key } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { stubResizeObserver } from '../tests/helpers/resize-observer';
import { DataTable, type DataColumn, type DataTableProps } from './DataTable';

type Row = Record<string, unknown>;
const columns: DataColumn[] = [
  { key: 'name', dataIndex: 'name', title: '名称', sorter: true, sortOrder: null },
  { key: 'age', dataIndex: 'age', title: '年龄', width: 80, render: (v) => <b>{String(v)}岁</b> },
  { key: 'action', title: '操作', fixed: 'right', width: 150, render: (_, r) => <a>编辑{String(r.name)}</a> },
];
const people = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, name: `人${i + 1}`, age: 20 + i }));
const draw = (props: Partial<DataTableProps>) =>
  render(
    <ConfigProvider locale={zhCN}>
      <DataTable rowKey="id" columns={columns} dataSource={people(3)} pagination={{ current: 1, pageSize: 10, total: 3 }} {...props} />
    </ConfigProvider>,
  );
const bodyRows = (c: HTMLElement) => [...c.querySelectorAll('.ant-table-tbody > tr.ant-table-row')];

describe('DataTable', () => {
  it("draws antd's table markup: cells through their render, the pinned column sticky, the total", () => {
    const { container } = draw({});
    const rows = bodyRows(container);
    expect(rows.map((r) => r.getAttribute('data-row-key'))).toEqual(['p1', 'p2', 'p3']);
    expect(rows[1]!.querySelectorAll('td')[1]!.innerHTML).toBe('<b>21岁</b>');
    const pinned = rows[0]!.querySelectorAll('td')[2]!;
    expect(pinned.className).toContain('ant-table-cell-fix-right ant-table-cell-fix-right-first');
    expect(pinned.style.right).toBe('var(--dt-right-2, 0px)');
    expect(container.querySelector('.ant-table')!.className).toContain('ant-table-has-fix-right');
    expect(container.querySelector('.ant-pagination-total-text')).toBeNull(); // no showTotal given
    expect(container.querySelector('.ant-pagination')).not.toBeNull();
  });

  it('draws rows that arrive with the end of loading unblurred in the same commit (no second, restyling commit)', () => {
    const seen: string[] = [];
    // A cell that reads its loading container's classes while its row is committed.
    function Probe() {
      const ref = useRef<HTMLSpanElement>(null);
      useLayoutEffect(() => void seen.push(ref.current!.closest('.ant-spin-nested-loading')!.innerHTML.includes('ant-spin-spinning') ? 'spinner' : ref.current!.closest('.ant-spin-container')!.className));
      return <span ref={ref} />;
    }
    const probed: DataColumn[] = [{ key: 'p', title: 'p', render: () => <Probe /> }];
    const { rerender, container } = draw({ columns: probed, dataSource: [], loading: true });
    expect(container.querySelector('.ant-spin-spinning')).not.toBeNull();
    expect(container.querySelector('.ant-spin-container')!.className).toContain('ant-spin-blur');
    rerender(
      <ConfigProvider locale={zhCN}>
        <DataTable rowKey="id" columns={probed} dataSource={people(1)} loading={false} pagination={{ current: 1, pageSize: 10, total: 1 }} />
      </ConfigProvider>,
    );
    expect(seen).toEqual(['ant-spin-container']);
    expect(container.querySelector('.ant-spin-spinning')).toBeNull();
  });

  it('starts with the right edge shadow when its declared widths exceed the window, and after layout rewrites no offset that is unchanged', () => {
    const layout = stubResizeObserver();
    try {
      const narrow = draw({}).container.querySelector<HTMLElement>('.ant-table')!;
      expect(narrow.className).not.toContain('ant-table-ping-right'); // 350 px declared
      const extra = Array.from({ length: 10 }, (_, i): DataColumn => ({ key: `c${i}`, dataIndex: `c${i}`, title: `列${i}`, width: 120 }));
      const wide = draw({ columns: [...columns.slice(0, 2), ...extra, columns[2]!] }).container.querySelector<HTMLElement>('.ant-table')!;
      expect(wide.className).toContain('ant-table-ping-right'); // 1550 px declared, wider than the window: shadow from the first render
      const set = vi.spyOn(wide.style, 'setProperty');
      layout.fire(); // "after layout": the pinned column's offset is the declared 0px
      expect(set).not.toHaveBeenCalled();
    } finally {
      layout.restore();
    }
  });

  it('shows the empty state and no pager without rows', () => {
    const { container } = draw({ dataSource: [], pagination: { current: 1, pageSize: 10, total: 0 } });
    expect(container.querySelector('.ant-table-placeholder')).toHaveTextContent('暂无数据');
    expect(container.querySelector('.ant-pagination')).toBeNull();
  });

  it('cycles a sortable header ascend → descend → none', () => {
    const onSort = vi.fn();
    const at = (sortOrder: DataColumn['sortOrder']) => {
      const { unmount } = draw({ onSort, columns: [{ ...columns[0]!, sortOrder }, columns[1]!] });
      fireEvent.click(screen.getByText('名称'));
      unmount();
    };
    at(null);
    at('ascend');
    at('descend');
    expect(onSort.mock.calls).toEqual([['name', 'ascend'], ['name', 'descend'], ['name', null]]);
  });

  it('selects rows one by one and all at once, drawing again only the rows that changed', () => {
    const drawn = vi.fn((v: unknown) => String(v));
    const counted = [{ ...columns[0]!, render: drawn }, ...columns.slice(1)];
    const rows = people(3);
    function Selecting() {
      const [keys, setKeys] = useState<Key[]>([]);
      // A new selection object every render, as list pages pass it.
      return <DataTable rowKey="id" columns={counted} dataSource={rows} selection={{ selectedRowKeys: keys, onChange: setKeys }} pagination={{ current: 1, pageSize: 10, total: 3 }} />;
    }
    const { container } = render(<Selecting />);
    const boxes = () => [...container.querySelectorAll<HTMLInputElement>('.ant-checkbox-input')];
    drawn.mockClear();
    fireEvent.click(boxes()[2]!);
    expect(drawn.mock.calls.map((c) => c[0])).toEqual(['人2']);
    expect(bodyRows(container).map((r) => r.classList.contains('ant-table-row-selected'))).toEqual([false, true, false]);
    expect(container.querySelector('thead .ant-checkbox-indeterminate')).not.toBeNull();
    fireEvent.click(boxes()[0]!);
    expect(boxes().every((b) => b.checked)).toBe(true);
    fireEvent.click(boxes()[0]!);
    expect(boxes().some((b) => b.checked)).toBe(false);
  });

  it('opens tree rows: reports the expansion and shows the children one level deeper', () => {
    function Tree() {
      const [rows, setRows] = useState<Row[]>([{ id: 'a', name: '学校', children: [] }, { id: 'b', name: '医院' }]);
      return (
        <DataTable
          rowKey="id"
          columns={columns.slice(0, 1)}
          dataSource={rows}
          onExpand={(open, r) => open && setRows((x) => x.map((y) => (y.id === r.id ? { ...y, children: [{ id: 'a1', name: '学院' }] } : y)))}
          pagination={{ current: 1, pageSize: 10, total: 2 }}
        />
      );
    }
    const { container } = render(<Tree />);
    expect(container.querySelectorAll('button.ant-table-row-expand-icon')).toHaveLength(1); // 医院 has no children
    fireEvent.click(screen.getByRole('button', { name: '展开行' }));
    expect(bodyRows(container).map((r) => [r.textContent, r.className.match(/level-\d/)![0]])).toEqual([['学校', 'level-0'], ['学院', 'level-1'], ['医院', 'level-0']]);
    fireEvent.click(screen.getByRole('button', { name: '关闭行' }));
    expect(bodyRows(container).map((r) => r.textContent)).toEqual(['学校', '医院']);
  });

  it('pages a fixed data set itself', () => {
    const { container } = draw({ dataSource: people(25), pagination: { defaultPageSize: 10 } });
    expect(bodyRows(container)).toHaveLength(10);
    fireEvent.click(container.querySelector('.ant-pagination-item-3')!);
    expect(bodyRows(container).map((r) => r.getAttribute('data-row-key'))).toEqual(['p21', 'p22', 'p23', 'p24', 'p25']);
  });
});
