import { memo, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type Key, type KeyboardEvent, type ReactNode } from 'react';
import { Checkbox, Empty, Pagination, theme, type PaginationProps } from 'antd';
import useSpinStyle from 'antd/es/spin/style';
import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';
import { useStableCallback } from '@core/ui/useStableCallback';
import { hiddenBeyond } from '@core/ui/hiddenBeyond';

/**
 * The list pages' table: antd Table's markup and class names (so antd's table styles, and every
 * selector written against antd tables, apply unchanged), drawn as plain rows and cells. antd's
 * Table gives every cell a component with its own hooks and context reads, and draws the table a
 * second time after measuring its columns: on a page of 50–500 rows that was most of a list's
 * rendering time (bench/RESULTS.md). What the list pages use is here: sorting, row selection,
 * lazily expanded tree rows, left/right pinned columns, loading, the empty state and pagination
 * (server-side, or client-side over a fixed data set).
 */
type Row = Record<string, unknown>;
export type SortOrder = 'ascend' | 'descend' | null;

export interface DataColumn {
  key: string;
  dataIndex?: string;
  title: ReactNode;
  width?: number;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  sorter?: boolean;
  sortOrder?: SortOrder;
  render?: (value: unknown, record: Row, index: number) => ReactNode;
}

export interface DataTableProps {
  rowKey: string;
  columns: DataColumn[];
  dataSource: Row[];
  loading?: boolean;
  /** A header click: the column's next order (ascend → descend → none, like antd). */
  onSort?: (column: string, order: SortOrder) => void;
  /** Tree rows: a row with a `children` array can be expanded; called when it opens or closes. */
  onExpand?: (open: boolean, record: Row) => void;
  selection?: { selectedRowKeys: Key[]; onChange: (keys: Key[]) => void };
  /** With `current`, the pages are the server's; without it, the data set is paged here. */
  pagination: Omit<PaginationProps, 'onChange' | 'size'> & { onChange?: (page: number, pageSize: number) => void };
}

const INDENT = 15; // px per tree level, antd's default
const SELECTION_WIDTH = 32;
/** A column's declared width; one without counts as antd's usual 120 px (the pinned offsets' starting values, the table's declared width). */
export const declaredWidth = (c: Pick<DataColumn, 'width'>) => c.width ?? 120;
const nextOrder = (o: SortOrder | undefined): SortOrder => (o === 'ascend' ? 'descend' : o === 'descend' ? null : 'ascend');
const SORT_TIPS = { ascend: '点击降序', descend: '取消排序', none: '点击升序' } as const;

/** One visible row: the record, its tree level, and whether it is open. */
interface Line {
  record: Row;
  key: Key;
  level: number;
  index: number;
}

export function DataTable(props: DataTableProps) {
  const { rowKey, columns, dataSource, loading, onSort, onExpand, selection, pagination } = props;
  const { hashId } = theme.useToken();
  const [expanded, setExpanded] = useState<ReadonlySet<Key>>(() => new Set());
  const [local, setLocal] = useState({ current: 1, pageSize: Number(pagination.defaultPageSize ?? 10) });
  const serverPaged = pagination.current !== undefined;
  const page = serverPaged ? dataSource : dataSource.slice((local.current - 1) * local.pageSize, local.current * local.pageSize);
  const tree = !!onExpand;

  const lines = useMemo(() => {
    const out: Line[] = [];
    const walk = (list: Row[], level: number) =>
      list.forEach((record, index) => {
        const key = record[rowKey] as Key;
        out.push({ record, key, level, index });
        if (Array.isArray(record.children) && expanded.has(key)) walk(record.children as Row[], level + 1);
      });
    walk(page, 0);
    return out;
  }, [page, rowKey, expanded]);

  const selectedSet = useMemo(() => new Set(selection?.selectedRowKeys ?? []), [selection?.selectedRowKeys]);
  const toggleRow = useStableCallback((key: Key, on: boolean) => {
    if (!selection) return;
    selection.onChange(on ? [...selection.selectedRowKeys, key] : selection.selectedRowKeys.filter((k) => k !== key));
  });
  const toggleOpen = useStableCallback((record: Row, key: Key) => {
    const open = !expanded.has(key);
    setExpanded((s) => {
      const n = new Set(s);
      if (open) n.add(key);
      else n.delete(key);
      return n;
    });
    onExpand?.(open, record);
  });

  // Pinned cells: sticky at offsets computed from the declared widths, corrected from the drawn widths
  // after layout (CSS variables set on the table: no re-render), with antd's shadows while scrolled.
  // Cell classes and styles are worked out once per set of columns, not per cell drawn.
  const selectable = !!selection;
  const pin = useMemo(() => pinning(columns, selectable), [columns, selectable]);
  const tableRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const content = contentRef.current;
    const table = tableRef.current;
    if (!content || !table || !pin.sides) return;
    // Reads first, then only the writes that change something: a write before a read would force a
    // style and layout pass, and a custom property set on the table (even to the same value) restyles
    // every cell below it.
    const shadows = () => {
      const beyond = hiddenBeyond(content);
      table.classList.toggle('ant-table-ping-left', beyond.left);
      table.classList.toggle('ant-table-ping-right', beyond.right);
    };
    const offsets = () => {
      const ths = [...content.querySelectorAll<HTMLTableCellElement>('thead > tr > th')];
      const vars: Array<[string, string]> = [];
      let left = 0;
      ths.forEach((th, i) => {
        if (!th.classList.contains('ant-table-cell-fix-left')) return;
        vars.push([`--dt-left-${i}`, `${left}px`]);
        left += th.offsetWidth;
      });
      let right = 0;
      for (let i = ths.length - 1; i >= 0 && ths[i]!.classList.contains('ant-table-cell-fix-right'); i--) {
        vars.push([`--dt-right-${i}`, `${right}px`]);
        right += ths[i]!.offsetWidth;
      }
      shadows();
      for (const [name, value] of vars) if (table.style.getPropertyValue(name) !== value) table.style.setProperty(name, value);
    };
    // Measured after the browser's own layout (a ResizeObserver callback), never forcing one.
    const ro = new ResizeObserver(offsets);
    ro.observe(content);
    ro.observe(content.firstElementChild!);
    content.addEventListener('scroll', shadows, { passive: true });
    return () => {
      ro.disconnect();
      content.removeEventListener('scroll', shadows);
    };
  }, [pin]);

  const allKeys = lines.map((l) => l.key);
  const checkedCount = selection ? allKeys.filter((k) => selectedSet.has(k)).length : 0;
  const selectAll = (on: boolean) => {
    if (!selection) return;
    const rest = selection.selectedRowKeys.filter((k) => !allKeys.includes(k));
    selection.onChange(on ? [...rest, ...allKeys] : rest);
  };

  const total = serverPaged ? Number(pagination.total ?? 0) : dataSource.length;
  const { onChange: onPage, ...pager } = pagination;
  return (
    <div className={`ant-table-wrapper ${hashId}`}>
      <Loading spinning={!!loading}>
        <div ref={tableRef} className={`ant-table ant-table-middle ant-table-bordered ant-table-scroll-horizontal${pin.tableClass}`} style={pin.vars}>
          <div className="ant-table-container">
            <div ref={contentRef} className="ant-table-content" style={{ overflow: 'auto hidden' }}>
              <table style={{ width: 'max-content', minWidth: '100%', tableLayout: 'auto' }}>
                <colgroup>
                  {selection && <col className="ant-table-selection-col" style={{ width: SELECTION_WIDTH }} />}
                  {columns.map((c) => (
                    <col key={c.key} style={c.width ? { width: c.width } : undefined} />
                  ))}
                </colgroup>
                <thead className="ant-table-thead">
                  <tr>
                    {selection && (
                      <th className={`ant-table-cell ant-table-selection-column${pin.cells[0]!.cls}`} style={pin.cells[0]!.style}>
                        <div className="ant-table-selection">
                          <Checkbox
                            aria-label="全选"
                            checked={!!allKeys.length && checkedCount === allKeys.length}
                            indeterminate={checkedCount > 0 && checkedCount < allKeys.length}
                            disabled={!allKeys.length}
                            onChange={(e) => selectAll(e.target.checked)}
                          />
                        </div>
                      </th>
                    )}
                    {columns.map((c, i) => (
                      <HeaderCell key={c.key} column={c} cell={pin.cells[i + (selectable ? 1 : 0)]!} onSort={onSort} />
                    ))}
                  </tr>
                </thead>
                <tbody className="ant-table-tbody">
                  {lines.length === 0 ? (
                    <tr className="ant-table-placeholder">
                      <td className="ant-table-cell" colSpan={columns.length + (selection ? 1 : 0)}>
                        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
                      </td>
                    </tr>
                  ) : (
                    lines.map((l) => (
                      <BodyRow
                        key={l.key}
                        line={l}
                        columns={columns}
                        cells={pin.cells}
                        selectable={selectable}
                        checked={selectedSet.has(l.key)}
                        tree={tree}
                        open={expanded.has(l.key)}
                        onCheck={toggleRow}
                        onToggle={toggleOpen}
                      />
                    ))
                  )}
                </tbody>
              </table>
            </div>
          </div>
        </div>
        {total > 0 && (
          <Pagination
            className="ant-table-pagination ant-table-pagination-right"
            // Always small here, so the window's breakpoints change nothing: no breakpoint subscription (it re-rendered
            // the pagination right after its mount).
            responsive={false}
            size="small"
            {...pager}
            {...(serverPaged ? {} : { current: local.current, pageSize: local.pageSize })}
            total={total}
            onChange={(p, ps) => {
              if (!serverPaged) setLocal({ current: ps !== local.pageSize ? 1 : p, pageSize: ps });
              onPage?.(p, ps);
            }}
          />
        )}
      </Loading>
    </div>
  );
}

/**
 * antd Spin's nested-loading markup and class names, drawn from `spinning` as given. antd's Spin
 * follows its prop in an effect: rows that arrived with the end of loading were drawn blurred, then
 * un-blurred in a second commit — and the blur sets inherited properties (pointer-events,
 * user-select), so that second commit restyled every cell (~170 ms at 500 rows).
 */
function Loading({ spinning, children }: { spinning: boolean; children: ReactNode }) {
  const [, hashId] = useSpinStyle('ant-spin'); // antd's spin styles (generated in development; pre-built in production)
  return (
    <div className={`ant-spin-nested-loading ${hashId}`}>
      {spinning && (
        <div>
          <div className={`ant-spin ant-spin-spinning ${hashId}`} aria-live="polite" aria-busy="true">
            <span className="ant-spin-dot-holder">
              <span className="ant-spin-dot ant-spin-dot-spin">
                <i className="ant-spin-dot-item" />
                <i className="ant-spin-dot-item" />
                <i className="ant-spin-dot-item" />
                <i className="ant-spin-dot-item" />
              </span>
            </span>
          </div>
        </div>
      )}
      <div className={`ant-spin-container${spinning ? ' ant-spin-blur' : ''}`}>{children}</div>
    </div>
  );
}

/** A column's cell classes and inline style (alignment; a pinned cell's side and offset). */
interface CellLayout {
  cls: string;
  style?: CSSProperties;
}

/**
 * Each cell position's layout (the selection column first, when there is one: pinned left when any
 * column is, as in antd), the table's classes, and the pinned offsets' starting values (CSS variables,
 * from the declared widths; corrected from the drawn widths after layout).
 */
function pinning(columns: DataColumn[], selection: boolean) {
  const left = columns.some((c) => c.fixed === 'left');
  const right = columns.some((c) => c.fixed === 'right');
  const all: Array<Pick<DataColumn, 'fixed' | 'width' | 'align'>> = [...(selection ? [{ fixed: left ? ('left' as const) : undefined, width: SELECTION_WIDTH }] : []), ...columns];
  const vars: Record<string, string> = {};
  let x = 0;
  all.forEach((c, i) => {
    if (c.fixed !== 'left') return;
    vars[`--dt-left-${i}`] = `${x}px`;
    x += declaredWidth(c);
  });
  x = 0;
  for (let i = all.length - 1; i >= 0 && all[i]!.fixed === 'right'; i--) {
    vars[`--dt-right-${i}`] = `${x}px`;
    x += declaredWidth(all[i]!);
  }
  const cells = all.map(({ fixed: side, align }, i): CellLayout => {
    if (!side) return { cls: '', style: align ? { textAlign: align } : undefined };
    const edge = side === 'left' ? (all[i + 1]?.fixed === 'left' ? '' : ' ant-table-cell-fix-left-last') : all[i - 1]?.fixed === 'right' ? '' : ' ant-table-cell-fix-right-first';
    return { cls: ` ant-table-cell-fix-${side}${edge}`, style: { textAlign: align, [side]: `var(--dt-${side}-${i}, 0px)` } };
  });
  // The right edge's shadow from the start when the declared widths exceed the window (the table then
  // overflows): corrected after layout, but a class changed on the table then restyles every cell.
  const wide = right && typeof window !== 'undefined' && all.reduce((a, c) => a + declaredWidth(c), 0) > window.innerWidth;
  const tableClass = `${left ? ' ant-table-has-fix-left' : ''}${right ? ' ant-table-has-fix-right' : ''}${left || right ? ' ant-table-fixed-column' : ''}${wide ? ' ant-table-ping-right' : ''}`;
  return { sides: left || right, cells, tableClass, vars: vars as CSSProperties };
}

function HeaderCell({ column: c, cell, onSort }: { column: DataColumn; cell: CellLayout; onSort?: DataTableProps['onSort'] }) {
  const cls = `ant-table-cell${cell.cls}`;
  const style = cell.style;
  if (!c.sorter) return <th className={cls} style={style}>{c.title}</th>;
  const order = c.sortOrder ?? null;
  const sort = () => onSort?.(c.dataIndex ?? c.key, nextOrder(order));
  return (
    <th
      className={`${cls} ant-table-column-has-sorters${order ? ' ant-table-column-sort' : ''}`}
      style={style}
      tabIndex={0}
      title={SORT_TIPS[order ?? 'none']}
      aria-sort={order ? (order === 'ascend' ? 'ascending' : 'descending') : undefined}
      onClick={sort}
      onKeyDown={(e: KeyboardEvent) => e.key === 'Enter' && sort()}
    >
      <div className="ant-table-column-sorters">
        <span className="ant-table-column-title">{c.title}</span>
        <span className="ant-table-column-sorter ant-table-column-sorter-full">
          <span className="ant-table-column-sorter-inner" aria-hidden="true">
            <CaretUpOutlined className={`ant-table-column-sorter-up${order === 'ascend' ? ' active' : ''}`} />
            <CaretDownOutlined className={`ant-table-column-sorter-down${order === 'descend' ? ' active' : ''}`} />
          </span>
        </span>
      </div>
    </th>
  );
}

const BodyRow = memo(function BodyRow(props: {
  line: Line;
  columns: DataColumn[];
  cells: CellLayout[];
  selectable: boolean;
  checked: boolean;
  tree: boolean;
  open: boolean;
  onCheck: (key: Key, on: boolean) => void;
  onToggle: (record: Row, key: Key) => void;
}) {
  const { line, columns, cells, selectable, checked, tree, open, onCheck, onToggle } = props;
  const { record, key, level, index } = line;
  const offset = selectable ? 1 : 0;
  const expandable = Array.isArray(record.children);
  return (
    <tr data-row-key={String(key)} className={`ant-table-row ant-table-row-level-${level}${checked ? ' ant-table-row-selected' : ''}`}>
      {selectable && (
        <td className={`ant-table-cell ant-table-selection-column${cells[0]!.cls}`} style={cells[0]!.style}>
          <Checkbox checked={checked} onChange={(e) => onCheck(key, e.target.checked)} />
        </td>
      )}
      {columns.map((c, i) => {
        const value = c.dataIndex ? record[c.dataIndex] : undefined;
        const content = c.render ? c.render(value, record, index) : value === undefined || value === null ? '' : String(value);
        const first = tree && i === 0;
        return (
          <td
            key={c.key}
            className={`ant-table-cell${cells[i + offset]!.cls}${c.sortOrder ? ' ant-table-column-sort' : ''}${first ? ' ant-table-cell-with-append' : ''}`}
            style={cells[i + offset]!.style}
          >
            {first && (
              <>
                <span className={`ant-table-row-indent indent-level-${level}`} style={{ paddingLeft: level * INDENT }} />
                {expandable ? (
                  <button
                    type="button"
                    className={`ant-table-row-expand-icon ant-table-row-expand-icon-${open ? 'expanded' : 'collapsed'}`}
                    aria-label={open ? '关闭行' : '展开行'}
                    aria-expanded={open}
                    onClick={() => onToggle(record, key)}
                  />
                ) : (
                  <span className="ant-table-row-expand-icon ant-table-row-expand-icon-spaced" />
                )}
              </>
            )}
            {content}
          </td>
        );
      })}
    </tr>
  );
});
