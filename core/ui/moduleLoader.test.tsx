import { describe, expect, it } from 'vitest';
import { lazy, Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { lazyModule, moduleLoader, type ModuleLoader } from './moduleLoader';

/** Renders the loader's `Page` through React.lazy + lazyModule, under a Suspense showing "loading". */
function drawLazy(load: ModuleLoader<{ Page: () => JSX.Element }>) {
  const Page = lazy(() => lazyModule(load, (m) => m.Page));
  render(
    <Suspense fallback={<p>loading</p>}>
      <Page />
    </Suspense>,
  );
}

describe('moduleLoader / lazyModule', () => {
  it('loads once, remembers the module, and tries again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const load = moduleLoader(async () => {
      calls++;
      if (fail) throw new Error('offline');
      return { value: 42 };
    });
    await expect(load()).rejects.toThrow('offline');
    expect(load.loaded).toBeUndefined();
    fail = false;
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(calls).toBe(2);
    expect(load.loaded).toEqual({ value: 42 });
  });

  it('draws a module that has arrived in the first render, with no fallback committed', async () => {
    const load = moduleLoader(async () => ({ Page: () => <p>page</p> }));
    await load();
    drawLazy(load);
    // Synchronously after the first render: React.lazy with a plain promise would show the fallback here.
    expect(screen.getByText('page')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('suspends as React.lazy does while the module is on its way', async () => {
    const load = moduleLoader(async () => ({ Page: () => <p>later</p> }));
    drawLazy(load);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('later')).toBeTruthy();
  });
});
