import { sql } from 'kysely';
import type { DB } from '../db/index.js';

/**
 * Next value of a named counter, atomically (one upsert: concurrent callers get distinct values).
 * Used for record and task numbers: `${prefix}${n padded}`.
 */
export async function nextCounter(db: DB, name: string, by = 1): Promise<number> {
  const r = await sql<{ value: string }>`
    insert into sup_counter (name, value) values (${name}, ${by})
    on conflict (name) do update set value = sup_counter.value + ${by}
    returning value`.execute(db);
  return Number(r.rows[0]!.value);
}

export async function nextNo(db: DB, prefix: string, width = 6): Promise<string> {
  return `${prefix}${String(await nextCounter(db, prefix)).padStart(width, '0')}`;
}

/**
 * The number of a lecture record: TK + the term's code without dashes + a 5-digit sequence per term,
 * e.g. TK20262027100042 for term 2026-2027-1 (the seed numbers its records the same way, on the same counter).
 */
export async function nextRecordNo(db: DB, termCode: string): Promise<string> {
  return nextNo(db, recordNoPrefix(termCode), 5);
}
export const recordNoPrefix = (termCode: string) => `TK${termCode.replace(/-/g, '')}`;
