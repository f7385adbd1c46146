import data from 'china-area-data/data.json';

/** Administrative divisions (province/city/district) from root 86, from the china-area-data package. */
const tree = data as Record<string, Record<string, string>>;
export const AREA_ROOT = '86';

export interface AreaNode {
  id: string;
  text: string;
  pid: string;
  level: 1 | 2 | 3;
}

export interface AreaOption {
  value: string;
  label: string;
  children?: AreaOption[];
}

export function children(pid: string): AreaNode[] {
  const level = pid === AREA_ROOT ? 1 : tree[AREA_ROOT]?.[pid] ? 2 : 3;
  return Object.entries(tree[pid] ?? {}).map(([id, text]) => ({ id, text, pid, level: level as AreaNode['level'] }));
}

/** Cascader options, three levels. */
export function areaOptions(): AreaOption[] {
  const build = (pid: string, depth: number): AreaOption[] =>
    Object.entries(tree[pid] ?? {}).map(([value, label]) => {
      const sub = depth < 3 && tree[value] ? build(value, depth + 1) : undefined;
      return sub && sub.length ? { value, label, children: sub } : { value, label };
    });
  return build(AREA_ROOT, 1);
}

const parentOf = new Map<string, string>();
const textOf = new Map<string, string>();
for (const [pid, kids] of Object.entries(tree))
  for (const [id, text] of Object.entries(kids)) {
    if (!parentOf.has(id)) parentOf.set(id, pid);
    textOf.set(id, text);
  }

/** Codes from province down to the given code. */
export function areaPath(code: string | undefined): string[] {
  const out: string[] = [];
  let c = code;
  while (c && c !== AREA_ROOT && textOf.has(c)) {
    out.unshift(c);
    c = parentOf.get(c);
  }
  return out;
}

export function areaText(code: string | undefined, separator = '/'): string {
  return areaPath(code).map((c) => textOf.get(c)).join(separator);
}

export const AREA_TYPES = ['cascader', 'select'] as const;
export function checkAreaType(type: string): void {
  if (!(AREA_TYPES as readonly string[]).includes(type)) throw new Error('Bad type value');
}
