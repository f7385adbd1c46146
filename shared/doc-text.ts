/**
 * Plain text of a ProseMirror JSON document (search copy, version diff): one line per block, table
 * cells separated by tabs. Pure; used by the server and the editor.
 */
export interface PmNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

const BLOCKS = new Set(['paragraph', 'heading', 'codeBlock', 'blockquote', 'listItem', 'tableRow', 'horizontalRule', 'image']);

export function docPlainText(doc: PmNode | null | undefined): string {
  const lines: string[] = [];
  let cur = '';
  const flush = () => {
    if (cur !== '') lines.push(cur);
    cur = '';
  };
  const walk = (n: PmNode) => {
    if (n.type === 'text') return void (cur += n.text ?? '');
    if (n.type === 'hardBreak') return void flush();
    if (n.type === 'tableRow') {
      flush();
      cur = (n.content ?? []).map((c) => docPlainText(c).replace(/\n/g, ' ')).join('\t');
      return flush();
    }
    const block = BLOCKS.has(n.type);
    if (block) flush();
    for (const c of n.content ?? []) walk(c);
    if (block) flush();
  };
  if (doc) walk(doc);
  flush();
  return lines.join('\n');
}

/** Texts of the document's headings in order (export tests, outlines). */
export function docHeadings(doc: PmNode): string[] {
  const out: string[] = [];
  const walk = (n: PmNode) => {
    if (n.type === 'heading') out.push(docPlainText(n));
    else for (const c of n.content ?? []) walk(c);
  };
  walk(doc);
  return out;
}

export type DiffLine = { op: '=' | '+' | '-'; text: string };

/**
 * A line diff (longest common subsequence) of two texts: `-` only in `a` (the version), `+` only in
 * `b` (the current text). Quadratic; inputs over 4000 lines are compared by their changed middle only.
 */
export function lineDiff(a: string, b: string): DiffLine[] {
  const x = a === '' ? [] : a.split('\n');
  const y = b === '' ? [] : b.split('\n');
  let s = 0;
  while (s < x.length && s < y.length && x[s] === y[s]) s++;
  let e = 0;
  while (e < x.length - s && e < y.length - s && x[x.length - 1 - e] === y[y.length - 1 - e]) e++;
  const xm = x.slice(s, x.length - e);
  const ym = y.slice(s, y.length - e);
  const head: DiffLine[] = x.slice(0, s).map((t) => ({ op: '=', text: t }));
  const tail: DiffLine[] = x.slice(x.length - e).map((t) => ({ op: '=', text: t }));
  if (xm.length * ym.length > 16_000_000) return [...head, ...xm.map((t) => ({ op: '-' as const, text: t })), ...ym.map((t) => ({ op: '+' as const, text: t })), ...tail];
  const n = xm.length;
  const m = ym.length;
  const L: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i]![j] = xm[i] === ym[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const mid: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (xm[i] === ym[j]) {
      mid.push({ op: '=', text: xm[i]! });
      i++;
      j++;
    } else if (L[i + 1]![j]! >= L[i]![j + 1]!) mid.push({ op: '-', text: xm[i++]! });
    else mid.push({ op: '+', text: ym[j++]! });
  }
  while (i < n) mid.push({ op: '-', text: xm[i++]! });
  while (j < m) mid.push({ op: '+', text: ym[j++]! });
  return [...head, ...mid, ...tail];
}

/** Stored file paths of the document's images (file access: a document owns the images it shows). */
export function docImages(doc: PmNode): string[] {
  const out: string[] = [];
  const walk = (n: PmNode) => {
    if (n.type === 'image' && typeof n.attrs?.src === 'string') out.push(n.attrs.src);
    for (const c of n.content ?? []) walk(c);
  };
  walk(doc);
  return out;
}
