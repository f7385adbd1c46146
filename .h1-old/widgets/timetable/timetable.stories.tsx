import type { Meta, StoryObj } from '@storybook/react-vite';
import { WeekGrid } from './WeekGrid';
import type { Lesson } from './grid';

const meta: Meta = { title: '课表/Timetable' };
export default meta;
type S = StoryObj;

const sections = Array.from({ length: 10 }, (_, i) => ({ no: i + 1 }));
const lessons: Lesson[] = [
  { scheduleId: '1', weekday: 1, startSection: 1, endSection: 2, weeks: '1-16', courseName: '高等数学', courseCode: 'MA101', classroomName: '明德楼101', classNames: '计科24级1班', teacherName: '王磊' },
  { scheduleId: '2', weekday: 3, startSection: 3, endSection: 5, weeks: '1-8', courseName: '数据结构', courseCode: 'CS201', classroomName: '博学楼308', classNames: '计科24级2班', teacherName: '王磊' },
  { scheduleId: '3', weekday: 3, startSection: 3, endSection: 4, weeks: '9-16', courseName: '数据结构实验', courseCode: 'CS202', classroomName: '实验楼201', classNames: '计科24级2班', teacherName: '王磊' },
  { scheduleId: '4', weekday: 5, startSection: 9, endSection: 10, weeks: '1,3,5,7', courseName: '大学物理', courseCode: 'PH101', classroomName: '求是楼206', classNames: '计科24级1班', teacherName: '王磊' },
];

export const TeacherWeek: S = { render: () => <WeekGrid lessons={lessons} sections={sections} /> };
export const Empty: S = { render: () => <WeekGrid lessons={[]} sections={sections} /> };
