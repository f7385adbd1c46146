/** A module's loader that downloads it once and remembers it once it has arrived (`loaded`). */
export interface ModuleLoader<M> {
  (): Promise<M>;
  loaded?: M;
}

export function moduleLoader<M>(load: () => Promise<M>): ModuleLoader<M> {
  let pending: Promise<M> | undefined;
  const get: ModuleLoader<M> = () =>
    (pending ??= load().then(
      (m) => (get.loaded = m),
      (e: unknown) => {
        pending = undefined; // a later call tries again
        throw e;
      },
    ));
  return get;
}

/**
 * What React.lazy needs from `load`'s module: at once (a thenable that answers synchronously) when
 * the module has already arrived, e.g. started at boot. React.lazy otherwise suspends on its first
 * render even then, and the fallback it commits holds back the next Suspense reveal — the page —
 * by up to 500 ms (React's fallback throttle).
 */
export function lazyModule<M, T>(load: ModuleLoader<M>, pick: (m: M) => T): Promise<{ default: T }> {
  const m = load.loaded;
  if (m === undefined) return load().then((x) => ({ default: pick(x) }));
  const value = { default: pick(m) };
  return { then: (resolve: (v: typeof value) => unknown) => resolve(value) } as unknown as Promise<{ default: T }>;
}
