import type { RawBuilder } from 'kysely';
import type { DB } from './index.js';

/**
 * Short-lived results of hot reads (list totals, a session's permissions, data rules, dictionaries),
 * each tagged with the tables it read. Every statement that writes a table — through the query
 * builder or raw SQL, in or out of a transaction — is seen by the database's query log and drops the
 * entries that read that table in this process at once; other server processes hear of it through
 * the notice hub (PostgreSQL NOTIFY) and, as a backstop, an entry never outlives its time limit.
 *
 * Concurrent callers of the same key share one computation, and an entry whose tables were written
 * while it was being computed is not kept.
 */
export class ReadCache {
  private readonly versions = new Map<string, number>();
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(tables: string[]) => void>();

  constructor(private readonly maxEntries = 5_000) {}

  /** Tables written: entries that read them are stale. `remote` = heard from another process (not re-announced). */
  written(tables: string[], remote = false): void {
    for (const t of tables) this.versions.set(t, (this.versions.get(t) ?? 0) + 1);
    if (!remote) for (const l of this.listeners) l(tables);
  }

  /** Calls `listener` with the tables of every local write (the hub forwards them to other processes). */
  onWrite(listener: (tables: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get<T>(key: string, tables: string[], ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < ttlMs && hit.tables.every((t, i) => this.version(t) === hit.stamp[i])) return hit.value as Promise<T>;
    const entry: Entry = { at: Date.now(), tables, stamp: tables.map((t) => this.version(t)), value: load() };
    this.entries.delete(key); // re-inserted last: the oldest entries are the first evicted
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value as Promise<T>;
  }

  /** Entries held now (the 缓存监控 figures of sys/jeecg-compat-monitor.ts). */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets everything (刷新缓存). */
  clear(): void {
    this.entries.clear();
  }

  private version(table: string): number {
    return this.versions.get(table) ?? 0;
  }
}

interface Entry {
  at: number;
  tables: string[];
  stamp: number[];
  value: Promise<unknown>;
}

const WRITE = /^\s*(?:with\b|insert\b|update\b|delete\b|truncate\b|merge\b|alter\b|drop\b)/i;
const WRITE_TARGET = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into|alter\s+table|drop\s+table(?:\s+if\s+exists)?)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;
const READ_SOURCE = /\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/** The tables a statement writes (none for a plain select). */
export function writtenTables(sqlText: string): string[] {
  if (!WRITE.test(sqlText)) return [];
  return [...new Set([...sqlText.matchAll(WRITE_TARGET)].map((m) => m[1]!.toLowerCase()))];
}

const tablesOf = new Map<string, string[]>();
/** The tables a select reads (every FROM and JOIN, subqueries included); memoised per SQL text. */
export function readTables(sqlText: string): string[] {
  let tables = tablesOf.get(sqlText);
  if (!tables) {
    tables = [...new Set([...sqlText.matchAll(READ_SOURCE)].map((m) => m[1]!.toLowerCase()))].sort();
    if (tablesOf.size >= 2_000) tablesOf.clear(); // the statements of a running server are a small, fixed set
    tablesOf.set(sqlText, tables);
  }
  return tables;
}

const caches = new WeakMap<object, ReadCache>();

export function attachReadCache(db: DB, cache: ReadCache): void {
  caches.set(db, cache);
}

/** The cache of a database handle; none inside a transaction (its reads may see uncommitted rows). */
export function readCacheOf(db: DB): ReadCache | undefined {
  return db.isTransaction ? undefined : caches.get(db);
}

interface Compilable {
  compile(): { sql: string; parameters: readonly unknown[] };
}

interface ReadQuery<R> extends Compilable {
  execute(): Promise<R[]>;
}

/**
 * What `load()` derives from `query` (its rows, its count, its rows grouped…) through the read cache:
 * keyed by `purpose` and the query's SQL and parameters, dropped when a table the query reads is written.
 */
export function cachedQuery<T>(db: DB, purpose: string, query: Compilable, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const cache = readCacheOf(db);
  if (!cache) return load();
  const { sql, parameters } = query.compile();
  const key = `${purpose}\u0000${sql}\u0000${JSON.stringify(parameters, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
  return cache.get(key, readTables(sql), ttlMs, load);
}

/** The rows of a select through the read cache (cachedQuery). */
export function cachedRows<R>(db: DB, query: ReadQuery<R>, ttlMs: number): Promise<R[]> {
  return cachedQuery(db, 'rows', query, ttlMs, () => query.execute());
}

/** A raw `sql` select in the shape `cachedRows` takes. */
export const rawRead = <R>(db: DB, q: RawBuilder<R>): ReadQuery<R> => ({ compile: () => q.compile(db), execute: async () => (await q.execute(db)).rows });
