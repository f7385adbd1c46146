import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

const s = fileTestServer(['admin']);

describe('every entity resource', () => {
  it('answers list, sorted list and export for the admin without server errors', async () => {
    const failures: string[] = [];
    for (const e of s.running.ctx.entities.byName.values()) {
      if (!e.resource) continue;
      const ops = e.operations ?? ['list', 'exportXls'];
      const base = e.resource.replace(/^\//, '');
      if (ops.includes('list')) {
        for (const qs of ['pageSize=5', 'pageSize=5&column=createTime&order=desc']) {
          const b = (await s.get(`${base}/list?${qs}`, s.tok.admin)).json();
          if (!b.success && !(qs.includes('column') && /排序/.test(b.message))) failures.push(`${e.name} list?${qs}: ${b.message}`);
          else if (b.success && JSON.stringify(b.result).includes('"password"')) failures.push(`${e.name}: password leaked`);
        }
      }
      if (ops.includes('exportXls')) {
        // selections of an unknown id: the whole pipeline (scope, filters, workbook) without a big table
        const r = await s.get(`${base}/exportXls?selections=none`, s.tok.admin);
        if (!String(r.headers['content-type']).includes('spreadsheetml')) failures.push(`${e.name} exportXls: ${r.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 90_000);
});
