import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function of stable identity that calls the latest `fn` (the one of the last committed render):
 * memoised children (table rows, cells) that receive it are not drawn again when `fn` changes.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...a: A) => ref.current(...a), []);
}
