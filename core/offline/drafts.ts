/**
 * Drafts kept in the browser (localStorage) while a record is being written, so that losing the
 * network or closing the tab loses nothing: every change is written here first (`dirty`), and the
 * caller syncs it to the server when it can. The `clientKey` (made once per draft) goes with every
 * save; the server keeps it unique per user, so a save repeated after a lost answer is the same record.
 */
export interface LocalDraft<V> {
  clientKey: string;
  /** The server record once the first save has answered. */
  recordId?: string;
  values: V;
  /** Changed since the last save the server confirmed. */
  dirty: boolean;
  /** Bumped on every change: a save that answers after a newer change leaves the draft dirty. */
  rev: number;
  changedAt: number;
  syncedAt?: number;
}

const PREFIX = 'offline-draft:';

/** A random url-safe key (32 hex characters). */
export function newClientKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked (some in-app browsers in private mode)
  }
}

export function loadDraft<V>(key: string): LocalDraft<V> | undefined {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return undefined;
  try {
    const d = JSON.parse(raw) as LocalDraft<V>;
    return d && typeof d.clientKey === 'string' && d.values && typeof d.values === 'object' ? d : undefined;
  } catch {
    return undefined;
  }
}

export function storeDraft<V>(key: string, d: LocalDraft<V>): void {
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(d));
  } catch {
    /* quota: the draft stays in memory; the next save to the server keeps it */
  }
}

export function removeDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** A change: new values, dirty, next revision. */
export const changed = <V>(d: LocalDraft<V>, values: V): LocalDraft<V> => ({ ...d, values, dirty: true, rev: d.rev + 1, changedAt: Date.now() });

/** A save of revision `rev` answered with `recordId`: clean only when nothing changed meanwhile. */
export const synced = <V>(d: LocalDraft<V>, rev: number, recordId: string): LocalDraft<V> => ({ ...d, recordId, dirty: d.rev !== rev, syncedAt: Date.now() });

/** Small JSON cache of the last answers a screen needs offline (the lesson, the index system). */
export function remember<T>(key: string, value: T): T {
  try {
    storage()?.setItem(`offline-cache:${key}`, JSON.stringify(value));
  } catch {
    /* ignore */
  }
  return value;
}
export function recall<T>(key: string): T | undefined {
  try {
    const raw = storage()?.getItem(`offline-cache:${key}`);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}
