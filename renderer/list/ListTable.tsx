import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { dictText, type DictOption } from '@core/dict';
import { ListQueryContext } from '@core/listQuery';
import { LazyTooltip } from '@core/ui/LazyOverlay';
import type { ColumnSchema } from '@shared/page-schema';
import { getWidget } from '@widgets/registry';
import { DataTable, declaredWidth, type DataColumn, type DataTableProps } from '../DataTable';
import type { Row } from '../registry';
import { actionColumnWidth, RowActions } from './RowActions';
import { ListCards } from './ListCards';
import type { ListController, ShownAction } from './useListController';

const DEFAULT_ELLIPSIS = 25;
const showTotal = (total: number, range: [number, number]) => `${range[0]}-${range[1]} 共${total}条`;

/** A cell's text (its dictionary text, else its value): what fitWidth measures. */
function cellText(c: ColumnSchema, dicts: Record<string, DictOption[]>): (v: unknown, r: Row) => string {
  if (c.widget === 'cell:yn') return (v) => (v === undefined || v === null || v === '' ? '' : '是');
  if (!c.dict) return (v) => (v === undefined || v === null ? '' : String(v));
  return (v, r) => {
    const t = r[`${c.dataIndex}_dictText`];
    return t !== undefined && t !== null ? String(t) : dictText(dicts[c.dict!], v);
  };
}

function renderCell(c: ColumnSchema, dicts: Record<string, DictOption[]>): ((v: unknown, r: Row) => ReactNode) | undefined {
  const W = c.widget ? getWidget(c.widget) : undefined;
  if (W) return (v, r) => <W value={v} record={r} {...c.widgetProps} />;
  const limit = c.ellipsis === false ? 0 : typeof c.ellipsis === 'number' ? c.ellipsis : c.ellipsis ? DEFAULT_ELLIPSIS : 0;
  const text = c.dict
    ? (v: unknown, r: Row) => {
        const t = r[`${c.dataIndex}_dictText`];
        return t !== undefined && t !== null ? String(t) : dictText(dicts[c.dict!], v);
      }
    : (v: unknown) => (v === undefined || v === null ? '' : String(v));
  if (!limit) return c.dict ? text : undefined;
  return (v, r) => {
    const s = text(v, r);
    return s.length > limit ? (
      <LazyTooltip title={s}>
        <span>{s.slice(0, limit)}…</span>
      </LazyTooltip>
    ) : (
      s
    );
  };
}

/** Drawn width of text in the table's 14 px font: a CJK character 14 px, anything else about 8. */
export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch.codePointAt(0)! >= 0x2e80 ? 14 : 8;
  return w;
}
const CELL_PADDING = 21; // a middle-size cell: 8 px each side, the border and a little air
const SORTER = 22;
const SAMPLE = 50;

/**
 * A column's width: as wide as its title and the widest of the first rows need, at most its declared
 * width (a declared width is a ceiling, not a size: a list of many columns fits its key ones on a
 * 1280 px screen). A widget cell whose text cannot be known keeps its declared width; before any row,
 * the declared width.
 */
export function fitWidth(c: ColumnSchema, rows: Row[], text: (v: unknown, r: Row) => string): number | undefined {
  if (!c.width || !rows.length || (c.widget && !FIT_WIDGETS.has(c.widget))) return c.width;
  const head = textWidth(c.title) + (c.sorter ? SORTER : 0) + CELL_PADDING;
  let body = 0;
  for (const r of rows.slice(0, SAMPLE)) body = Math.max(body, textWidth(text(r[c.dataIndex], r)) + CELL_PADDING + (c.widget ? 16 : 0));
  return Math.min(c.width, Math.max(head, body));
}
/** Cell widgets drawing (a tag of) their value's text: their width follows it. */
const FIT_WIDGETS = new Set(['cell:yn', 'cell:tag']);

/** The pager under the table: the server's pages, or (static `data`) the table's own. */
function listPagination(ctl: ListController): DataTableProps['pagination'] {
  const { schema, pageSizes, current, pageSize, total, onPage } = ctl;
  return schema.data
    ? { pageSizeOptions: pageSizes.map(String), showQuickJumper: true, showSizeChanger: true, showTotal }
    : { current, pageSize, total, pageSizeOptions: pageSizes.map(String), showQuickJumper: true, showSizeChanger: true, showTotal, onChange: onPage };
}

const PHONE = '(max-width: 575.98px)';
const subscribePhone = (fn: () => void) => {
  const m = window.matchMedia?.(PHONE);
  m?.addEventListener('change', fn);
  return () => m?.removeEventListener('change', fn);
};
/** Whether the window is phone-wide (antd's xs). */
export const useIsPhone = () => useSyncExternalStore(subscribePhone, () => !!window.matchMedia?.(PHONE).matches, () => false);

/** The list's table: the schema's columns (less those hidden), the row actions' column, selection, tree rows and the pager. */
export function ListTable({ ctl }: { ctl: ListController }) {
  const { schema, hidden, sort, dicts, rowActions, rows, cond, run, tree, expand, batch, selected, setSelected } = ctl;

  // The row actions a record shows (their `visible` conditions), worked out once per record for its cell and the column's width.
  const shownActions = useMemo(() => {
    const seen = new WeakMap<Row, ShownAction[]>();
    return (r: Row) => {
      let list = seen.get(r);
      if (!list) seen.set(r, (list = rowActions.filter((a) => a.visible === undefined || cond(a.visible, { $record: r }))));
      return list;
    };
  }, [rowActions, cond]);
  const actionWidth = useMemo(() => actionColumnWidth(rowActions, rows, shownActions), [rowActions, rows, shownActions]);
  const columns = useMemo<DataColumn[]>(() => {
    const cols: DataColumn[] = (schema.columns ?? [])
      .filter((c) => !c.hidden && !hidden.includes(c.dataIndex))
      .map((c) => ({
        key: c.dataIndex,
        dataIndex: c.dataIndex,
        title: c.title,
        width: fitWidth(c, rows, cellText(c, dicts)),
        fixed: c.fixed,
        align: c.align ?? 'center',
        sorter: !!c.sorter,
        sortOrder: sort.column === c.dataIndex ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
        render: renderCell(c, dicts),
      }));
    if (rowActions.length) {
      cols.push({
        key: 'action',
        title: '操作',
        align: 'center',
        width: actionWidth,
        // Pinned only when the columns, its own included, are wider than a typical content area (a table that fits would have its last column drawn under it).
        fixed: cols.reduce((w, c) => w + declaredWidth(c), actionWidth) > 1000 ? 'right' : undefined,
        render: (_: unknown, r: Row) => <RowActions actions={shownActions(r)} record={r} cond={cond} run={run} />,
      });
    }
    return cols;
  }, [schema, hidden, sort, dicts, rows, rowActions, shownActions, actionWidth, cond, run]);

  const phone = useIsPhone();
  const cards = phone && schema.phoneView === 'cards' && !tree;
  // A card wraps its text instead of cutting it: the columns without their ellipsis.
  const cardColumns = useMemo<DataColumn[]>(
    () =>
      cards
        ? (schema.columns ?? [])
            .filter((c) => !c.hidden && !hidden.includes(c.dataIndex))
            .map((c) => ({ key: c.dataIndex, dataIndex: c.dataIndex, title: c.title, render: renderCell({ ...c, ellipsis: false }, dicts) }))
        : [],
    [cards, schema, hidden, dicts],
  );
  if (cards)
    return (
      <ListQueryContext.Provider value={ctl.listParams}>
        <ListCards
          rowKey={ctl.rowKey}
          columns={cardColumns}
          rows={rows}
          loading={ctl.loading}
          actions={rowActions.length ? (r) => <RowActions actions={shownActions(r)} record={r} cond={cond} run={run} /> : undefined}
          current={ctl.current}
          pageSize={ctl.pageSize}
          total={ctl.total}
          onPage={ctl.onPage}
        />
      </ListQueryContext.Provider>
    );
  return (
    <ListQueryContext.Provider value={ctl.listParams}>
      <DataTable
        rowKey={ctl.rowKey}
        columns={columns}
        dataSource={rows}
        loading={ctl.loading}
        onSort={ctl.onSort}
        onExpand={tree ? (open, r) => void expand(open, r) : undefined}
        selection={batch.length > 0 || schema.selection ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
        pagination={listPagination(ctl)}
      />
    </ListQueryContext.Provider>
  );
}
