import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IndexScoreForm, scoreSummary, type IndexScore, type IndexSystem } from '@widgets/domain/IndexScoreForm';
import { LessonPicker, sectionsText } from '@widgets/domain/LessonPicker';
import { IndexTreeEditor, type IndexTreeItem } from '@widgets/domain/IndexTreeEditor';
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

  it('index score form: one input per leaf; a score over its maximum or not a number is kept and refused, not clamped; live total and grade', async () => {
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
    expect(screen.getAllByRole('textbox')).toHaveLength(3);
    expect(screen.queryByRole('textbox', { name: '教学态度得分' })).toBeNull(); // a parent is not scored
    expect(screen.getByRole('textbox', { name: '为人师表得分' })).toHaveAttribute('inputmode', 'decimal'); // the phone's number keypad
    expect(screen.getByText('小计 0')).toBeInTheDocument();

    const a1 = screen.getByRole('textbox', { name: '为人师表得分' });
    fireEvent.change(a1, { target: { value: '25' } });
    fireEvent.blur(a1);
    await waitFor(() => expect(seen.at(-1)).toEqual([{ indexId: 'a1', score: 25 }]));
    expect(a1).toHaveValue('25');
    expect(a1).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('得分 25 超过最高分 20')).toBeInTheDocument();
    expect(screen.getByTestId('score-total')).toHaveTextContent('0'); // a refused score counts for nothing
    fireEvent.change(a1, { target: { value: 'abc' } });
    await waitFor(() => expect(seen.at(-1)).toEqual([{ indexId: 'a1', score: 'abc' }]));
    expect(a1).toHaveValue('abc');
    expect(screen.getByText('得分“abc”不是数字')).toBeInTheDocument();
    fireEvent.change(a1, { target: { value: '20' } });
    await waitFor(() => expect(a1).toHaveAttribute('aria-invalid', 'false'));
    fireEvent.change(screen.getByRole('textbox', { name: '备课充分得分' }), { target: { value: '16.5' } });
    await waitFor(() => expect(screen.getByTestId('score-total')).toHaveTextContent('36.5'));
    expect(screen.getByText('小计 36.5')).toBeInTheDocument();
    expect(screen.queryByTestId('score-grade')).toBeNull();
    expect(screen.getByText('评完所有指标后显示等级')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: '教学效果得分' }), { target: { value: '45' } });
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

  it('index tree editor: builds a two-level tree and says what publishing would refuse until the scores add up', async () => {
    const seen: IndexTreeItem[][] = [];
    const form = createForm({ values: { fullScore: 100 } });
    function Host() {
      const [v, setV] = useState<IndexTreeItem[]>([]);
      const change = (n: IndexTreeItem[]) => {
        seen.push(n);
        setV(n);
      };
      return (
        <FormProvider form={form}>
          <IndexTreeEditor value={v} onChange={change} />
        </FormProvider>
      );
    }
    render(<Host />);
    fireEvent.click(screen.getByRole('button', { name: /添加一级指标/ }));
    fireEvent.change(screen.getByRole('textbox', { name: '一级指标名称' }), { target: { value: '教学态度' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: '一级指标分值' }), { target: { value: '60' } });
    await waitFor(() => expect(screen.getByTestId('index-tree-total')).toHaveTextContent('一级指标合计 60 分 / 满分 100 分'));
    expect(screen.getByText('发布前需修正：一级指标分值合计 60 分，应等于满分 100 分')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /二级指标/ }));
    fireEvent.change(screen.getByRole('textbox', { name: '二级指标名称' }), { target: { value: '为人师表' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: '二级指标分值' }), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: /添加一级指标/ }));
    fireEvent.change(screen.getAllByRole('textbox', { name: '一级指标名称' })[1]!, { target: { value: '教学效果' } });
    fireEvent.change(screen.getAllByRole('spinbutton', { name: '一级指标分值' })[1]!, { target: { value: '40' } });
    await waitFor(() => expect(screen.getByText('发布前需修正：一级指标“教学态度”的二级指标分值合计 20 分，应等于 60 分')).toBeInTheDocument());

    fireEvent.change(screen.getByRole('spinbutton', { name: '二级指标分值' }), { target: { value: '60' } });
    await waitFor(() => expect(screen.queryByText(/发布前需修正/)).toBeNull());
    expect(seen.at(-1)).toEqual([
      { name: '教学态度', maxScore: 60, children: [{ name: '为人师表', maxScore: 60 }] },
      { name: '教学效果', maxScore: 40, children: [] },
    ]);
    fireEvent.click(screen.getByRole('button', { name: '删除二级指标' }));
    await waitFor(() => expect(seen.at(-1)![0]!.children).toEqual([]));
  });

  it('index tree editor shows a saved tree read-only when disabled', () => {
    const form = createForm({ values: { fullScore: 100 } });
    render(
      <FormProvider form={form}>
        <IndexTreeEditor disabled value={[{ name: '教学态度', maxScore: 100, children: [{ name: '为人师表', maxScore: 100 }] }]} />
      </FormProvider>,
    );
    expect(screen.getByText('教学态度')).toBeInTheDocument();
    expect(screen.getByText('为人师表')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
