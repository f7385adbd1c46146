import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import {
  CellStyleModule, ClientSideRowModelModule, createGrid, CustomEditorModule, LocaleModule, ModuleRegistry, PinnedRowModule, RenderApiModule, RowApiModule, RowDragModule, RowSelectionModule, RowStyleModule, ScrollApiModule, TextEditorModule, TooltipModule, themeQuartz,
  type CellClassParams, type CellEditingStoppedEvent, type CellValueChangedEvent, type ColDef, type GetRowIdParams, type GridApi, type GridOptions, type ICellRendererParams, type RowClassRules, type RowDragEndEvent, type RowHeightParams, type RowSelectionOptions, type SelectionChangedEvent, type SuppressKeyboardEventParams,
} from 'ag-grid-community';
import { Button, Checkbox, InputNumber, message, Popconfirm, Space } from 'antd';
import { loadDict } from '@core/dict';
import { validateValue } from '../logic/validation';
import {
  addRows as addRowsTo, allTreeIds, applyLiveUpdate, DRAG_SORT_KEY, flattenTree, footerRows, groupThousands, HIGHLIGHT_MS, INSERT_GUARD_MESSAGE, INSERT_GUARD_MS, isDisabledRow, MAX_HEIGHT, minWidthOf,
  moveRow, removeRows as removeRowsFrom, renumber, selectionChange, SIZES, TEXT_CELL_TYPES, TOOLBAR_LABELS, visibleButtons, widthOf,
  type EditColumn, type FlatRow, type Option, type Row, type SelectionChange, type TableSize, type ToolbarButton,
} from './model';
import { CheckboxCell, DateCellEditor, DepartCell, DragCell, InputCell, InputCellEditor, PopupCell, ProgressCell, RadioCell, SelectCell, SelectCellEditor, SlotCell, TagsCell, TextareaCellEditor, UploadCell, UserCell, displayText, type TableContext } from './cells';
import { usePortals } from './portals';
import { useVxeSocket } from './socket';

ModuleRegistry.registerModules([LocaleModule, TextEditorModule, RenderApiModule, RowApiModule, ScrollApiModule, ClientSideRowModelModule, CustomEditorModule, RowSelectionModule, RowDragModule, PinnedRowModule, TooltipModule, CellStyleModule, RowStyleModule]);

export interface JEditableTableProps {
  columns: EditColumn[];
  dataSource?: Row[];
  /** Formily-style controlled value (the rows); onChange gets the rows after every change. */
  value?: Row[];
  onChange?: (rows: Row[]) => void;
  /** Cells look like inputs and edit on a single click; off: plain text, editable on click, reverting on click outside. */
  alwaysEdit?: boolean;
  rowNumber?: boolean;
  /** true/'multi' = checkboxes, 'radio' = single selection. */
  rowSelection?: boolean | 'multi' | 'radio';
  /** Rows matching any {field: value | values} cannot be selected. */
  disabledRows?: Record<string, unknown>;
  dragSort?: boolean;
  dragSortKey?: string;
  /** Tree rows: children under this key (default children). */
  childrenKey?: string;
  size?: TableSize;
  maxHeight?: number;
  toolbar?: boolean;
  toolbarButtons?: ToolbarButton[];
  /** Authorisation prefix: buttons whose `{authPre}:{button}` is not granted are hidden. */
  authPre?: string;
  hasAuth?: (code: string) => boolean;
  disabled?: boolean;
  /** Named slot renderers for slot cells. */
  slots?: TableContext['slots'];
  /** Live updates: /vxeSocket/{userId}/{pageId}, messages for this socketKey. */
  pageId?: string;
  socketKey?: string;
  onValueChange?: (e: { row: Row; key: string; value: unknown; oldValue: unknown }) => void;
  onSelectionChange?: (e: SelectionChange) => void;
  onAdded?: (rows: Row[]) => void;
  onRemoved?: (rows: Row[], deleteIds: string[]) => void;
  onSave?: (values: Row[]) => void;
  /** Called after drag sort with the renumbered rows. */
  onDragged?: (rows: Row[]) => void;
}

export interface JEditableTableApi {
  /** Validates every cell; rejects with the first error when any cell fails. */
  getValues(): Promise<Row[]>;
  /** Validates every cell; resolves to the error count. */
  validate(): Promise<number>;
  getRows(): Row[];
  setRows(rows: Row[]): void;
  addRows(count?: number, index?: number, values?: Record<string, unknown>): Row[];
  removeRows(ids: string[]): void;
  /** Ids of removed saved rows (for the delete list). */
  getDeleteIds(): string[];
  moveRow(id: string, dir: 'up' | 'down'): void;
  getSelectedIds(): string[];
  clearSelection(): void;
  /** Applies a live update from elsewhere (as the socket does). */
  liveUpdate(record: Record<string, unknown>, highlight?: boolean): void;
  gridApi(): GridApi | undefined;
}

const SCROLL_KEY = 'JEditableTable_scrollToBottom';
const ROW_TYPES = new Set(['row-number', 'row-checkbox', 'row-radio', 'row-expand', 'row-drag-sort']);
const NO_ROWS: Row[] = [];
const FOOTER_HEIGHT = 40;
/** The pickers' drop-down mark, a #bfbfbf chevron at twice its size (a PNG: an SVG is re-drawn for every cell painted). */
const CHEVRON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABQAAAAMCAYAAABiDJ37AAABHklEQVR4AYSQ0WqDQBBF3fbL9FOEPuShfWgJlNZCS9uEEF8CJhBIfkU/zZw7TmSVGGVm9s6dO5d1HxL/mqb5rev63LZtcGr2kFY72r2KzRBiC1GEEHLwSUL6uyGNtNpBWIDlkZghw0dICwkYHuEmb6qZNNLaEgXOvKxkWfYKV5EWCJ9YOFkzKiwGzaSJRhUeb+rNUCBN02fO2DTnfQ5wg8Bsj1kekZXvGtUbqvNBbLqITYUxW0jrWfqOt0n3hn0HcMEGaCEDjHZKYSMp/Poa7RI4iMENrxOE7+CStMDoRWlNV0re7KODw3rTUBJMl9xiJTzKP81GXN9OGkrBLT45+5sKY/bFORl3DbWFgd7pH/ztGDgds4Zaxaggf4Tn8gIAAP//x5YWbgAAAAZJREFUAwA1RXkZnVBGqQAAAABJRU5ErkJggg==';
// Scrolling builds rows all the time: no stacking contexts, transforms or containment in cells (each is
// one more paint chunk for the compositor to sort on every frame).
const TABLE_CSS = [
  '.j-editable-table .ag-cell{display:flex;align-items:center}',
  '.j-editable-table .ag-right-aligned-cell{justify-content:flex-end}',
  '.j-editable-table .ag-cell-wrapper{width:100%}',
  '.j-editable-table .j-row-highlight{background:#fffbe6 !important;transition:background .3s}',
  '.j-editable-table .j-row-disabled{color:#999}',
  '.j-editable-table .j-cell-error{background:#fff2f0}',
  '.j-editable-table .ag-cell.j-cell-text.j-cell-error{box-shadow:inset 0 0 0 1px #ff4d4f}',
  // Always-edit text cells (an input's look-alike box holding the input while focused) and the click-to-edit input editor.
  '.j-editable-table .ag-cell.j-cell-live{padding-left:8px;padding-right:8px}',
  '.j-editable-table .j-cell-input{width:100%;height:32px;max-height:calc(100% - 4px);box-sizing:border-box;border:1px solid #d9d9d9;border-radius:4px;padding:0 7px;font:inherit;color:inherit;background:#fff;outline:none;transition:border-color .2s}',
  '.j-editable-table .j-cell-input:hover{border-color:#4096ff}',
  '.j-editable-table .j-cell-input:focus,.j-editable-table .j-cell-box:focus-within{border-color:#1677ff;box-shadow:0 0 0 2px rgba(5,145,255,.1)}',
  '.j-editable-table .j-cell-input:disabled,.j-editable-table .j-cell-box.j-cell-disabled{background:#f5f5f5;color:rgba(0,0,0,.25);cursor:not-allowed}',
  '.j-editable-table .j-cell-box{display:flex;align-items:center;overflow:hidden;white-space:pre;line-height:normal;cursor:text}',
  '.j-editable-table .j-cell-box:empty::before{content:attr(data-placeholder);color:#757575}',
  '.j-editable-table .ag-right-aligned-cell .j-cell-box{justify-content:flex-end}',
  '.j-editable-table .j-cell-box input{flex:1;min-width:0;height:100%;margin:0;padding:0;border:0;font:inherit;color:inherit;text-align:inherit;background:none;outline:none}',
  '.j-editable-table .j-cell-input.j-cell-editor{height:100%;max-height:none;border-color:#1677ff;border-radius:0}',
  '.j-editable-table .ag-right-aligned-cell .j-cell-input{text-align:right}',
  '.j-editable-table .j-cell-input.j-cell-input-error,.j-editable-table .ag-cell.j-cell-error .j-cell-input{border-color:#ff4d4f}',
  '.j-editable-table .ag-cell.j-cell-live.j-cell-error{background:none}',
  // Pickers' look-alikes (select, date, textarea): a box behind the text — the cell's first flex item, from
  // 8 px inside the cell to 8 px before its end, its negative right margin putting the text back over it —
  // with a drop-down mark for pickers.
  '.j-editable-table .ag-cell.j-cell-boxed{padding-left:16px;padding-right:16px;overflow:hidden;white-space:nowrap;cursor:pointer}',
  ".j-editable-table .ag-cell.j-cell-boxed::before{content:'';flex:none;width:calc(100% + 16px);height:32px;max-height:calc(100% - 4px);margin:0 calc(-100% - 8px) 0 -8px;box-sizing:border-box;border:1px solid #d9d9d9;border-radius:4px;background:#fff}",
  '.j-editable-table .ag-cell.j-cell-picker{padding-right:30px}',
  `.j-editable-table .ag-cell.j-cell-picker::before{width:calc(100% + 30px);margin-right:calc(-100% - 22px);background:#fff url(${CHEVRON}) no-repeat right 8px center/10px 6px}`,
  '.j-editable-table .ag-cell.j-cell-boxed:hover::before{border-color:#4096ff}',
  '.j-editable-table .ag-cell.j-cell-boxed.j-cell-error::before{border-color:#ff4d4f}',
  '.j-editable-table .ag-cell.j-cell-boxed.ag-cell-focus::before{border-color:#1677ff}',
  // DOM cells.
  '.j-editable-table .j-cell-radio label{margin-right:8px;white-space:nowrap}',
  '.j-editable-table .j-cell-progress{display:flex;align-items:center;gap:6px;width:100%;font-size:12px}',
  '.j-editable-table .j-cell-progress-track{flex:1;height:6px;background:#f0f0f0;border-radius:3px}',
  '.j-editable-table .j-cell-tags{overflow:hidden;white-space:nowrap}',
  '.j-editable-table .j-cell-tag{display:inline-block;margin-right:4px;padding:0 7px;font-size:12px;line-height:20px;border:1px solid #d9d9d9;border-radius:4px;background:#fafafa}',
].join('');
/** Rows rendered beyond the viewport on each side (the viewport is at most 400 px ≈ 7 rows). */
const ROW_BUFFER = 5;
const errKey = (id: string, key: string) => `${id}|${key}`;
const rowIdOf = (p: GetRowIdParams<Row>) => p.data.id;
const LOCALE = { noRowsToShow: '暂无数据' };
/** Cell components for data rows; pinned footer rows show their plain value. */
const dataCell = (component: unknown) => (p: ICellRendererParams<Row>) => (p.node.rowPinned ? undefined : { component });
const SELECTION_COLUMN: ColDef<Row> = { pinned: 'left', width: 50, minWidth: 40 };
const SELECTION_COLUMN_DOM: ColDef<Row> = { ...SELECTION_COLUMN, cellClass: 'ag-selection-checkbox', cellRendererSelector: dataCell(SelectCell) };
/** Keys an always-edit input keeps for itself; Tab, Up and Down still move between cells. */
const liveInputKeys = (p: SuppressKeyboardEventParams<Row>) => p.event.target instanceof HTMLInputElement && !['Tab', 'ArrowUp', 'ArrowDown'].includes(p.event.key);

function updateTree(rows: Row[], id: string, patch: (r: Row) => Row, childrenKey: string): Row[] {
  return rows.map((r) => {
    if (r.id === id) return patch(r);
    const kids = r[childrenKey] as Row[] | undefined;
    return kids?.length ? { ...r, [childrenKey]: updateTree(kids, id, patch, childrenKey) } : r;
  });
}

/** The editable table on AG Grid (SPEC §3, §4, §9). */
export const JEditableTable = forwardRef<JEditableTableApi, JEditableTableProps>(function JEditableTable(props, ref) {
  const {
    columns, value, dataSource = value ?? NO_ROWS, alwaysEdit = true, rowNumber = true, rowSelection = true, disabledRows, dragSort = false, dragSortKey = DRAG_SORT_KEY, childrenKey = 'children',
    size = 'medium', maxHeight = MAX_HEIGHT, toolbar = true, toolbarButtons = ['add', 'save', 'remove', 'clearSelection', 'expand', 'collapse'], authPre, hasAuth = () => true, disabled = false, slots = {},
  } = props;
  const cbs = useRef(props);
  cbs.current = props;
  const [rows, setRowsState] = useState<Row[]>(dataSource);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const setRows = useCallback((r: Row[]) => {
    rowsRef.current = r;
    setRowsState(r);
    cbs.current.onChange?.(r);
  }, []);
  useEffect(() => {
    if (dataSource !== rowsRef.current) {
      rowsRef.current = dataSource;
      setRowsState(dataSource);
    }
  }, [dataSource]);
  const deleted = useRef<string[]>([]);
  const errors = useRef(new Map<string, string>());
  const root = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [highlight, setHighlight] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string[]>([]);
  const lastAdd = useRef(0);
  const [addNum, setAddNum] = useState(1);
  const [scrollBottom, setScrollBottom] = useState(() => localStorage.getItem(SCROLL_KEY) === 'true');
  const api = useRef<GridApi<Row>>(undefined);
  const [dicts, setDicts] = useState<Record<string, Option[]>>({});

  const isTree = useMemo(() => rows.some((r) => Array.isArray(r[childrenKey]) && (r[childrenKey] as Row[]).length > 0), [rows, childrenKey]);
  const display: Row[] = useMemo(() => (isTree ? flattenTree(rows, expanded, childrenKey) : rows), [isTree, rows, expanded, childrenKey]);
  const footer = useMemo(() => footerRows(display, columns), [display, columns]);

  useEffect(() => {
    const codes = [...new Set(columns.filter((c) => c.dictCode && !c.options).map((c) => c.dictCode!))];
    let live = true;
    void Promise.all(codes.map(async (c) => [c, await loadDict(c)] as const)).then((list) => live && setDicts(Object.fromEntries(list)));
    return () => {
      live = false;
    };
  }, [columns]);

  const validateCell = useCallback(async (row: Row, c: EditColumn): Promise<string | undefined> => {
    if (!c.validateRules?.length) return undefined;
    const others = rowsRef.current.filter((r) => r.id !== row.id).map((r) => r[c.key]);
    const msg = await validateValue(row[c.key], c.validateRules, { title: c.title, columnValues: [...others, row[c.key]] });
    const k = errKey(row.id, c.key);
    if (msg) errors.current.set(k, msg);
    else errors.current.delete(k);
    return msg;
  }, []);

  /** Redraws the error marks: one cell, or every cell after a full validation. */
  const refreshErrors = useCallback((cell?: { id: string; key: string }) => {
    const a = api.current;
    if (!a || a.isDestroyed()) return;
    if (!cell) return a.refreshCells({ force: true });
    const node = a.getRowNode(cell.id);
    if (node) a.refreshCells({ rowNodes: [node], columns: [cell.key], force: true });
  }, []);

  const setCell = useCallback((id: string, key: string, value: unknown, extra?: Record<string, unknown>, oldValue?: { v: unknown }) => {
    let changed: Row | undefined;
    let old: unknown;
    const next = updateTree(rowsRef.current, id, (r) => {
      old = oldValue ? oldValue.v : r[key];
      changed = { ...r, ...(extra ?? {}), [key]: value };
      return changed;
    }, childrenKey);
    setRows(next);
    if (changed) {
      cbs.current.onValueChange?.({ row: changed, key, value, oldValue: old });
      const c = columns.find((x) => x.key === key);
      if (c) void validateCell(changed, c).then(() => refreshErrors({ id, key }));
    }
  }, [childrenKey, columns, setRows, validateCell, refreshErrors]);

  const [portalHost, portals] = usePortals();
  // The grid takes its context once: one object, kept current, that cells read when they need it.
  const context = useRef({} as TableContext).current;
  Object.assign(context, {
    setCell,
    validate: (id: string, key: string) => {
      const r = rowsRef.current.find((x) => x.id === id);
      const c = columns.find((x) => x.key === key);
      if (r && c?.validateRules?.length) void validateCell(r, c).then(() => refreshErrors({ id, key }));
    },
    optionsOf: (c) => c.options ?? dicts[c.dictCode ?? ''] ?? [],
    columnValues: (key, exceptId) => rowsRef.current.filter((r) => r.id !== exceptId).map((r) => r[key]),
    disabled,
    slots,
    portal: portalHost.render,
  } satisfies TableContext);
  const send = useVxeSocket({ pageId: props.pageId, socketKey: props.socketKey, onUpdate: (rec) => liveUpdate(rec, true) });
  const liveUpdate = (record: Record<string, unknown>, hl = true) => {
    const { rows: next, hit } = applyLiveUpdate(rowsRef.current, record);
    if (!hit) return;
    setRows(next);
    if (hl) {
      const id = String(record.id);
      setHighlight((s) => new Set(s).add(id));
      setTimeout(() => setHighlight((s) => {
        const n = new Set(s);
        n.delete(id);
        return n;
      }), HIGHLIGHT_MS);
    }
  };

  const colDefs = useMemo<ColDef<Row>[]>(() => {
    const hasStats = columns.some((c) => c.statistics?.length);
    const defs: ColDef<Row>[] = [];
    const firstLabel = (p: { node: { rowPinned?: string | null } | null; data?: Row }) => (p.node?.rowPinned ? String(p.data?.__footer ?? '') : undefined);
    if (rowNumber)
      defs.push({ colId: '__seq', headerName: '#', width: 60, minWidth: 60, pinned: 'left', editable: false, sortable: false, valueGetter: (p) => firstLabel(p) ?? (p.node?.rowIndex ?? 0) + 1 });
    if (dragSort && !isTree) defs.push({ colId: '__drag', headerName: '', width: 40, minWidth: 40, cellRendererSelector: disabled ? undefined : dataCell(DragCell), pinned: 'left', sortable: false });
    if (isTree)
      defs.push({
        colId: '__expand', headerName: '', width: 60, minWidth: hasStats ? 60 : 40, pinned: 'left', sortable: false,
        cellRenderer: (p: ICellRendererParams<FlatRow>) => {
          const d = p.data;
          if (!d || p.node.rowPinned || !d.__hasChildren) return '';
          const open = expanded.has(d.id);
          const a = document.createElement('a');
          a.setAttribute('aria-label', open ? '收起' : '展开');
          a.style.paddingLeft = `${d.__level * 12}px`;
          a.textContent = open ? '▾' : '▸';
          a.onclick = () => setExpanded((s) => {
            const n = new Set(s);
            if (open) n.delete(d.id);
            else n.add(d.id);
            return n;
          });
          return a;
        },
      });
    for (const c of columns) {
      if (ROW_TYPES.has(c.type)) continue;
      const def: ColDef<Row> = {
        colId: c.key,
        field: c.key,
        headerName: c.validateRules?.some((r) => r.required) ? `*${c.title}` : c.title,
        width: widthOf(c),
        minWidth: minWidthOf(c, hasStats),
        hide: c.type === 'hidden',
        sortable: false,
        editable: (p) => !disabled && !c.disabled && !p.node.rowPinned,
        cellRendererParams: { column: c },
        cellEditorParams: { column: c },
      };
      // Error marks (red box, message as tooltip) only where rules can fail.
      if (c.validateRules?.length) {
        def.cellClassRules = { 'j-cell-error': (p: CellClassParams<Row>) => !!p.data && errors.current.has(errKey(p.data.id, c.key)) };
        def.tooltipValueGetter = (p) => (p.data ? errors.current.get(errKey(p.data.id, c.key)) : undefined);
      }
      // Editors' look-alikes in always-edit mode: a box (and a drop-down mark for pickers) drawn by CSS on the plain value.
      const align = c.type === 'inputNumber' ? ' ag-right-aligned-cell' : '';
      const text = (d: ColDef<Row>, picker = false) => {
        d.valueFormatter = (p) => (p.node?.rowPinned ? String(p.value ?? '') : displayText(c, p.value, context.optionsOf(c)));
        d.cellClass = (p) => (p.node.rowPinned ? align : (alwaysEdit ? (picker ? 'j-cell-boxed j-cell-picker' : 'j-cell-boxed') : 'j-cell-text') + align);
      };
      if (TEXT_CELL_TYPES.has(c.type)) {
        if (c.type === 'inputNumber') def.type = 'rightAligned';
        if (alwaysEdit) {
          // Always-edit: the cell's own input (InputCell) is the editor.
          def.editable = false;
          def.cellRendererSelector = dataCell(InputCell);
          def.suppressKeyboardEvent = liveInputKeys;
          def.cellClass = (p) => (p.node.rowPinned ? align : 'j-cell-live' + align);
          def.valueFormatter = (p) => (c.type === 'inputNumber' ? groupThousands(p.value) : String(p.value ?? ''));
        } else {
          def.cellEditor = InputCellEditor;
          text(def);
          if (c.type === 'inputNumber') def.valueFormatter = (p) => groupThousands(p.value);
          if (c.type === 'tags') def.cellRendererSelector = dataCell(TagsCell);
        }
        defs.push(def);
        continue;
      }
      switch (c.type) {
        case 'textarea':
          def.cellEditor = TextareaCellEditor;
          def.cellEditorPopup = true;
          text(def);
          break;
        case 'select':
        case 'select-search':
        case 'sel_search':
        case 'sel_search_async':
        case 'select-multiple':
        case 'list_multi':
        case 'select-dict-search':
          def.cellEditor = SelectCellEditor;
          def.cellEditorPopup = true;
          text(def, true);
          break;
        case 'date':
        case 'datetime':
        case 'time':
          def.cellEditor = DateCellEditor;
          def.cellEditorPopup = true;
          text(def, true);
          break;
        case 'checkbox':
        case 'checkbox_meta':
          def.editable = false;
          def.cellRendererSelector = dataCell(CheckboxCell);
          break;
        case 'radio':
          def.editable = false;
          def.cellRendererSelector = dataCell(RadioCell);
          break;
        case 'upload':
        case 'file':
        case 'image':
          def.editable = false;
          def.cellRendererSelector = dataCell(UploadCell);
          break;
        case 'sel_depart':
          def.editable = false;
          def.cellRendererSelector = dataCell(DepartCell);
          break;
        case 'sel_user':
          def.editable = false;
          def.cellRendererSelector = dataCell(UserCell);
          break;
        case 'popup':
          def.editable = false;
          def.cellRendererSelector = dataCell(PopupCell);
          break;
        case 'progress':
          def.editable = false;
          def.cellRendererSelector = dataCell(ProgressCell);
          break;
        case 'slot':
          def.editable = false;
          def.cellRendererSelector = dataCell(SlotCell);
          break;
        default:
          break;
      }
      defs.push(def);
    }
    return defs;
  }, [columns, rowNumber, dragSort, isTree, expanded, disabled, alwaysEdit, context]);
  useEffect(() => {
    api.current?.refreshCells({ force: true });
  }, [dicts]);

  // Grid props keep their identity between renders: a new getRowHeight re-measures every row, a new
  // rowSelection or selectionColumnDef rebuilds the columns.
  const getRowHeight = useCallback((p: RowHeightParams<Row>) => (p.node.rowPinned ? FOOTER_HEIGHT : SIZES[size]), [size]);
  // Multiple selection: the header checkbox keeps the grid's selection column, its rows get SelectCell's
  // plain-DOM checkbox instead of the grid's. Radio has no header checkbox: the grid's own checkboxes keep the column.
  const rowSelectionOptions = useMemo<RowSelectionOptions<Row> | undefined>(
    () =>
      rowSelection
        ? { mode: rowSelection === 'radio' ? 'singleRow' : 'multiRow', checkboxes: rowSelection === 'radio' && ((p) => !p.node.rowPinned), headerCheckbox: rowSelection !== 'radio', enableClickSelection: false, isRowSelectable: (n) => !!n.data && !n.rowPinned && !isDisabledRow(n.data, disabledRows) }
        : undefined,
    [rowSelection, disabledRows],
  );
  const onRowDragEnd = useCallback((e: RowDragEndEvent<Row>) => {
    const id = e.node.data?.id;
    const from = rowsRef.current.findIndex((r) => r.id === id);
    if (from < 0 || e.overIndex < 0) return;
    const next = [...rowsRef.current];
    const [moved] = next.splice(from, 1);
    next.splice(Math.min(e.overIndex, next.length), 0, moved!);
    const renumbered = renumber(next, dragSortKey);
    setRows(renumbered);
    cbs.current.onDragged?.(renumbered);
  }, [dragSortKey, setRows]);

  const rowClassRules = useMemo<RowClassRules<Row>>(() => ({ 'j-row-highlight': (p) => !!p.data && highlight.has(p.data.id), 'j-row-disabled': (p) => !!p.data && isDisabledRow(p.data, disabledRows) }), [highlight, disabledRows]);

  const validateAll = async () => {
    const all = isTree ? flattenTree(rowsRef.current, new Set(allTreeIds(rowsRef.current, childrenKey)), childrenKey) : rowsRef.current;
    for (const r of all) for (const c of columns) await validateCell(r, c);
    refreshErrors();
    return errors.current.size;
  };

  const doAdd = (count = 1, index = 0, values?: Record<string, unknown>) => {
    const { rows: next, added } = addRowsTo(rowsRef.current, columns, count, index, values);
    setRows(dragSort ? renumber(next, dragSortKey) : next);
    cbs.current.onAdded?.(added);
    if (scrollBottom && (!index || index > rowsRef.current.length)) setTimeout(() => api.current?.ensureIndexVisible(next.length - 1, 'bottom'), 0);
    return added;
  };
  const doRemove = (ids: string[]) => {
    const gone = rowsRef.current.filter((r) => ids.includes(r.id));
    const r = removeRowsFrom(rowsRef.current, ids, deleted.current);
    deleted.current = r.deleted;
    for (const id of ids) for (const c of columns) errors.current.delete(errKey(id, c.key));
    setRows(dragSort ? renumber(r.rows, dragSortKey) : r.rows);
    setSelected((s) => s.filter((x) => !ids.includes(x)));
    cbs.current.onRemoved?.(gone, deleted.current);
  };

  /** Writes what is being typed: ends the editor, blurs a focused always-edit input (its blur writes). */
  const flush = () => {
    api.current?.stopEditing();
    const a = document.activeElement;
    if (a instanceof HTMLInputElement && root.current?.contains(a)) a.blur();
  };

  useImperativeHandle(ref, () => ({
    async getValues() {
      flush();
      const n = await validateAll();
      if (n > 0) throw new Error([...errors.current.values()][0]);
      return rowsRef.current;
    },
    validate: validateAll,
    getRows: () => rowsRef.current,
    setRows,
    addRows: doAdd,
    removeRows: doRemove,
    getDeleteIds: () => [...deleted.current],
    moveRow: (id, dir) => setRows(moveRow(rowsRef.current, id, dir)),
    getSelectedIds: () => selected,
    clearSelection: () => api.current?.deselectAll(),
    liveUpdate,
    gridApi: () => api.current,
  }));

  // Grid events, read through a ref: the grid keeps the handlers it was created with.
  const events = useRef<Pick<GridOptions<Row>, 'onCellValueChanged' | 'onCellEditingStopped' | 'onSelectionChanged' | 'onRowDragEnd'>>({});
  events.current = {
    onCellValueChanged: (e: CellValueChangedEvent<Row>) => {
      if (!e.data || e.node.rowPinned) return;
      setCell(e.data.id, String(e.colDef.field), e.newValue, undefined, { v: e.oldValue });
      send({ ...e.data, [String(e.colDef.field)]: e.newValue });
    },
    onCellEditingStopped: (e: CellEditingStoppedEvent<Row>) => {
      // Blur: validate the cell that lost focus.
      const c = columns.find((x) => x.key === e.colDef.field);
      const r = e.data && rowsRef.current.find((x) => x.id === e.data!.id);
      if (c && r) void validateCell(r, c).then(() => refreshErrors({ id: r.id, key: c.key }));
    },
    onSelectionChanged: (e: SelectionChangedEvent<Row>) => {
      const next = e.api.getSelectedRows().map((r) => r.id);
      const selectable = display.filter((r) => !isDisabledRow(r, disabledRows)).length;
      cbs.current.onSelectionChange?.(selectionChange(selected, next, rowsRef.current, selectable));
      setSelected(next);
    },
    onRowDragEnd,
  };

  const buttons = visibleButtons(toolbarButtons.filter((b) => isTree || (b !== 'expand' && b !== 'collapse')), authPre, hasAuth);
  const rowHeight = SIZES[size];
  const headerHeight = Math.min(48, rowHeight);
  const contentHeight = headerHeight + display.length * rowHeight + footer.length * FOOTER_HEIGHT + 2;
  const height = Math.max(headerHeight + rowHeight + 2, Math.min(maxHeight, contentHeight));
  // The theme's row height is what the grid assumes for rows getRowHeight has not been asked about yet:
  // the real height, so a row measured as it scrolls in changes no row position or container height.
  const theme = useMemo(() => themeQuartz.withParams({ fontSize: size === 'medium' ? 14 : size === 'small' ? 13 : 12, headerFontWeight: 600, wrapperBorderRadius: 4, rowHeight: SIZES[size] }), [size]);

  // The vanilla grid (rows and cells are plain DOM, not React): created once, then given the options
  // whose identity changed (as AgGridReact does with its props).
  const options: GridOptions<Row> = {
    theme,
    rowData: display,
    columnDefs: colDefs,
    rowHeight,
    getRowHeight,
    headerHeight,
    // Taller content than the box always shows the scrollbar: telling the grid spares it a forced layout on every scroll frame.
    alwaysShowVerticalScroll: contentHeight > height,
    pinnedBottomRowData: footer,
    suppressClickEdit: disabled,
    rowClassRules,
    rowSelection: rowSelectionOptions,
    selectionColumnDef: rowSelection === 'radio' ? SELECTION_COLUMN : SELECTION_COLUMN_DOM,
    rowDragManaged: dragSort && !isTree,
  };
  const given = useRef(options);
  const gridBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const a = createGrid<Row>(gridBox.current!, {
      ...given.current,
      context,
      getRowId: rowIdOf,
      rowBuffer: ROW_BUFFER,
      animateRows: false,
      singleClickEdit: true,
      stopEditingWhenCellsLoseFocus: true,
      tooltipShowDelay: 0,
      localeText: LOCALE,
      onCellValueChanged: (e) => events.current.onCellValueChanged?.(e),
      onCellEditingStopped: (e) => events.current.onCellEditingStopped?.(e),
      onSelectionChanged: (e) => events.current.onSelectionChanged?.(e),
      onRowDragEnd: (e) => events.current.onRowDragEnd?.(e),
    });
    api.current = a;
    return () => {
      api.current = undefined;
      a.destroy();
    };
  }, [context]);
  useEffect(() => {
    const changed = Object.fromEntries(Object.entries(options).filter(([k, v]) => given.current[k as keyof GridOptions<Row>] !== v));
    given.current = options;
    if (Object.keys(changed).length) api.current?.updateGridOptions(changed);
  });

  return (
    <div ref={root} className={`j-editable-table j-editable-table-${size}`}>
      <style>{TABLE_CSS}</style>
      {toolbar && !disabled && (
        <Space style={{ marginBottom: 8 }} wrap className="j-editable-table-toolbar">
          {buttons.includes('add') && (
            <>
              <Button
                type="primary"
                onClick={() => {
                  const now = Date.now();
                  if (now - lastAdd.current < INSERT_GUARD_MS) return void message.warning(INSERT_GUARD_MESSAGE);
                  lastAdd.current = now;
                  doAdd(addNum, 0);
                }}
              >
                {TOOLBAR_LABELS.add}
              </Button>
              <InputNumber size="small" min={1} precision={0} value={addNum} aria-label="新增行数" onChange={(v) => setAddNum(Math.max(1, v ?? 1))} style={{ width: 64 }} />
              <Checkbox checked={scrollBottom} onChange={(e) => (setScrollBottom(e.target.checked), localStorage.setItem(SCROLL_KEY, String(e.target.checked)))}>
                添加后滚动到底部
              </Checkbox>
            </>
          )}
          {buttons.includes('save') && (
            <Button
              onClick={async () => {
                flush();
                const n = await validateAll();
                if (n > 0) return void message.error([...errors.current.values()][0]);
                cbs.current.onSave?.(rowsRef.current);
              }}
            >
              {TOOLBAR_LABELS.save}
            </Button>
          )}
          {buttons.includes('remove') && selected.length > 0 && (
            <Popconfirm title={`确定要删除这 ${selected.length} 行吗?`} onConfirm={() => doRemove(selected)}>
              <Button danger>{TOOLBAR_LABELS.remove}</Button>
            </Popconfirm>
          )}
          {buttons.includes('clearSelection') && selected.length > 0 && <Button onClick={() => api.current?.deselectAll()}>{TOOLBAR_LABELS.clearSelection}</Button>}
          {buttons.includes('expand') && <Button onClick={() => setExpanded(new Set(allTreeIds(rowsRef.current, childrenKey)))}>{TOOLBAR_LABELS.expand}</Button>}
          {buttons.includes('collapse') && <Button onClick={() => setExpanded(new Set())}>{TOOLBAR_LABELS.collapse}</Button>}
          {selected.length > 0 && <span>已选择 {selected.length} 项</span>}
        </Space>
      )}
      <div ref={gridBox} style={{ height }} />
      {portals}
    </div>
  );
});

export default JEditableTable;
