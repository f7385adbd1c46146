/** Advanced query builder rules (SPEC §5). */
export type QueryRule = 'eq' | 'like' | 'right_like' | 'left_like' | 'in' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

export const QUERY_RULES: { value: QueryRule; label: string }[] = [
  { value: 'eq', label: '等于' },
  { value: 'like', label: '包含' },
  { value: 'right_like', label: '以..开始' },
  { value: 'left_like', label: '以..结尾' },
  { value: 'in', label: '在...中' },
  { value: 'ne', label: '不等于' },
  { value: 'gt', label: '大于' },
  { value: 'ge', label: '大于等于' },
  { value: 'lt', label: '小于' },
  { value: 'le', label: '小于等于' },
];

export interface QueryField {
  value: string;
  text: string;
  type: string;
  dbType?: string;
  dictCode?: string;
  dictTable?: string;
  dictText?: string;
  options?: { value: string; text?: string; label?: string }[];
  customReturnField?: string;
  popup?: unknown;
}

export interface QueryRow {
  field?: string;
  rule?: QueryRule;
  val?: string;
  type?: string;
  dbType?: string;
  dictCode?: string;
  dictTable?: string;
  dictText?: string;
  options?: QueryField['options'];
  customReturnField?: string;
  popup?: unknown;
}

export type MatchType = 'and' | 'or';

export interface SavedQuery {
  title: string;
  matchType: MatchType;
  records: QueryRow[];
}

export const allowsMulti = (rule: QueryRule | undefined) => rule === 'in';

/** Chooses a field: copies its type and dictionary details into the row; the value is cleared. */
export function chooseField(row: QueryRow, field: QueryField): QueryRow {
  const { value, type, dbType, dictCode, dictTable, dictText, options, customReturnField, popup } = field;
  return { rule: row.rule ?? 'eq', field: value, val: undefined, type, dbType, dictCode, dictTable, dictText, options, customReturnField, popup };
}

/** Changes the rule: leaving `in` keeps the first value only. */
export function changeRule(row: QueryRow, rule: QueryRule): QueryRow {
  let val = row.val;
  if (row.rule === 'in' && rule !== 'in' && val) val = val.split(',')[0];
  return { ...row, rule, val };
}

/** Value from the value widget: several values only for `in` (comma-joined). */
export function valueOf(rule: QueryRule | undefined, v: unknown): string {
  if (Array.isArray(v)) return allowsMulti(rule) ? v.map(String).join(',') : String(v[0] ?? '');
  return v === undefined || v === null ? '' : String(v);
}

export const isEmptyRow = (r: QueryRow) => !r.field || !r.rule || r.val === undefined || r.val === null || r.val === '';

/** The value widget of a field type (SPEC §5 list). */
export type ValueWidget = 'dictSearch' | 'dict' | 'dictMulti' | 'popup' | 'user' | 'depart' | 'area' | 'date' | 'datetime' | 'time' | 'number' | 'switch' | 'input';
export function valueWidgetOf(type: string | undefined): ValueWidget {
  switch (type) {
    case 'sel_search':
      return 'dictSearch';
    case 'list':
    case 'table-dict':
      return 'dict';
    case 'list_multi':
      return 'dictMulti';
    case 'popup':
      return 'popup';
    case 'select-user':
    case 'sel_user':
      return 'user';
    case 'select-depart':
    case 'sel_depart':
      return 'depart';
    case 'area-linkage':
    case 'pca':
      return 'area';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'time':
      return 'time';
    case 'int':
    case 'number':
      return 'number';
    case 'switch':
      return 'switch';
    default:
      return 'input';
  }
}

/** The payload of a query run; throws `不能查询空条件` when any row is empty or none given. */
export function buildQuery(rows: QueryRow[], matchType: MatchType): { matchType: MatchType; params: QueryRow[] } {
  if (rows.length === 0 || rows.some(isEmptyRow)) throw new Error('不能查询空条件');
  return { matchType, params: rows.map((r) => ({ ...r })) };
}

export const SAVED_QUERY_PREFIX = 'JSuperQuery_';
export const savedKey = (pagePath: string) => SAVED_QUERY_PREFIX + pagePath;

export function loadSaved(pagePath: string, storage: Storage = localStorage): SavedQuery[] {
  try {
    const v = JSON.parse(storage.getItem(savedKey(pagePath)) ?? '[]') as unknown;
    return Array.isArray(v) ? (v as SavedQuery[]) : [];
  } catch {
    return [];
  }
}

/**
 * Saves a query. Throws the SPEC messages for an empty condition or blank name; when the name
 * exists, `confirmOverwrite(message)` decides (resolves false → nothing saved).
 */
export async function saveQuery(
  pagePath: string,
  title: string,
  matchType: MatchType,
  rows: QueryRow[],
  confirmOverwrite: (message: string) => Promise<boolean>,
  storage: Storage = localStorage,
): Promise<boolean> {
  if (rows.length === 0 || rows.some(isEmptyRow)) throw new Error('空条件不能保存');
  const name = title.trim();
  if (!name) throw new Error('保存名称不能为空');
  const list = loadSaved(pagePath, storage);
  const at = list.findIndex((q) => q.title === name);
  if (at >= 0 && !(await confirmOverwrite(`${name} 已存在，是否覆盖？`))) return false;
  const entry: SavedQuery = { title: name, matchType, records: rows };
  if (at >= 0) list[at] = entry;
  else list.push(entry);
  storage.setItem(savedKey(pagePath), JSON.stringify(list));
  return true;
}

export const DELETE_SAVED_CONFIRM = '是否删除当前查询？';

export function deleteSaved(pagePath: string, title: string, storage: Storage = localStorage) {
  storage.setItem(savedKey(pagePath), JSON.stringify(loadSaved(pagePath, storage).filter((q) => q.title !== title)));
}

/** The active flag: set when emitted params are non-empty. */
export const isActive = (params: QueryRow[] | undefined) => (params?.length ?? 0) > 0;
