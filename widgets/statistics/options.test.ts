import { describe, expect, it } from 'vitest';
import { drillUrl } from './DrillCell';
import recorded from './fixtures.json';
import { frequencyTotals, gradeOption, gradesOf, pct, performanceTotals, weeklyOption, type GradeRow } from './options';

// The seeded eval_grade dictionary, as recorded with the stories' answers.
const LABELS = recorded.evalGrade;

describe('statistics option builders', () => {
  it('weekly: fills missing weeks with 0 and stacks offline/online under the total line', () => {
    const o = weeklyOption([
      { week: 1, count: 3, online: 1, offline: 2 },
      { week: 4, count: 5, online: 0, offline: 5 },
    ]);
    expect(o.xAxis.data).toEqual(['第1周', '第2周', '第3周', '第4周']);
    const [off, on, sum] = o.series;
    expect(off).toMatchObject({ name: '线下', type: 'bar', stack: 'mode', data: [2, 0, 0, 5] });
    expect(on).toMatchObject({ name: '线上', type: 'bar', stack: 'mode', data: [1, 0, 0, 0] });
    expect(sum).toMatchObject({ name: '合计', type: 'line', data: [3, 0, 0, 5] });
  });

  it('weekly: no rows → no weeks', () => {
    expect(weeklyOption([]).xAxis.data).toEqual([]);
  });

  it('grade distribution: one stacked series per present grade, in dictionary order, labels from the dictionary', () => {
    const rows: GradeRow[] = [
      { key: '计算机学院', departId: 'd1', total: 5, GOOD: 3, EXCELLENT: 2 },
      { key: '', departId: '', total: 1, FAIL: 1 },
    ];
    expect(gradesOf(rows, LABELS)).toEqual(['EXCELLENT', 'GOOD', 'FAIL']);
    const o = gradeOption(rows, LABELS, '未分配部门');
    expect(o.yAxis.data).toEqual(['计算机学院', '未分配部门']);
    expect(o.series.map((s) => [s.id, s.name, s.stack, s.data])).toEqual([
      ['EXCELLENT', '优秀', 'grade', [2, 0]],
      ['GOOD', '良好', 'grade', [3, 0]],
      ['FAIL', '不合格', 'grade', [0, 1]],
    ]);
  });

  it('grade distribution: an unknown band keeps its code as label and comes last', () => {
    const o = gradeOption([{ key: '教授', total: 2, X: 1, PASS: 1 }], LABELS);
    expect(o.series.map((s) => s.name)).toEqual(['合格', 'X']);
  });

  it('frequency cards: sums of the by-department rows, rate = 达标/应听', () => {
    const t = frequencyTotals([
      { departName: 'A', headcount: 4, completed: 1, actualSum: 6, average: 1.5, completionRate: 0.25 },
      { departName: 'B', headcount: 4, completed: 2, actualSum: 9, average: 2.25, completionRate: 0.5 },
    ]);
    expect(t).toEqual({ headcount: 8, completed: 3, actual: 15, rate: 3 / 8 });
    expect(pct(t.rate)).toBe('37.5%');
    expect(frequencyTotals([]).rate).toBeNull();
    expect(pct(null)).toBe('—');
  });

  it('performance cards: 优秀率 is the share of graded records that are EXCELLENT', () => {
    const t = performanceTotals([{ key: 'A', total: 6, EXCELLENT: 2, GOOD: 4 }, { key: 'B', total: 4, EXCELLENT: 1, PASS: 3 }], 7, 85.5);
    expect(t).toEqual({ records: 10, teachers: 7, avg: 85.5, excellentRate: 0.3 });
    expect(performanceTotals([], 0, null).excellentRate).toBeNull();
  });

  it('drill urls: row placeholders plus the kept, non-empty list parameters', () => {
    expect(drillUrl('/d?userId={userId}&side=listener', { userId: 'u 1' }, { termId: 't1', departId: '', realname: '*王*' }, ['termId', 'departId'])).toBe(
      '/d?userId=u%201&side=listener&termId=t1',
    );
    expect(drillUrl('/statistics/frequency', {}, { termId: 't1' }, ['termId'])).toBe('/statistics/frequency?termId=t1');
  });
});
