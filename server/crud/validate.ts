import type { EntityField } from './entity-types.js';
import { safeRegex } from './safe-regex.js';
import { coerce } from './query.js';
import { BizError } from '../http/envelope.js';
import { lengthError, patternError, rangeError } from '../../shared/form-values.js';

const fail = (message: string | undefined) => {
  if (message) throw new BizError(message);
};

const label = (f: EntityField) => f.title ?? f.name;

/**
 * Converts and checks one client value for a field: type, required, length, min/max, pattern.
 * Returns the value to store (null for empty). Messages are Chinese and name the field.
 */
export function checkValue(f: EntityField, raw: unknown): unknown {
  const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
  if (empty) {
    if (f.required) throw new BizError(`${label(f)}不能为空`);
    return null;
  }
  if (f.type === 'json') return typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (typeof raw === 'object') throw new BizError(`${label(f)}的值格式不正确`);
  const v = coerce(f, typeof raw === 'number' || typeof raw === 'boolean' ? raw : String(raw));
  if (typeof v === 'string' && (f.type === 'string' || f.type === 'text')) {
    if (f.type === 'string') fail(lengthError(label(f), v, f.length ?? 255));
    // an administrator's pattern runs on RE2 (linear time)
    if (f.pattern && f.pattern !== 'only') fail(patternError(label(f), v, f.pattern, safeRegex, f.patternMessage));
  }
  if (f.type === 'integer' || f.type === 'bigint' || f.type === 'number') {
    const n = Number(v);
    fail(rangeError(label(f), n, f.min, f.max));
    if (f.type === 'number') {
      const p = f.precision ?? 12;
      const sc = f.scale ?? 2;
      if (Math.abs(n) >= 10 ** (p - sc)) throw new BizError(`${label(f)}超出允许的范围`);
    }
  }
  return v;
}
