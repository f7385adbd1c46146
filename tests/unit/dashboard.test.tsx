import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { registerWidget } from '@widgets/registry';
import StaticPages from '@renderer/StaticPages';
import { courseColor, layoutWeek, type Lesson } from '@widgets/timetable/grid';
import { WeekGrid } from '@widgets/timetable/WeekGrid';

const l = (weekday: number, startSection: number, endSection: number, id = `${weekday}-${startSection}-${endSection}`): Lesson => ({ scheduleId: id, weekday, startSection, endSection });

describe('timetable layout', () => {
  it('puts lessons in their weekday column spanning their sections', () => {
    const days = layoutWeek([l(1, 3, 4), l(1, 1, 2), l(5, 9, 10)], 12);
    expect(days).toHaveLength(7);
    expect(days[0]).toEqual([
      { start: 1, span: 2, lessons: [expect.objectContaining({ scheduleId: '1-1-2' })] },
      { start: 3, span: 2, lessons: [expect.objectContaining({ scheduleId: '1-3-4' })] },
    ]);
    expect(days[4]).toEqual([{ start: 9, span: 2, lessons: [expect.objectContaining({ scheduleId: '5-9-10' })] }]);
    expect(days[1]).toEqual([]);
  });

  it('merges overlapping lessons (other weeks, same slot) into one block', () => {
    const [mon] = layoutWeek([l(1, 1, 2, 'a'), l(1, 2, 4, 'b'), l(1, 1, 2, 'c')], 12);
    expect(mon).toHaveLength(1);
    expect(mon![0]).toMatchObject({ start: 1, span: 4 });
    expect(mon![0]!.lessons.map((x) => x.scheduleId).sort()).toEqual(['a', 'b', 'c']);
  });

  it('clips lessons to the section count and ignores ones past it', () => {
    const [mon] = layoutWeek([l(1, 11, 14), l(1, 13, 13)], 12);
    expect(mon).toEqual([{ start: 11, span: 2, lessons: [expect.objectContaining({ startSection: 11, endSection: 12 })] }]);
  });

  it('gives a course a stable colour', () => {
    expect(courseColor('CS101')).toBe(courseColor('CS101'));
    expect(courseColor('CS101')).not.toBe(courseColor('MA201'));
  });
});

describe('week grid', () => {
  it('draws one cell per block with its row span and skips the covered cells', () => {
    const sections = Array.from({ length: 4 }, (_, i) => ({ no: i + 1 }));
    const { container } = render(<WeekGrid sections={sections} lessons={[{ ...l(2, 2, 4), courseName: '数据结构', classNames: '计科1班' }]} />);
    const rows = container.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(4);
    const cell = screen.getByText('数据结构').closest('td')!;
    expect(cell.getAttribute('rowspan')).toBe('3');
    expect(cell.cellIndex).toBe(2); // after the section column and Monday
    expect(rows[0]!.querySelectorAll('td')).toHaveLength(8);
    expect(rows[2]!.querySelectorAll('td')).toHaveLength(7); // Tuesday covered by the block
  });
});

describe('page schema hosting a widget', () => {
  it('draws the named widget with widgetProps and the schema', () => {
    registerWidget('TestDashboardBody', ({ greeting, schema }: { greeting: string; schema: { title: string } }) => (
      <div>
        {greeting}·{schema.title}
      </div>
    ));
    render(<StaticPages schema={{ kind: 'dashboard', title: '首页', widget: 'TestDashboardBody', widgetProps: { greeting: '你好' } }} />);
    expect(screen.getByText('你好·首页')).toBeTruthy();
  });

  it('says which widget is missing instead of drawing an empty page', () => {
    render(<StaticPages schema={{ kind: 'dashboard', title: '首页', widget: 'NoSuchWidget' }} />);
    expect(screen.getByText('未注册的组件：NoSuchWidget')).toBeTruthy();
  });
});
