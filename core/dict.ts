import { useEffect, useState } from 'react';
import { getDefaultStore } from 'jotai';
import { http } from '@core/http/client';
import { dictAtom } from '@core/session/store';

export interface DictOption {
  value: string;
  text: string;
  /** The item's tag colour, when the dictionary has one. */
  color?: string;
}

const pending = new Map<string, Promise<DictOption[]>>();
/** Items fetched (not from the session cache), for drawing them at once next time. */
const fetched = new Map<string, DictOption[]>();

type RawItem = { value: string | number; text?: string; title?: string; label?: string; color?: string };
const toOptions = (items: RawItem[]): DictOption[] =>
  items.map((d) => ({ value: String(d.value), text: d.text ?? d.title ?? d.label ?? String(d.value), ...(d.color ? { color: d.color } : {}) }));

/** Items already at hand: the session cache (login) or an earlier fetch. */
function knownDict(code: string): DictOption[] | undefined {
  const cached = getDefaultStore().get(dictAtom)[code];
  return cached ? toOptions(cached) : fetched.get(code);
}

/** Dictionary items: from the session cache (login), else fetched once per code. */
export function loadDict(code: string): Promise<DictOption[]> {
  const known = knownDict(code);
  if (known) return Promise.resolve(known);
  let p = pending.get(code);
  if (!p) {
    p = http
      .get<RawItem[]>(`/sys/dict/getDictItems/${encodeURIComponent(code)}`)
      .then((r) => (r.success && Array.isArray(r.result) ? toOptions(r.result) : []))
      .catch(() => []);
    pending.set(code, p);
    // A failed or empty lookup may be retried later.
    p.then((items) => {
      if (items.length) fetched.set(code, items);
      pending.delete(code);
    });
  }
  return p;
}

/** Loads several dictionaries; resolves to code → items. */
export async function loadDicts(codes: Iterable<string>): Promise<Record<string, DictOption[]>> {
  const list = [...new Set(codes)];
  const items = await Promise.all(list.map(loadDict));
  return Object.fromEntries(list.map((c, i) => [c, items[i]!]));
}

/** code → items when every one of `codes` is at hand, else undefined. */
function knownDicts(codes: string[]): Record<string, DictOption[]> | undefined {
  if (!codes.length) return undefined;
  const out: Record<string, DictOption[]> = {};
  for (const code of codes) {
    const items = knownDict(code);
    if (!items) return undefined;
    out[code] = items;
  }
  return out;
}

const NONE: Record<string, DictOption[]> = {};

/**
 * The dictionaries `codes` (code → items). Those at hand are there in the first render (a later
 * arrival re-renders the whole page: every cell of a list); the others once loaded.
 */
export function useDicts(codes: string[]): Record<string, DictOption[]> {
  // A JSON key: table dictionary codes contain commas ("sup_term,name,id").
  const key = JSON.stringify([...new Set(codes)].sort());
  const [state, setState] = useState(() => ({ key, dicts: knownDicts(JSON.parse(key) as string[]) }));
  useEffect(() => {
    const list = JSON.parse(key) as string[];
    if (!list.length || (state.key === key && state.dicts)) return;
    let live = true;
    void loadDicts(list).then((d) => live && setState({ key, dicts: d }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the state is read only to skip what the first render already had
  }, [key]);
  return state.dicts ?? NONE;
}

/** Text of a (possibly comma-joined) value in a dictionary. */
export function dictText(items: DictOption[] | undefined, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (!items) return String(value);
  return String(value)
    .split(',')
    .map((v) => items.find((d) => d.value === v)?.text ?? v)
    .join(',');
}
