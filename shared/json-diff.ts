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

/** The result of a three-way merge: the merged value and the JSON paths where both sides changed the same thing (the local side won). */
export interface JsonMerge {
  value: unknown;
  conflicts: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const IDENTITY = ['key', 'dataIndex', 'name', 'field'] as const;

/** The property that names the items of a list (columns by dataIndex, fields by name, …), when every item of all three lists has a distinct one. */
function identityOf(...lists: unknown[][]): string | undefined {
  for (const k of IDENTITY) {
    if (lists.every((l) => l.every((x) => isObject(x) && typeof x[k] === 'string') && new Set(l.map((x) => (x as Record<string, unknown>)[k])).size === l.length)) return k;
  }
  return undefined;
}

/**
 * Re-applies local changes to a new default (the page designer's 基于新默认重新应用): `base` is the shipped
 * default a local version was made from, `local` that version, `theirs` the new shipped default. What the
 * author changed wins; what the upgrade changed and the author did not is taken. Objects merge by key;
 * lists of named items (key, dataIndex, name, field) by name — the author's order, with items the upgrade
 * added placed after their neighbour; other lists as a whole. `undefined` = absent.
 */
export function jsonMerge3(base: unknown, local: unknown, theirs: unknown, path = ''): JsonMerge {
  if (same(local, base)) return { value: theirs, conflicts: [] };
  if (same(theirs, base) || same(local, theirs)) return { value: local, conflicts: [] };
  if (isObject(base) && isObject(local) && isObject(theirs)) {
    const value: Record<string, unknown> = {};
    const conflicts: string[] = [];
    for (const k of new Set([...Object.keys(local), ...Object.keys(theirs)])) {
      const m = jsonMerge3(base[k], local[k], theirs[k], `${path}/${escape(k)}`);
      conflicts.push(...m.conflicts);
      if (m.value !== undefined) value[k] = m.value;
    }
    return { value, conflicts };
  }
  if (Array.isArray(base) && Array.isArray(local) && Array.isArray(theirs)) {
    const id = identityOf(base, local, theirs);
    if (id) {
      const byId = (l: unknown[]) => new Map(l.map((x) => [(x as Record<string, unknown>)[id] as string, x]));
      const [b, t] = [byId(base), byId(theirs)];
      const conflicts: string[] = [];
      const out: Array<[string, unknown]> = [];
      local.forEach((x, i) => {
        const name = (x as Record<string, unknown>)[id] as string;
        if (b.has(name) && !t.has(name)) {
          // removed by the upgrade: gone, unless the author changed it
          if (same(x, b.get(name))) return;
          conflicts.push(`${path}/${i}`);
          out.push([name, x]);
          return;
        }
        const m = jsonMerge3(b.get(name), x, t.get(name), `${path}/${i}`);
        conflicts.push(...m.conflicts);
        out.push([name, m.value]);
      });
      // items the upgrade added (not in the old default, not removed by the author), after their neighbour in the new default
      theirs.forEach((x, i) => {
        const name = (x as Record<string, unknown>)[id] as string;
        if (b.has(name) || out.some(([n]) => n === name)) return;
        const prev = i > 0 ? ((theirs[i - 1] as Record<string, unknown>)[id] as string) : undefined;
        const at = prev === undefined ? 0 : out.findIndex(([n]) => n === prev) + 1 || out.length;
        out.splice(at, 0, [name, x]);
      });
      return { value: out.map(([, x]) => x), conflicts };
    }
  }
  return { value: local, conflicts: [path || '/'] };
}
