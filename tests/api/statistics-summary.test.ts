import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { departId } from '../../server/seed/data/org.js';

/** The statistics summaries' links: department ids in the summaries, drill-down by grade and department. */
const s = fileTestServer(['admin', 'leader']);
const { tok } = s;
const get = async (path: string, u = 'admin') => (await s.get(`/jeecg-boot${path}`, tok[u])).json() as { success: boolean; message: string; result: any };

describe('statistics summary links', () => {
  it('frequencyByDepart rows carry the department id; its people are the per-person rows of that department', async () => {
    const depts = (await get('/supervisor/report/frequencyByDepart')).result as Array<{ departId: string; departName: string; headcount: number; actualSum: number }>;
    const people = (await get('/supervisor/report/frequency')).result as Array<{ departId: string; departName: string; actual: number }>;
    expect(depts.length).toBeGreaterThan(1);
    for (const d of depts) {
      expect(d.departId, d.departName).toMatch(/^\w+$/);
      const mine = people.filter((p) => p.departId === d.departId);
      expect(mine.length).toBe(d.headcount);
      expect(mine.reduce((a, p) => a + p.actual, 0)).toBe(d.actualSum);
    }
  });

  it('a grade bar by department drills down to exactly its records (a department without sub-departments)', async () => {
    const rows = (await get('/supervisor/report/gradeDistribution?by=depart')).result as Array<Record<string, any>>;
    const math = rows.find((r) => r.departId === departId('A01A05')); // 数学与统计学院: no sub-departments
    expect(math?.key).toBe('数学与统计学院');
    const grades = Object.keys(math!).filter((k) => !['key', 'total', 'departId'].includes(k));
    expect(grades.length).toBeGreaterThan(0);
    for (const g of grades) {
      const d = await get(`/supervisor/report/detail?side=teacher&grade=${g}&departId=${math!.departId}&pageSize=1`);
      expect(d.success, d.message).toBe(true);
      expect(d.result.total, g).toBe(math![g]);
    }
    expect((await get('/supervisor/report/gradeDistribution?by=title')).result.every((r: Record<string, unknown>) => !('departId' in r))).toBe(true);
  });

  it('a leader sees only their department in the summaries', async () => {
    const depts = (await get('/supervisor/report/frequencyByDepart', 'leader')).result as Array<{ departName: string }>;
    const all = (await get('/supervisor/report/frequencyByDepart')).result as Array<{ departName: string }>;
    expect(depts.length).toBeGreaterThan(0);
    expect(depts.length).toBeLessThan(all.length);
    const cov = (await get('/supervisor/report/coverage', 'leader')).result;
    const covAll = (await get('/supervisor/report/coverage')).result;
    expect(cov.teaching).toBeLessThan(covAll.teaching);
  });
});
