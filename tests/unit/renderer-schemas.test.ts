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
      expect(bad.problems[0]!.reason).toMatch(/integer/);
      expect(loadPage('x/Broken', undefined, dir)!.problems[0]!.reason).toMatch(/invalid JSON/);
      expect(loadPage('x/NoSource', undefined, dir)!.problems[0]!.reason).toMatch(/needs resource/);
      expect(loadPage('../etc/passwd', undefined, dir)).toBeUndefined();
      expect(loadPage('x/Missing', undefined, dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
