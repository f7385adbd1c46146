/**
 * JSON in Web Storage for jotai's atomWithStorage, handing back the very object last written or read
 * while the stored text is unchanged. jotai reads the storage again when an atom is first subscribed
 * to; jotai's own JSON storage parses the text again after a write, and that new object (equal, not
 * identical) would draw again everything that depends on the atom — after sign-in's or the menu's
 * writes, the whole application and every cell of a list.
 */
export function jsonStorage<T>(storage: () => Storage) {
  const known = new Map<string, { text: string; value: T }>();
  return {
    getItem(key: string, initial: T): T {
      const text = storage().getItem(key);
      if (text === null) return initial;
      const k = known.get(key);
      if (k?.text === text) return k.value;
      try {
        const value = JSON.parse(text) as T;
        known.set(key, { text, value });
        return value;
      } catch {
        return initial; // unreadable: as if nothing were stored
      }
    },
    setItem(key: string, value: T) {
      const text = JSON.stringify(value);
      storage().setItem(key, text);
      known.set(key, { text, value });
    },
    removeItem(key: string) {
      storage().removeItem(key);
      known.delete(key);
    },
  };
}
