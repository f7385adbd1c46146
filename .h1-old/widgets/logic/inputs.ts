/** Input → output rules of the small controls (SPEC §4, §5, §9). */

/** Tags input: semicolons stripped, one inserted after every 2 characters. */
export function tagsInput(text: string): string {
  const plain = (text ?? '').replace(/;/g, '');
  return plain.replace(/(.{2})/gu, '$1;');
}

/** Number input while typing: optional minus, digits and one decimal point; anything else keeps the previous text. */
export function numberTyping(next: string, previous: string): string {
  return /^-?\d*\.?\d*$/.test(next) ? next : previous;
}

/** Number input on blur: a float, or blank when invalid. */
export function numberBlur(text: string): number | '' {
  if (text === '' || text === '-' || text === '.' || text === '-.') return '';
  const n = Number.parseFloat(text);
  return Number.isFinite(n) ? n : '';
}

export const MULTI_SEPARATOR = ',';

/** Multi-select values → the stored separator-joined string. */
export function joinMulti(values: readonly (string | number)[] | undefined | null, separator = MULTI_SEPARATOR): string {
  return (values ?? []).map(String).filter((v) => v !== '').join(separator);
}

export function splitMulti(value: unknown, separator = MULTI_SEPARATOR): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (value === undefined || value === null || value === '') return [];
  return String(value).split(separator).filter((v) => v !== '');
}

/** Switch: on value is the first option, off the second (default Y/N). */
export const SWITCH_OPTIONS: [unknown, unknown] = ['Y', 'N'];
export function switchChecked(value: unknown, options: readonly unknown[] = SWITCH_OPTIONS): boolean {
  return value !== undefined && value !== null && value !== '' && value === options[0];
}
export function switchValue(checked: boolean, options: readonly unknown[] = SWITCH_OPTIONS): unknown {
  return checked ? options[0] : options[1];
}
/** Empty input emits the off value. */
export function switchNormalize(value: unknown, options: readonly unknown[] = SWITCH_OPTIONS): unknown {
  return value === undefined || value === null || value === '' ? options[1] : value;
}

/** User picker label: realname(username). */
export function userLabel(u: { realname?: string | null; username?: string | null }): string {
  return u.realname ? `${u.realname}(${u.username ?? ''})` : String(u.username ?? '');
}

/** Texts of picked records joined for display. */
export function pickedText<T extends Record<string, unknown>>(records: T[], textField: string, separator = ','): string {
  return records.map((r) => String(r[textField] ?? '')).join(separator);
}

/** Ellipsis: the first `length` characters plus …; length ≤ 0 disables. */
export const ELLIPSIS_LENGTH = 25;
export function ellipsis(text: unknown, length = ELLIPSIS_LENGTH): string {
  const s = text === undefined || text === null ? '' : String(text);
  if (length <= 0) return s;
  const chars = Array.from(s);
  return chars.length > length ? `${chars.slice(0, length).join('')}…` : s;
}

/** File name shown in a table cell: truncated at 5 characters (extension kept). */
export function cellFileName(name: string, length = 5): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  return Array.from(base).length > length ? `${Array.from(base).slice(0, length).join('')}…${ext}` : name;
}

/** Image ordering within an image list (SPEC §5). */
export function moveImage<T>(list: readonly T[], index: number, dir: 'left' | 'right'): T[] {
  if (dir === 'left' && index <= 0) throw new Error('未知的操作');
  if (dir === 'right' && index >= list.length - 1) throw new Error('已到最后~');
  const next = [...list];
  const to = dir === 'left' ? index - 1 : index + 1;
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** Popup picker configuration check (SPEC §5). */
export function checkPopupConfig(code?: string, orgFields?: string, destFields?: string): string | undefined {
  if (!code || !orgFields || !destFields) return 'popup参数未正确配置!';
  if (orgFields.split(',').length !== destFields.split(',').length) return 'popup参数未正确配置,原始值和目标值数量不一致!';
  return undefined;
}

/** Tree/category selector condition: must be a JSON object string. */
export function parseCondition(condition: unknown): Record<string, unknown> | undefined {
  if (condition === undefined || condition === null || condition === '') return undefined;
  if (typeof condition === 'object' && !Array.isArray(condition)) return condition as Record<string, unknown>;
  try {
    const v = JSON.parse(String(condition)) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new Error('组件JTreeSelect-condition传值有误，需要一个json字符串!');
}
