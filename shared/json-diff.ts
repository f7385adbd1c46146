/** One difference between two JSON values, at a JSON pointer path. */
export interface JsonChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The differences between two JSON values (objects by key, arrays by index), deepest first reached,
 * in document order: what the page designer shows between two versions of a page schema.
 */
export function jsonDiff(before: unknown, after: unknown, path = ''): JsonChange[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: JsonChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= before.length) out.push({ path: `${path}/${i}`, kind: 'added', after: after[i] });
      else if (i >= after.length) out.push({ path: `${path}/${i}`, kind: 'removed', before: before[i] });
      else out.push(...jsonDiff(before[i], after[i], `${path}/${i}`));
    }
    return out;
  }
  if (isObject(before) && isObject(after)) {
    const out: JsonChange[] = [];
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const p = `${path}/${escape(k)}`;
      if (!(k in before)) out.push({ path: p, kind: 'added', after: after[k] });
      else if (!(k in after)) out.push({ path: p, kind: 'removed', before: before[k] });
      else out.push(...jsonDiff(before[k], after[k], p));
    }
    return out;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || '/', kind: 'changed', before, after }];
}
