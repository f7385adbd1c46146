import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router-dom';
import { NoticeView } from './NoticeView';

const meta: Meta = { title: '消息/NoticeView', decorators: [(Story) => <MemoryRouter><div style={{ width: 600 }}><Story /></div></MemoryRouter>] };
export default meta;
type S = StoryObj;

const record = {
  id: 'n1', titile: '您有一条新的听课记录：数据结构（2026-11-20）', senderName: '张建国', sender: 'supervisor', sendTime: '2026-11-20 10:12:00',
  msgContent: '张建国提交了对您 2026-11-20 《数据结构》的听课记录（TK20262027101084），请查阅并确认。', openType: 'url', openPage: '/supervisor/lectureRecord?open=r1', busType: 'lecture_record',
};
export const AboutARecord: S = { render: () => <NoticeView record={record} /> };
export const Announcement: S = { render: () => <NoticeView record={{ ...record, busType: undefined, openType: undefined, openPage: undefined, titile: '期中听课安排', msgContent: '<p>请各学院于第 9 周前完成听课。</p>' }} /> };
