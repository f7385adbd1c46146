import { useEffect, useState } from 'react';
import { Button, DatePicker, Descriptions, Input, InputNumber, Modal, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { observer, useForm } from '@formily/react';
import { http } from '@core/http/client';
import { sectionsText } from '@shared/rules';

/** A lesson row of GET /supervisor/courseSchedule/lessons. */
export interface Lesson {
  scheduleId: string;
  courseTaskId: string;
  weekday: number;
  startSection: number;
  endSection: number;
  weeks?: string;
  classroomName?: string | null;
  teacherName?: string | null;
  courseName?: string | null;
  courseCode?: string | null;
  seqNo?: string | null;
  classNames?: string | null;
  week?: number | null;
  lectureDate?: string | null;
}

const WEEKDAYS = '一二三四五六日';
export { sectionsText };

/** The lesson fields the record form shows read-only (the server derives them again on save). */
const SHOWN = ['teacherName', 'courseName', 'classroomName', 'startSection', 'endSection', 'classNames'] as const;

export interface LessonPickerProps {
  /** The course task id (the field's value). */
  value?: string;
  onChange?: (v: string | undefined, lesson?: Lesson) => void;
  disabled?: boolean;
  readOnly?: boolean;
}

/**
 * Course-task field of the lecture record form: opens a modal searching the term's timetable by
 * date or week and keyword (teacher, course, room). Picking a lesson sets the value and, inside a
 * Formily form, fills scheduleId, lectureDate and the read-only lesson facts.
 */
export const LessonPicker = observer(function LessonPicker({ value, onChange, disabled, readOnly }: LessonPickerProps) {
  const form = useFormOrNull();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Lesson | undefined>();
  const v = (form?.values ?? {}) as Record<string, unknown>;
  const facts = picked && picked.courseTaskId === value ? picked : value ? (v as Partial<Lesson>) : undefined;

  function pick(l: Lesson) {
    setPicked(l);
    if (form) {
      form.setValuesIn('scheduleId', l.scheduleId);
      if (l.lectureDate) form.setValuesIn('lectureDate', l.lectureDate);
      for (const k of SHOWN) form.setValuesIn(k, l[k] ?? null);
    }
    onChange?.(l.courseTaskId, l);
    setOpen(false);
  }

  return (
    <div data-testid="lesson-picker">
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={facts?.courseName ? `${facts.courseName}（${facts.teacherName ?? ''}）` : (value ?? '')} placeholder="请从课表选择一次课" />
        <Button type="primary" disabled={disabled || readOnly} onClick={() => setOpen(true)}>
          选择课次
        </Button>
      </Space.Compact>
      {facts?.courseName && (
        <Descriptions size="small" column={3} style={{ marginTop: 8 }} data-testid="lesson-facts">
          <Descriptions.Item label="授课教师">{facts.teacherName}</Descriptions.Item>
          <Descriptions.Item label="课程">{facts.courseName}</Descriptions.Item>
          <Descriptions.Item label="教室">{facts.classroomName ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="节次">{sectionsText(facts.startSection, facts.endSection) || '—'}</Descriptions.Item>
          <Descriptions.Item label="上课班级" span={2}>
            {facts.classNames ?? '—'}
          </Descriptions.Item>
        </Descriptions>
      )}
      {open && <LessonSearchModal initialDate={typeof v.lectureDate === 'string' ? v.lectureDate : undefined} onPick={pick} onCancel={() => setOpen(false)} />}
    </div>
  );
});

/** The enclosing Formily form, if any (undefined when the picker is used standalone). */
const useFormOrNull = () => useForm() as ReturnType<typeof useForm> | undefined;

export function LessonSearchModal({ initialDate, onPick, onCancel }: { initialDate?: string; onPick: (l: Lesson) => void; onCancel: () => void }) {
  const [date, setDate] = useState<Dayjs | null>(initialDate ? dayjs(initialDate) : dayjs());
  const [week, setWeek] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [rows, setRows] = useState<Lesson[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();

  async function search(p = { date, week, keyword }) {
    setLoading(true);
    setError(undefined);
    try {
      const params: Record<string, string | number> = {};
      if (p.date) params.date = p.date.format('YYYY-MM-DD');
      else if (p.week) params.week = p.week;
      if (p.keyword.trim()) params.keyword = p.keyword.trim();
      const r = await http.get<Lesson[]>('/supervisor/courseSchedule/lessons', params);
      if (r.success) setRows(r.result ?? []);
      else {
        setRows([]);
        setError(r.message);
      }
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    void search();
    // First search with the initial filters only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const columns: ColumnsType<Lesson> = [
    { title: '日期', dataIndex: 'lectureDate', width: 110, render: (d: string | null) => d ?? '—' },
    { title: '星期', dataIndex: 'weekday', width: 70, render: (w: number) => `星期${WEEKDAYS[w - 1] ?? ''}` },
    { title: '节次', key: 'sections', width: 90, render: (_: unknown, r) => sectionsText(r.startSection, r.endSection) },
    { title: '课程', dataIndex: 'courseName', ellipsis: true },
    { title: '授课教师', dataIndex: 'teacherName', width: 100 },
    { title: '教室', dataIndex: 'classroomName', width: 110 },
    { title: '上课班级', dataIndex: 'classNames', ellipsis: true },
    { title: '周次', dataIndex: 'weeks', width: 100 },
    {
      title: '操作',
      key: 'op',
      width: 70,
      render: (_: unknown, r) => (
        <Typography.Link onClick={() => onPick(r)} disabled={!r.lectureDate}>
          选择
        </Typography.Link>
      ),
    },
  ];

  return (
    <Modal open title="从课表选择课次" width={1100} footer={null} onCancel={onCancel} destroyOnHidden>
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker aria-label="上课日期" value={date} onChange={(d) => setDate(d)} placeholder="上课日期" />
        <InputNumber aria-label="教学周" value={week} onChange={(w) => setWeek(w)} min={1} max={30} placeholder="教学周" disabled={!!date} />
        <Input aria-label="关键字" value={keyword} onChange={(e) => setKeyword(e.target.value)} onPressEnter={() => void search()} placeholder="教师 / 课程 / 教室 / 课程号" style={{ width: 240 }} allowClear />
        <Button type="primary" onClick={() => void search()} loading={loading}>
          查询
        </Button>
      </Space>
      {!date && !week && <Typography.Paragraph type="secondary">请选择上课日期或教学周，才能确定听课日期。</Typography.Paragraph>}
      {error && <Typography.Paragraph type="danger">{error}</Typography.Paragraph>}
      <Table<Lesson> size="small" rowKey={(r) => `${r.scheduleId}:${r.lectureDate ?? ''}`} columns={columns} dataSource={rows} loading={loading} pagination={{ pageSize: 10, showTotal: (t) => `共${t}条` }} scroll={{ y: 420 }} />
    </Modal>
  );
}
