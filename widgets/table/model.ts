import type { ValidateRule } from '../logic/validation';
import { numberBlur, numberTyping, tagsInput } from '../logic/inputs';

/** Editable-table column and row model (SPEC §3, §4, §9) — pure functions, unit-tested. */
export type CellType =
  | 'row-number' | 'row-checkbox' | 'row-radio' | 'row-expand' | 'row-drag-sort'
  | 'normal' | 'input' | 'inputNumber' | 'textarea' | 'select' | 'date' | 'datetime' | 'time'
  | 'checkbox' | 'checkbox_meta' | 'upload' | 'file' | 'image'
  | 'select-search' | 'sel_search' | 'sel_search_async' | 'select-multiple' | 'list_multi' | 'select-dict-search'
  | 'progress' | 'sel_depart' | 'sel_user' | 'tags' | 'slot' | 'hidden' | 'input_pop' | 'popup' | 'radio';

export const CELL_TYPES: CellType[] = ['row-number', 'row-checkbox', 'row-radio', 'row-expand', 'row-drag-sort', 'normal', 'input', 'inputNumber', 'textarea', 'select', 'date', 'datetime', 'time', 'checkbox', 'checkbox_meta', 'upload', 'file', 'image', 'select-search', 'sel_search', 'sel_search_async', 'select-multiple', 'list_multi', 'select-dict-search', 'progress', 'sel_depart', 'sel_user', 'tags', 'slot', 'hidden', 'input_pop', 'popup', 'radio'];

export interface Option {
  value: string;
  text?: string;
  title?: string;
  label?: string;
}

export interface EditColumn {
  key: string;
  title: string;
  type: CellType;
  width?: number;
  minWidth?: number;
  dictCode?: string;
  /** Remote dictionary `table,text,code` for the async search select. */
  dict?: string;
  options?: Option[];
  defaultValue?: unknown;
  defaultChecked?: boolean;
  /** checkbox: [checked, unchecked] values (default [true, false]). */
  customValue?: [unknown, unknown];
  validateRules?: ValidateRule[];
  placeholder?: string;
  disabled?: boolean;
  statistics?: ('sum' | 'average')[];
  /** Slot renderer name (slot cells) */
  slotName?: string;
  /** Popup: report code, report fields, destination row keys. */
  popupCode?: string;
  orgFields?: string;
  destFields?: string;
  /** Upload: biz path, number limit, whether the upload sends the access token (default true). */
  bizPath?: string;
  token?: boolean;
  number?: number;
  props?: Record<string, unknown>;
}

export type Row = Record<string, unknown> & { id: string };

export const ROW_HEIGHT = 61;
export const MAX_HEIGHT = 400;
export const DEFAULT_WIDTH = 120;
export const INSERT_GUARD_MS = 1500;
export const INSERT_GUARD_MESSAGE = '操作太快了，请稍后再试';
export const HIGHLIGHT_MS = 1400;
export const DRAG_SORT_KEY = 'orderNum';
export const SIZES = { medium: 61, small: 48, mini: 40, tiny: 32 } as const;
export type TableSize = keyof typeof SIZES;
export const TOOLBAR_LABELS = { add: '新增', save: '保存', remove: '删除', clearSelection: '清空选择', expand: '展开', collapse: '收起' } as const;
export type ToolbarButton = keyof typeof TOOLBAR_LABELS;

/** SPEC §9 widths: default 120 (datetime 200, user 220, department 160). */
export function widthOf(c: Pick<EditColumn, 'type' | 'width'>): number {
  if (c.width) return c.width;
  switch (c.type) {
    case 'datetime':
      return 200;
    case 'sel_user':
      return 220;
    case 'sel_depart':
      return 160;
    case 'row-number':
      return 60;
    case 'row-checkbox':
    case 'row-radio':
    case 'row-expand':
    case 'row-drag-sort':
      return 60;
    default:
      return DEFAULT_WIDTH;
  }
}

/** SPEC §9 minimums: datetime/user/department 190, date 135, sequence 60, checkbox/radio/expand 40 (60 with statistics). */
export function minWidthOf(c: Pick<EditColumn, 'type' | 'minWidth'>, hasStatistics = false): number | undefined {
  if (c.minWidth) return c.minWidth;
  switch (c.type) {
    case 'datetime':
    case 'sel_user':
    case 'sel_depart':
      return 190;
    case 'date':
      return 135;
    case 'row-number':
      return 60;
    case 'row-checkbox':
    case 'row-radio':
    case 'row-expand':
      return hasStatistics ? 60 : 40;
    default:
      return undefined;
  }
}

let seq = 0;
/** Temporary ids for new rows (never sent as deletes). */
export const TEMP_PREFIX = 'row_';
export const tempId = () => `${TEMP_PREFIX}${Date.now().toString(36)}_${(seq++).toString(36)}`;
export const isTempId = (id: string) => id.startsWith(TEMP_PREFIX);

export function newRow(columns: EditColumn[], values: Record<string, unknown> = {}): Row {
  const row: Row = { id: tempId() };
  for (const c of columns) {
    if (c.type === 'checkbox' && c.defaultChecked !== undefined) row[c.key] = (c.customValue ?? [true, false])[c.defaultChecked ? 0 : 1];
    else if (c.defaultValue !== undefined) row[c.key] = c.defaultValue;
  }
  return { ...row, ...values };
}

/** Adds `count` (≥ 1) rows; index 0 (default) appends at the bottom, otherwise inserts before that position (1-based). */
export function addRows(rows: Row[], columns: EditColumn[], count = 1, index = 0, values?: Record<string, unknown>): { rows: Row[]; added: Row[] } {
  const n = Math.max(1, Math.trunc(count) || 1);
  const added = Array.from({ length: n }, () => newRow(columns, values));
  if (!index || index <= 0 || index > rows.length) return { rows: [...rows, ...added], added };
  const at = index - 1;
  return { rows: [...rows.slice(0, at), ...added, ...rows.slice(at)], added };
}

/** Removes rows; ids of saved (non-temporary) rows are kept for the delete list. */
export function removeRows(rows: Row[], ids: string[], deleted: string[] = []): { rows: Row[]; deleted: string[] } {
  const set = new Set(ids);
  const gone = rows.filter((r) => set.has(r.id) && !isTempId(r.id)).map((r) => r.id);
  return { rows: rows.filter((r) => !set.has(r.id)), deleted: [...deleted, ...gone.filter((id) => !deleted.includes(id))] };
}

export function moveRow(rows: Row[], id: string, dir: 'up' | 'down'): Row[] {
  const i = rows.findIndex((r) => r.id === id);
  const j = dir === 'up' ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= rows.length) return rows;
  const next = [...rows];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/** After a drag sort: the order key renumbered from 1. */
export function renumber(rows: Row[], key = DRAG_SORT_KEY): Row[] {
  return rows.map((r, i) => (r[key] === i + 1 ? r : { ...r, [key]: i + 1 }));
}

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v ?? ''));
  return Number.isFinite(n) ? n : 0;
};

/** Footer rows 合计 / 平均 for the columns with statistics. */
export function footerRows(rows: Row[], columns: EditColumn[]): Row[] {
  const kinds = (['sum', 'average'] as const).filter((k) => columns.some((c) => c.statistics?.includes(k)));
  return kinds.map((k) => {
    const out: Row = { id: `__footer_${k}`, __footer: k === 'sum' ? '合计' : '平均' };
    for (const c of columns)
      if (c.statistics?.includes(k)) {
        const total = rows.reduce((s, r) => s + num(r[c.key]), 0);
        out[c.key] = k === 'sum' ? round(total) : rows.length ? round(total / rows.length) : 0;
      }
    return out;
  });
}
const round = (n: number) => Math.round(n * 100) / 100;

/** Whether a row matches the disabledRows spec ({field: value | value[]}). */
export function isDisabledRow(row: Record<string, unknown>, disabledRows?: Record<string, unknown>): boolean {
  if (!disabledRows) return false;
  return Object.entries(disabledRows).some(([k, v]) => (Array.isArray(v) ? v.includes(row[k]) : row[k] === v));
}

export type SelectionAction = 'selected' | 'unselected' | 'selected-all' | 'unselected-all';
export interface SelectionChange {
  action: SelectionAction;
  selectedRowIds: string[];
  selectedRows: Row[];
}

/** The selection-change payload from the previous and current selected ids. */
export function selectionChange(prev: string[], next: string[], rows: Row[], selectableCount: number): SelectionChange {
  let action: SelectionAction = next.length >= prev.length ? 'selected' : 'unselected';
  if (next.length === selectableCount && selectableCount > 0 && next.length - prev.length > 1) action = 'selected-all';
  if (next.length === 0 && prev.length > 1) action = 'unselected-all';
  const set = new Set(next);
  return { action, selectedRowIds: next, selectedRows: rows.filter((r) => set.has(r.id)) };
}

/** Live update from another page: values replaced except id, tug_status merged. */
export function applyLiveUpdate(rows: Row[], record: Record<string, unknown>): { rows: Row[]; hit: boolean } {
  const id = String(record.id ?? '');
  let hit = false;
  const next = rows.map((r) => {
    if (r.id !== id) return r;
    hit = true;
    const tug = { ...((r.tug_status as object) ?? {}), ...((record.tug_status as object) ?? {}) };
    return { ...r, ...record, id: r.id, ...(record.tug_status || r.tug_status ? { tug_status: tug } : {}) };
  });
  return { rows: next, hit };
}

/** Tree rows flattened for display: children shown when their parent is expanded. */
export interface FlatRow extends Row {
  __level: number;
  __hasChildren: boolean;
}
export function flattenTree(rows: Row[], expanded: Set<string>, childrenKey = 'children', level = 0, out: FlatRow[] = []): FlatRow[] {
  for (const r of rows) {
    const kids = (r[childrenKey] as Row[] | undefined) ?? [];
    out.push({ ...r, __level: level, __hasChildren: kids.length > 0 || r.hasChildren === true });
    if (kids.length && expanded.has(r.id)) flattenTree(kids, expanded, childrenKey, level + 1, out);
  }
  return out;
}
export function allTreeIds(rows: Row[], childrenKey = 'children', out: string[] = []): string[] {
  for (const r of rows) {
    const kids = (r[childrenKey] as Row[] | undefined) ?? [];
    if (kids.length || r.hasChildren) out.push(r.id);
    allTreeIds(kids, childrenKey, out);
  }
  return out;
}

/** Toolbar buttons minus those excluded by the authorisation prefix (`{authPre}:{button}` not granted). */
export function visibleButtons(buttons: ToolbarButton[], authPre: string | undefined, hasAuth: (code: string) => boolean): ToolbarButton[] {
  if (!authPre) return buttons;
  return buttons.filter((b) => b === 'clearSelection' || b === 'expand' || b === 'collapse' || hasAuth(`${authPre}:${b}`));
}

/** One formatter for every call: `toLocaleString` builds one per call, which showed in scroll profiles. */
const THOUSANDS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 });
/** Thousands grouping of numbers. */
export function groupThousands(v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  const n = Number(v);
  if (!Number.isFinite(n)) return String(v);
  return THOUSANDS.format(n);
}

/** Cell types edited as text: an input (look-alike until focused) in always-edit mode, an input editor on click otherwise. */
export const TEXT_CELL_TYPES: ReadonlySet<CellType> = new Set<CellType>(['input', 'normal', 'input_pop', 'inputNumber', 'tags']);

/** Typing in a text cell (SPEC §5): the number rule for inputNumber, the tags semicolon rule for tags. */
export function cellTyping(type: CellType, next: string, previous: string): string {
  if (type === 'inputNumber') return numberTyping(next, previous);
  if (type === 'tags') return tagsInput(next);
  return next;
}

/** The stored value of a text cell's text: inputNumber → a float or '' (the number blur rule); others as typed. */
export function cellTextValue(type: CellType, text: string): unknown {
  return type === 'inputNumber' ? numberBlur(text) : text;
}

/** The text a text cell shows for a stored value. */
export const cellText = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
