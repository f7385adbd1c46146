import type { DB } from '../db/index.js';
import { cachedQuery } from '../db/read-cache.js';

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
 * comes through the read cache: a dictionary write drops it at once in this process and, through the
 * notice hub, in the others; DICT_CACHE_MS is the backstop.
 */
export function allDictItems(db: DB): Promise<Record<string, DictModel[]>> {
  const query = db
    .selectFrom('sys_dict_item as i')
    .innerJoin('sys_dict as d', 'd.id', 'i.dict_id')
    .select(['d.dict_code', 'i.item_value', 'i.item_text', 'i.item_color'])
    .where('d.del_flag', '=', 0)
    .where('i.status', '=', 1)
    .orderBy('d.dict_code')
    .orderBy('i.sort_order');
  return cachedQuery(db, 'dict', query, DICT_CACHE_MS, async () => byDictCode(await query.execute()));
}

export const DICT_CACHE_MS = 60_000;

function byDictCode(rows: Array<Record<string, unknown>>): Record<string, DictModel[]> {
  const out: Record<string, DictModel[]> = {};
  for (const r of rows) {
    const text = String(r.item_text);
    (out[r.dict_code as string] ??= []).push({ value: String(r.item_value), text, title: text, label: text, ...(r.item_color ? { color: String(r.item_color) } : {}) });
  }
  return out;
}
