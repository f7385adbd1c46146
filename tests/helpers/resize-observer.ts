import { vi } from 'vitest';

/**
 * Replaces ResizeObserver with one whose callbacks a test fires itself ("the browser has laid out"):
 * happy-dom never calls them. `restore` puts the original back.
 */
export function stubResizeObserver() {
  const callbacks: ResizeObserverCallback[] = [];
  vi.stubGlobal('ResizeObserver', class {
    constructor(cb: ResizeObserverCallback) {
      callbacks.push(cb);
    }
    observe() {}
    disconnect() {}
  });
  return {
    fire: () => callbacks.forEach((cb) => cb([], {} as ResizeObserver)),
    restore: () => vi.unstubAllGlobals(),
  };
}
