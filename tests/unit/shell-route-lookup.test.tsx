import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { matchRoutes, MemoryRouter, Routes, useLocation, type Location } from 'react-router-dom';
import { routeLookup } from '@app/router/lookup';
import type { RouteDef } from '@core/menu';

const def = (path: string, title = path): RouteDef => ({ path, name: path, title, keepAlive: false, parents: [], fromMenu: true, component: `none${path}` });

describe('main layout route lookup', () => {
  const defs = [def('/online/list/:code', 'online'), def('/online/list/new', 'new page'), def('/system/user', 'users')];

  it('ranks static segments before parameters, whatever the menu order, and returns the parameters', () => {
    const lookup = routeLookup(defs);
    expect(lookup('/online/list/new')?.def.title).toBe('new page');
    const online = lookup('/online/list/abc');
    expect(online?.def.title).toBe('online');
    expect(online?.params).toEqual({ code: 'abc' });
    expect(lookup('/system/user')?.def.title).toBe('users');
    expect(lookup('/nowhere')).toBeUndefined();
  });

  it("a route's own static path finds the route React Router would (any case, trailing slash, the first of equal ones, above parameters and splats)", () => {
    const many = [
      def('/docs/*', 'docs splat'), def('/docs/:page', 'docs page'), def('/docs/guide', 'guide'), def('/Docs/Guide', 'guide again'),
      def('/a/b/', 'slash'), def('/x', 'x'), def('/', 'root'), def('/online/list/:code', 'online'),
    ];
    // An optional segment's route also matches its shorter path, equal in rank to a static one listed after it.
    const withOptional = [def('/x/:id?', 'optional'), ...many];
    for (const list of [many, withOptional]) {
      const lookup = routeLookup(list);
      const routes = list.map((d) => ({ path: d.path, d }));
      for (const path of ['/docs/guide', '/DOCS/guide', '/docs/guide/', '/docs/other', '/docs/a/b', '/a/b', '/a/b/', '/x', '/x/1', '/', '/online/list/a:b', '/nowhere']) {
        const rr = matchRoutes(routes, path)?.[0];
        expect(lookup(path)?.def, path).toBe(rr && (rr.route as (typeof routes)[number]).d);
        expect(lookup(path)?.params ?? null, path).toEqual(rr ? rr.params : null);
      }
    }
    expect(routeLookup(many)('/docs/guide')?.def.title).toBe('guide');
    expect(routeLookup(withOptional)('/x')?.def.title).toBe('optional');
  });

  it('matches a path once: the same answer and the same <Route> element on every later render', () => {
    const lookup = routeLookup(defs);
    const first = lookup('/online/list/abc');
    expect(lookup('/online/list/abc')).toBe(first);
    expect(lookup('/online/list/xyz')!.route).toBe(first!.route); // one element per route
  });

  it("renders the route's page inside a tab's <Routes>, whatever the window's location", () => {
    const lookup = routeLookup([{ ...def('/system/user'), component: undefined }]); // no component: 页面不存在
    const Where = () => <span data-testid="where">{useLocation().pathname}</span>;
    render(
      <MemoryRouter initialEntries={['/elsewhere']}>
        <Routes location={{ pathname: '/system/user', search: '', hash: '', state: null, key: 'k' } as Location}>{lookup('/system/user')!.route}</Routes>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('where').textContent).toBe('/elsewhere');
    expect(screen.getByText('页面不存在')).toBeTruthy();
  });
});
