import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAllPages, loadPage, pageIds } from '../../server/pages/index';
import { loadEntities } from '../../server/crud/entities';

describe('page schemas', () => {
  it('every page schema in the repo validates against the meta-schema and binds a known entity', () => {
    const entities = loadEntities();
    const ctx = { entities } as never;
    const pages = loadAllPages(ctx);
    expect(pages.length).toBeGreaterThan(20);
    const problems = pages.flatMap((p) => p.problems);
    expect(problems).toEqual([]);
    for (const id of ['demo/list/query-list', 'demo/form/base-form', 'demo/result/success', 'system/TenantList', 'system/DictList'])
      expect(pageIds()).toContain(id);
  });

  it('a bad page is reported with file, JSON path and reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pages-'));
    try {
      mkdirSync(join(dir, 'x'));
      writeFileSync(join(dir, 'x/Bad.json'), JSON.stringify({ kind: 'list', title: 'B', resource: '/a/b', columns: [{ dataIndex: 'a', title: 'A', width: 'wide' }] }));
      writeFileSync(join(dir, 'x/Broken.json'), '{ "kind": ');
      writeFileSync(join(dir, 'x/NoSource.json'), JSON.stringify({ kind: 'list', title: 'N' }));
      const bad = loadPage('x/Bad', undefined, dir)!;
      expect(bad.schema).toBeUndefined();
      expect(bad.problems[0]).toMatchObject({ path: '/columns/0/width' });
      expect(bad.problems[0]!.reason).toBe('应为整数');
      expect(loadPage('x/Broken', undefined, dir)!.problems[0]!.reason).toMatch(/invalid JSON/);
      expect(loadPage('x/NoSource', undefined, dir)!.problems[0]!.reason).toMatch(/列表页需要 resource/);
      expect(loadPage('../etc/passwd', undefined, dir)).toBeUndefined();
      expect(loadPage('x/Missing', undefined, dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('composition (regions, tabs, page actions)', () => {
  it('a page drawn inside another must exist: an unknown one is reported with its JSON path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pages-'));
    try {
      mkdirSync(join(dir, 'x'));
      writeFileSync(join(dir, 'x/Sub.json'), JSON.stringify({ kind: 'list', title: 'S', api: { list: '/a/list' } }));
      writeFileSync(join(dir, 'x/Tabs.json'), JSON.stringify({ kind: 'tabs', title: 'T', tabs: [{ label: 'A', page: 'x/Sub' }, { label: 'B', page: 'x/Nope' }, { label: 'C', sections: [{ items: [{ label: 'X', field: 'x', format: 'money' }] }] }] }));
      writeFileSync(
        join(dir, 'x/Detail.json'),
        JSON.stringify({ kind: 'detail', title: 'D', sections: [{ title: 'R', region: { page: 'x/Gone', params: { pid: '{id}' } } }], actions: { row: [{ key: 'p', label: 'P', type: 'page', page: 'x/Sub' }] } }),
      );
      writeFileSync(join(dir, 'x/TabNoContent.json'), JSON.stringify({ kind: 'tabs', title: 'T', tabs: [{ label: 'A' }] }));
      writeFileSync(join(dir, 'x/ListAside.json'), JSON.stringify({ kind: 'list', title: 'L', api: { list: '/a/list' }, aside: { tree: { url: '/a/tree' } } }));
      expect(loadPage('x/Tabs', undefined, dir)!.problems).toEqual([{ file: expect.any(String), path: '/tabs/1/page', reason: '页面不存在“x/Nope”' }]);
      expect(loadPage('x/Detail', undefined, dir)!.problems.map((p) => p.path)).toEqual(['/sections/0/region/page']);
      writeFileSync(join(dir, 'x/TabBadFormat.json'), JSON.stringify({ kind: 'tabs', title: 'T', tabs: [{ label: 'A', sections: [{ items: [{ label: 'X', format: 'bogus' }] }] }] }));
      expect(loadPage('x/TabNoContent', undefined, dir)!.problems[0]!.path).toBe('/tabs/0');
      expect(loadPage('x/TabBadFormat', undefined, dir)!.problems.map((p) => p.path)).toContain('/tabs/0/sections/0/items/0/format');
      expect(loadPage('x/ListAside', undefined, dir)!.problems[0]).toMatchObject({ path: '/aside/tree' });
      expect(loadPage('x/Sub', undefined, dir)!.problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
