import { useEffect, useState } from 'react';
import { loadDict, type DictOption } from '@core/dict';

export type { DictOption };

/** Options from `options` when given, else the dictionary `dictCode` ('dictionary code cannot be empty' otherwise). */
export function useDictOptions(dictCode?: string, options?: DictOption[]): { items: DictOption[]; error?: string } {
  const [items, setItems] = useState<DictOption[]>(options ?? []);
  // Keyed by content: callers often pass a fresh array literal each render.
  const optKey = options ? JSON.stringify(options) : '';
  useEffect(() => {
    if (options) {
      setItems(options);
      return;
    }
    if (!dictCode) return;
    let live = true;
    void loadDict(dictCode).then((d) => live && setItems(d));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dictCode, optKey]);
  return { items, error: !options && !dictCode ? 'dictionary code cannot be empty' : undefined };
}
