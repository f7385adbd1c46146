import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router-dom';
import { FrequencyView, PerformanceView, type By, type PerfRow } from './ReportSummary';
import type { Coverage, DepartRow, GradeLabel, GradeRow, WeekRow } from './options';
import recorded from './fixtures.json';

// Answers of the demo university's /supervisor/report/* (recorded as admin from the seeded database).
const data = recorded as unknown as {
  coverage: Coverage;
  frequencyByDepart: DepartRow[];
  weekly: WeekRow[];
  performance: PerfRow[];
  gradeDistribution: Record<By, GradeRow[]>;
  /** The eval_grade dictionary (queryAllDictItems). */
  evalGrade: GradeLabel[];
};
const LABELS = data.evalGrade;

const meta: Meta = { title: '统计/ReportSummary', decorators: [(Story) => <MemoryRouter><div style={{ width: 1150 }}><Story /></div></MemoryRouter>] };
export default meta;
type S = StoryObj;

export const Frequency: S = { render: () => <FrequencyView coverage={data.coverage} depts={data.frequencyByDepart} weekly={data.weekly} /> };
export const FrequencyEmpty: S = { render: () => <FrequencyView coverage={{ teaching: 0, observed: 0, rate: 0 }} depts={[]} weekly={[]} /> };

function Performance({ empty }: { empty?: boolean }) {
  const [by, setBy] = useState<By>('depart');
  return <PerformanceView perf={empty ? [] : data.performance} dist={empty ? [] : data.gradeDistribution[by]} labels={LABELS} by={by} onBy={setBy} />;
}
export const PerformanceSummary: S = { render: () => <Performance /> };
export const PerformanceEmpty: S = { render: () => <Performance empty /> };
