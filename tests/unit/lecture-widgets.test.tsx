import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IndexScoreForm, scoreSummary, type IndexScore, type IndexSystem } from '@widgets/domain/IndexScoreForm';
import { LessonPicker, sectionsText } from '@widgets/domain/LessonPicker';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';

const SYSTEM: IndexSystem = {
  id: 's1',
  name: '测试指标体系',
  fullScore: 100,
  gradeBands: [
    { grade: 'EXCELLENT', label: '优秀', min: 90 },
    { grade: 'GOOD', label: '良好', min: 80 },
    { grade: 'PASS', label: '合格', min: 60 },
    { grade: 'FAIL', label: '不合格', min: 0 },
  ],
  indexes: [
    { id: 'a', parentId: null, level: 1, name: '教学态度', maxScore: 40 },
    { id: 'a1', parentId: 'a', level: 2, name: '为人师表', maxScore: 20 },
    { id: 'a2', parentId: 'a', level: 2, name: '备课充分', maxScore: 20 },
    { id: 'b', parentId: null, level: 1, name: '教学效果', maxScore: 60 },
  ],
  leafIds: ['a1', 'a2', 'b'],
};

describe('lecture record widgets', () => {
  it('score summary: total of leaves only, grade only when every leaf is scored', () => {
    expect(scoreSummary(SYSTEM, [{ indexId: 'a1', score: 18 }, { indexId: 'a', score: 40 }])).toMatchObject({ total: 18, scored: 1, leaves: 3, complete: false, grade: undefined });
    const full = scoreSummary(SYSTEM, [{ indexId: 'a1', score: 18.5 }, { indexId: 'a2', score: 17 }, { indexId: 'b', score: 50 }]);
    expect(full).toMatchObject({ total: 85.5, complete: true });
    expect(full.grade?.label).toBe('良好');
    expect(scoreSummary(SYSTEM, [{ indexId: 'a1', score: 20 }, { indexId: 'a2', score: 20 }, { indexId: 'b', score: 50 }]).grade?.label).toBe('优秀');
    expect(scoreSummary(SYSTEM, [{ indexId: 'a1', score: null }, { indexId: 'a2', score: 20 }, { indexId: 'b', score: 50 }]).complete).toBe(false);
  });

  it('sections text', () => {
    expect(sectionsText(3, 4)).toBe('第3-4节');
    expect(sectionsText(5, 5)).toBe('第5节');
    expect(sectionsText(null, null)).toBe('');
  });

  it('index score form: one input per leaf, bounded by its maximum, live total and grade', async () => {
    const seen: IndexScore[][] = [];
    function Host() {
      const [v, setV] = useState<IndexScore[]>([]);
      return (
        <IndexScoreForm
          system={SYSTEM}
          value={v}
          onChange={(n) => {
            seen.push(n);
            setV(n);
          }}
        />
      );
    }
    render(<Host />);
    expect(screen.getAllByRole('spinbutton')).toHaveLength(3);
    expect(screen.queryByRole('spinbutton', { name: '教学态度得分' })).toBeNull(); // a parent is not scored
    expect(screen.getByText('小计 0')).toBeInTheDocument();

    const a1 = screen.getByRole('spinbutton', { name: '为人师表得分' });
    fireEvent.change(a1, { target: { value: '25' } });
    fireEvent.blur(a1);
    await waitFor(() => expect(seen.at(-1)).toEqual([{ indexId: 'a1', score: 20 }]));
    fireEvent.change(screen.getByRole('spinbutton', { name: '备课充分得分' }), { target: { value: '16.5' } });
    await waitFor(() => expect(screen.getByTestId('score-total')).toHaveTextContent('36.5'));
    expect(screen.getByText('小计 36.5')).toBeInTheDocument();
    expect(screen.queryByTestId('score-grade')).toBeNull();
    expect(screen.getByText('评完所有指标后显示等级')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('spinbutton', { name: '教学效果得分' }), { target: { value: '45' } });
    await waitFor(() => expect(screen.getByTestId('score-total')).toHaveTextContent('81.5'));
    expect(screen.getByTestId('score-grade')).toHaveTextContent('良好');
    expect(screen.getByText('已评 3/3 项')).toBeInTheDocument();
    expect([...seen.at(-1)!].sort((x, y) => x.indexId.localeCompare(y.indexId))).toEqual([
      { indexId: 'a1', score: 20 },
      { indexId: 'a2', score: 16.5 },
      { indexId: 'b', score: 45 },
    ]);
  });

  it('index score form without a lesson asks to pick one first', () => {
    render(<IndexScoreForm value={[]} onChange={() => undefined} />);
    expect(screen.getByText('请先从课表选择课次，再按指标评分')).toBeInTheDocument();
  });

  it('lesson picker shows the saved lesson of a record from the form values, read-only when disabled', () => {
    const form = createForm({ values: { courseTaskId: 'k1', courseName: '高等数学', teacherName: '王磊', classroomName: '明德楼101', startSection: 9, endSection: 10, classNames: '机械工程24级2班' } });
    render(
      <FormProvider form={form}>
        <LessonPicker value="k1" disabled />
      </FormProvider>,
    );
    expect(screen.getByDisplayValue('高等数学（王磊）')).toBeInTheDocument();
    const facts = screen.getByTestId('lesson-facts');
    expect(facts).toHaveTextContent('明德楼101');
    expect(facts).toHaveTextContent('第9-10节');
    expect(facts).toHaveTextContent('机械工程24级2班');
    expect(screen.getByRole('button', { name: '选择课次' })).toBeDisabled();
  });
});
