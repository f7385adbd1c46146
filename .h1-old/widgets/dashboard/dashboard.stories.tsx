import type { Meta, StoryObj } from '@storybook/react-vite';
import { ScoreChart } from './TermDashboard';

const meta: Meta = { title: '首页/Dashboard' };
export default meta;
type S = StoryObj;

const TEXT: Record<string, string> = { EXCELLENT: '优秀', GOOD: '良好', MEDIUM: '中等', PASS: '合格', FAIL: '不合格' };
const gradeText = (g: string) => TEXT[g] ?? g;

export const GradeChart: S = {
  render: () => (
    <div style={{ width: 640 }}>
      <ScoreChart
        gradeText={gradeText}
        rows={[
          { key: '计算机学院', total: 40, EXCELLENT: 12, GOOD: 18, MEDIUM: 8, PASS: 2 },
          { key: '数学与统计学院', total: 35, EXCELLENT: 10, GOOD: 15, MEDIUM: 9, FAIL: 1 },
          { key: '外国语学院', total: 22, EXCELLENT: 4, GOOD: 11, MEDIUM: 7 },
        ]}
      />
    </div>
  ),
};
export const GradeChartEmpty: S = { render: () => <ScoreChart gradeText={gradeText} rows={[]} /> };
