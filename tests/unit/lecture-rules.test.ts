import { describe, expect, it } from 'vitest';
import {
  checkGradeBands, checkIndexTree, dateOf, formatWeeks, gradeOf, isOverdue, leavesOf, nextStatus, parseSlots, parseWeeks, scoreRecord, weekMask, weekOf, weekdayOf,
} from '../../shared/rules.js';

describe('weeks', () => {
  it('parses ranges, lists and odd/even markers', () => {
    expect(parseWeeks('1-4,6-8')).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(parseWeeks('1-9(单)')).toEqual([1, 3, 5, 7, 9]);
    expect(parseWeeks('2-8双周')).toEqual([2, 4, 6, 8]);
    expect(parseWeeks('3')).toEqual([3]);
    expect(parseWeeks('0-3')).toBeNull();
    expect(parseWeeks('5-2')).toBeNull();
    expect(parseWeeks('1-31')).toBeNull();
    expect(parseWeeks('abc')).toBeNull();
  });
  it('formats and masks', () => {
    expect(formatWeeks([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
    expect(weekMask([1, 3])).toBe(5n);
  });
  it('parses academic-affairs time strings', () => {
    expect(parseSlots('1-4,6-17周星期一6-7节')).toEqual([{ weeks: [1, 2, 3, 4, ...Array.from({ length: 12 }, (_, i) => i + 6)], weekday: 1, startSection: 6, endSection: 7 }]);
    expect(parseSlots('1-15周(单)星期三1-2节;2-16周(双)周五3节')).toEqual([
      { weeks: [1, 3, 5, 7, 9, 11, 13, 15], weekday: 3, startSection: 1, endSection: 2 },
      { weeks: [2, 4, 6, 8, 10, 12, 14, 16], weekday: 5, startSection: 3, endSection: 3 },
    ]);
    expect(parseSlots('星期一6-7节')).toBeNull();
    expect(parseSlots('1-16周星期八1-2节')).toBeNull();
    expect(parseSlots('1-16周星期一7-6节')).toBeNull();
  });
  it('maps dates to teaching weeks and back', () => {
    expect(weekOf('2026-09-07', '2026-09-07')).toBe(1);
    expect(weekOf('2026-09-07', '2026-09-13')).toBe(1);
    expect(weekOf('2026-09-07', '2026-11-21')).toBe(11);
    expect(weekdayOf('2026-11-21')).toBe(6);
    expect(dateOf('2026-09-07', 3, 2)).toBe('2026-09-22');
  });
});

describe('scores and grades', () => {
  const idx = [
    { id: 'a', parentId: null, level: 1, name: '教学态度', maxScore: 40 },
    { id: 'a1', parentId: 'a', level: 2, name: '备课', maxScore: 20 },
    { id: 'a2', parentId: 'a', level: 2, name: '纪律', maxScore: 20 },
    { id: 'b', parentId: null, level: 1, name: '教学效果', maxScore: 60 },
  ];
  it('scores the leaves only, bounded by their maximum', () => {
    const leaves = leavesOf(idx);
    expect(leaves.map((l) => l.id)).toEqual(['a1', 'a2', 'b']);
    expect(scoreRecord(leaves, [{ indexId: 'a1', score: 18 }, { indexId: 'a2', score: '19.5' }, { indexId: 'b', score: 50 }], true).total).toBe(87.5);
    expect(() => scoreRecord(leaves, [{ indexId: 'a1', score: 21 }], false)).toThrow('指标“备课”的得分 21 超过最高分 20');
    // Submitting names every missing index at once; a single one reads as a sentence of its own.
    expect(() => scoreRecord(leaves, [{ indexId: 'a1', score: 10 }], true)).toThrow('有 2 项指标尚未评分：“纪律”、“教学效果”');
    expect(() => scoreRecord(leaves, [{ indexId: 'a1', score: 10 }, { indexId: 'b', score: 50 }], true)).toThrow('指标“纪律”尚未评分');
    // Every refused score is named, what was typed is quoted, and missing ones follow.
    expect(() => scoreRecord(leaves, [{ indexId: 'a1', score: 'abc' }, { indexId: 'a2', score: 21 }], true)).toThrow(
      '指标“备课”的得分“abc”不是数字；指标“纪律”的得分 21 超过最高分 20；指标“教学效果”尚未评分',
    );
    expect(() => scoreRecord(leaves, [{ indexId: 'a1', score: '12abc' }], false)).toThrow('不是数字');
    expect(() => scoreRecord(leaves, [{ indexId: 'a', score: 10 }], false)).toThrow('不属于');
    expect(() => scoreRecord(leaves, [{ indexId: 'b', score: -1 }], false)).toThrow('不能小于 0');
  });
  it('checks the tree adds up before publishing', () => {
    expect(checkIndexTree(idx, 100)).toBeNull();
    expect(checkIndexTree(idx, 90)).toContain('应等于满分 90 分');
    expect(checkIndexTree([...idx.slice(0, 2), idx[3]!], 100)).toContain('二级指标分值合计 20 分');
  });
  it('grades by the default bands and validates custom ones', () => {
    expect([95, 90, 89.99, 80, 79, 60, 59.5, 0].map((t) => gradeOf(t).label)).toEqual(['优秀', '优秀', '良好', '良好', '中等', '合格', '不合格', '不合格']);
    expect(checkGradeBands([{ grade: 'P', label: '通过', min: 60 }])).toContain('从 0 分开始');
    expect(checkGradeBands([{ grade: 'P', label: '通过', min: 0 }, { grade: 'Q', label: 'x', min: 0 }])).toContain('重复');
  });
});

describe('improvement state machine', () => {
  it('allows only the listed transitions', () => {
    expect(nextStatus('DRAFT', 'ISSUE')).toEqual({ to: 'ISSUED' });
    expect(nextStatus('SUBMITTED', 'VERIFY')).toEqual({ to: 'VERIFIED' });
    expect(nextStatus('VERIFIED', 'CLOSE')).toEqual({ to: 'CLOSED' });
    expect(nextStatus('REJECTED', 'SUBMIT')).toEqual({ to: 'SUBMITTED' });
    expect(nextStatus('DRAFT', 'VERIFY')).toEqual({ error: '当前状态为“待下发”，不能验收' });
    expect(nextStatus('CLOSED', 'CANCEL')).toEqual({ error: '当前状态为“已销号”，不能撤销' });
    expect(nextStatus('ISSUED', 'FOO')).toEqual({ error: '不支持的操作：FOO' });
  });
  it('derives overdue from the deadline for open tasks only', () => {
    expect(isOverdue('IN_PROGRESS', '2026-11-01', '2026-11-21')).toBe(true);
    expect(isOverdue('CLOSED', '2026-11-01', '2026-11-21')).toBe(false);
    expect(isOverdue('ISSUED', '2026-11-21', '2026-11-21')).toBe(false);
  });
});
