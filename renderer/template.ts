/*
 * `{field}` templates of action and page schemas (urls, bodies, texts), filled from a record and its
 * page's bound parameters. `{a.b}` reads a path; a value that is exactly one placeholder keeps the raw
 * value (a number stays a number, an array an array, a missing one is left out of an object);
 * `{path|join}` is an array as comma-separated text (JeecgBoot's `ids=a,b` bodies).
 */
type Data = Record<string, unknown>;

// `{path}` or `{path|join}` (an array as comma-separated text).
const ONE = /^\{([\w$]+(?:\.[\w$]+)*)(\|join)?\}$/;
const ANY = /\{([\w$]+(?:\.[\w$]+)*)(?:\|join)?\}/g;

/** The value at a dotted path (`a.b.c`) of an object; a name on a list maps it (`departs.departName`: every depart's name). */
export function pathOf(obj: unknown, path?: string): unknown {
  if (!path) return obj;
  const step = (o: unknown, k: string): unknown =>
    Array.isArray(o) && !/^\d+$/.test(k) ? o.map((x) => step(x, k)) : o && typeof o === 'object' ? (o as Data)[k] : undefined;
  return path.split('.').reduce<unknown>(step, obj);
}

const text = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join(',') : String(v));

/** A text with `{path}` placeholders filled (missing values are empty). */
export function fillText(tpl: string, data: Data): string {
  return tpl.replace(ANY, (_, p: string) => text(pathOf(data, p)));
}

/** A url with `{path}` placeholders filled and URI-encoded. */
export function fillUrl(tpl: string, data: Data): string {
  return tpl.replace(ANY, (_, p: string) => encodeURIComponent(text(pathOf(data, p))));
}

/** A JSON template (object, array, string) with its placeholders filled; see the module comment. */
export function fillTemplate(tpl: unknown, data: Data): unknown {
  if (typeof tpl === 'string') {
    const one = ONE.exec(tpl);
    return one ? (one[2] ? text(pathOf(data, one[1])) : pathOf(data, one[1])) : fillText(tpl, data);
  }
  if (Array.isArray(tpl)) return tpl.map((v) => fillTemplate(v, data));
  if (tpl && typeof tpl === 'object')
    return Object.fromEntries(
      Object.entries(tpl).flatMap(([k, v]) => {
        const x = fillTemplate(v, data);
        return x === undefined ? [] : [[k, x]];
      }),
    );
  return tpl;
}
