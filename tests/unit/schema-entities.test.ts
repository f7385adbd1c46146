import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEntities, listJson, SCHEMAS_DIR } from '../../server/crud/entities.js';

describe('entity schemas', () => {
  it('every entity schema in the repo validates', () => {
    const reg = loadEntities();
    expect(reg.problems).toEqual([]);
    expect(reg.byName.size).toBe(listJson(join(SCHEMAS_DIR, 'entities')).length);
    expect(reg.byName.get('demo_customer')?.resource).toBe('/demo/customer');
  });

  it('declared table dictionaries and trees point at real entities and columns', () => {
    const reg = loadEntities();
    for (const e of reg.byName.values())
      for (const f of e.fields) {
        if (!f.dictTable) continue;
        const target = reg.byTable.get(f.dictTable.table);
        expect(target, `${e.name}.${f.name} → ${f.dictTable.table}`).toBeDefined();
      }
  });

  it('reports a bad schema with file, JSON path and reason, and keeps the good ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ents-'));
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'good.json'), JSON.stringify({ name: 'good_one', table: 'good_one', title: '好', fields: [{ name: 'id', type: 'string', length: 32, primary: true }] }));
    writeFileSync(join(dir, 'x', 'bad.json'), JSON.stringify({ name: 'bad_one', table: 'bad_one', title: '坏', fields: [{ name: 'id', type: 'varchar' }] }));
    writeFileSync(join(dir, 'x', 'semantic.json'), JSON.stringify({ name: 'sem', table: 'sem', title: '语义', fields: [{ name: 'code', type: 'string' }], defaultSort: { field: 'nope', order: 'asc' } }));
    writeFileSync(join(dir, 'x', 'broken.json'), '{ not json');
    const reg = loadEntities(dir);
    expect([...reg.byName.keys()]).toEqual(['good_one']);
    expect(reg.problems).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: '/fields/0/type', reason: expect.stringContaining('应为以下值之一') }),
      expect.objectContaining({ path: '/fields/0/length', reason: 'a string field needs a length' }),
      expect.objectContaining({ path: '/defaultSort/field', reason: 'unknown field "nope"' }),
      expect.objectContaining({ path: '/', reason: expect.stringContaining('invalid JSON') }),
    ]));
    expect(reg.problems.every((p) => p.file.length > 0)).toBe(true);
  });
});
