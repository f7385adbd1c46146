import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

/** The seeded demo roles (docs/menus.md) can do their part of the loop through real sign-in. */
const s = fileTestServer(['supervisor', 'leader', 'secretary', 'teacher']);
const { tok } = s;
const get = async (path: string, u: string) => (await s.get(`/jeecg-boot${path}`, tok[u])).json() as { success: boolean; code: number; message: string; result: any };

describe('seeded roles', () => {
  it('scope lecture records: supervisor all, department users their department, teacher own', async () => {
    const totals: Record<string, number> = {};
    for (const u of Object.keys(tok)) {
      const r = await get('/supervisor/lectureRecord/list?pageSize=1', u);
      expect(r.success, `${u}: ${r.message}`).toBe(true);
      totals[u] = r.result.total;
    }
    expect(totals.supervisor).toBeGreaterThan(totals.secretary!);
    expect(totals.secretary).toBeGreaterThan(totals.teacher!);
    expect(totals.teacher).toBeGreaterThan(0);
  });

  it('gives the home dashboard to every role and statistics to department users', async () => {
    for (const u of Object.keys(tok)) {
      const d = await get('/supervisor/dashboard/summary', u);
      expect(d.success, d.message).toBe(true);
      expect(d.result.term.code).toBe('2026-2027-1');
    }
    expect((await get('/supervisor/dashboard/summary', 'supervisor')).result.mine.actual).toBeGreaterThan(10);
    expect((await get('/supervisor/report/frequency', 'leader')).success).toBe(true);
    expect((await get('/supervisor/report/frequency', 'teacher')).code).toBe(510);
  });
});
