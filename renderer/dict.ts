import { useEffect, useState } from 'react';
import { getDefaultStore } from 'jotai';
import { http } from '@/http/client';
import { dictAtom } from '@/session/store';

export interface DictOption {
  value: string;
  text: string;
}

const pending = new Map<string, Promise<DictOption[]>>();

/** Dictionary items: from the session cache (login), else fetched once per code. */
export function loadDict(code: string): Promise<DictOption[]> {
  const cached = getDefaultStore().get(dictAtom)[code];
  if (cached) return Promise.resolve(cached.map((d) => ({ value: String(d.value), text: d.text ?? d.title ?? d.label ?? String(d.value) })));
  let p = pending.get(code);
  if (!p) {
    p = http
      .get<Array<{ value: string; text?: string; title?: string; label?: string }>>(`/sys/dict/getDictItems/${encodeURIComponent(code)}`)
      .then((r) => (r.success && Array.isArray(r.result) ? r.result.map((d) => ({ value: String(d.value), text: d.text ?? d.title ?? d.label ?? String(d.value) })) : []))
      .catch(() => []);
    pending.set(code, p);
    // A failed or empty lookup may be retried later.
    p.then((items) => {
      if (!items.length) pending.delete(code);
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

export function useDicts(codes: string[]): Record<string, DictOption[]> {
  const key = [...new Set(codes)].sort().join(',');
  const [dicts, setDicts] = useState<Record<string, DictOption[]>>({});
  useEffect(() => {
    if (!key) return;
    let live = true;
    void loadDicts(key.split(',')).then((d) => live && setDicts(d));
    return () => {
      live = false;
    };
  }, [key]);
  return dicts;
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
