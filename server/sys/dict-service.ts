import type { DB } from '../db/index.js';

export interface DictModel {
  value: string;
  text: string;
  title: string;
  label: string;
  color?: string;
}

/**
 * Every enabled item of every system dictionary, keyed by dictionary code, in sort order — the
 * `sysAllDictItems` of the login answer and of `queryAllDictItems`. Read on every list page, so it
 * is cached per database for DICT_CACHE_MS; writes through the CRUD engine (and 刷新缓存) clear it at
 * once in this process, another server process sees a change within DICT_CACHE_MS.
 */
export function allDictItems(db: DB): Promise<Record<string, DictModel[]>> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < DICT_CACHE_MS) return hit.value;
  const value = loadDictItems(db);
  cache.set(db, { at: Date.now(), value });
  value.catch(() => cache.delete(db));
  return value;
}

export const DICT_CACHE_MS = 3000;
const cache = new WeakMap<DB, { at: number; value: Promise<Record<string, DictModel[]>> }>();

/** Forgets the cached dictionaries (after a dictionary write, or 刷新缓存). */
export function clearDictCache(db: DB): void {
  cache.delete(db);
}

async function loadDictItems(db: DB): Promise<Record<string, DictModel[]>> {
  const rows = await db
    .selectFrom('sys_dict_item as i')
    .innerJoin('sys_dict as d', 'd.id', 'i.dict_id')
    .select(['d.dict_code', 'i.item_value', 'i.item_text', 'i.item_color'])
    .where('d.del_flag', '=', 0)
    .where('i.status', '=', 1)
    .orderBy('d.dict_code')
    .orderBy('i.sort_order')
    .execute();
  const out: Record<string, DictModel[]> = {};
  for (const r of rows) {
    const text = String(r.item_text);
    (out[r.dict_code as string] ??= []).push({ value: String(r.item_value), text, title: text, label: text, ...(r.item_color ? { color: String(r.item_color) } : {}) });
  }
  return out;
}
