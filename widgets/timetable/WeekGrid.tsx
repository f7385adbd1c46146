import { useMemo } from 'react';
import { Tooltip } from 'antd';
import { courseColor, layoutWeek, type Lesson } from './grid';

export type Section = { no: number; begin?: string; end?: string };
const WEEKDAYS = ['星期一', '星期二', '星期三', '星期四', '星期五', '星期六', '星期日'];
const border = '1px solid #f0f0f0';

/** The weekday × section grid of given lessons (no data loading: TimetableGrid feeds it). */
export function WeekGrid({
  lessons,
  sections: rows,
  by = 'teacher',
  onObserve,
}: {
  lessons: Lesson[];
  sections: Section[];
  by?: 'teacher' | 'class' | 'room';
  /** 听课 on a lesson with a date (a week chosen): opens the record form pre-filled with it. */
  onObserve?: (l: Lesson) => void;
}) {
  const blocks = useMemo(() => layoutWeek(lessons, rows.length), [lessons, rows.length]);
const cell = (l: Lesson) => (
  <Tooltip
    key={l.scheduleId}
    title={
      <div>
        <div>{l.courseName}{l.courseCode ? `（${l.courseCode}）` : ''}</div>
        <div>教师：{l.teacherName ?? ''}</div>
        <div>班级：{l.classNames ?? ''}</div>
        <div>教室：{l.classroomName ?? ''}</div>
        <div>周次：{l.weeks ?? ''}，节次：{l.startSection}-{l.endSection}</div>
        {l.lectureDate && <div>日期：{l.lectureDate}</div>}
      </div>
    }
  >
    <div className="tt-lesson" data-testid="tt-lesson" style={{ background: courseColor(l.courseCode || l.courseName || ''), borderRadius: 6, padding: '4px 6px', marginBottom: 4, fontSize: 12, lineHeight: 1.5 }}>
      <div style={{ fontWeight: 600 }}>{l.courseName}</div>
      <div>{by === 'teacher' ? l.classNames : l.teacherName}</div>
      <div style={{ color: '#666' }}>
        {l.classroomName ?? ''} · {l.weeks ? `${l.weeks}周` : ''}
      </div>
      {onObserve && l.lectureDate && (
        <a data-testid="tt-observe" onClick={() => onObserve(l)} style={{ display: 'inline-block', marginTop: 2 }}>
          听课
        </a>
      )}
    </div>
  </Tooltip>
);

  return (
    <table className="timetable-grid" data-testid="timetable-grid" style={{ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed' }}>
      <thead>
        <tr>
          <th style={{ width: 90, border, background: '#fafafa', padding: 8 }}>节次</th>
          {WEEKDAYS.map((d) => (
            <th key={d} style={{ border, background: '#fafafa', padding: 8 }}>
              {d}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={s.no} style={{ height: 48 }}>
            <td style={{ border, textAlign: 'center', background: '#fafafa', fontSize: 12 }}>
              <div>第{s.no}节</div>
              {s.begin && <div style={{ color: '#999' }}>{s.begin.slice(0, 5)}-{(s.end ?? '').slice(0, 5)}</div>}
            </td>
            {blocks.map((day, d) => {
              const b = day.find((x) => x.start === s.no);
              if (b)
                return (
                  <td key={d} rowSpan={b.span} style={{ border, verticalAlign: 'top', padding: 4 }}>
                    {b.lessons.map(cell)}
                  </td>
                );
              if (day.some((x) => s.no > x.start && s.no < x.start + x.span)) return null;
              return <td key={d} style={{ border }} />;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
