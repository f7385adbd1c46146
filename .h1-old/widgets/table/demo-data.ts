import type { EditColumn, Row } from './model';

/** Demo columns (20) and rows for stories, e2e and the benchmark. */
export const DEMO_COLUMNS: EditColumn[] = [
  { key: 'name', title: '姓名', type: 'input', validateRules: [{ required: true, message: '请输入姓名' }] },
  { key: 'code', title: '工号', type: 'input', validateRules: [{ pattern: 'only', message: '工号不能重复' }] },
  { key: 'mobile', title: '手机号', type: 'input', validateRules: [{ pattern: 'm', message: '手机号格式不正确' }] },
  { key: 'sex', title: '性别', type: 'select', options: [{ value: '1', text: '男' }, { value: '2', text: '女' }] },
  { key: 'score', title: '评分', type: 'inputNumber', statistics: ['sum', 'average'], validateRules: [{ pattern: 'n', message: '请输入数字' }] },
  { key: 'hours', title: '学时', type: 'inputNumber', statistics: ['sum'] },
  { key: 'visitDate', title: '听课日期', type: 'date' },
  { key: 'visitAt', title: '开始时间', type: 'datetime' },
  { key: 'lessonTime', title: '节次时间', type: 'time' },
  { key: 'level', title: '等级', type: 'sel_search', options: [{ value: 'A', text: '优秀' }, { value: 'B', text: '良好' }, { value: 'C', text: '合格' }, { value: 'D', text: '不合格' }] },
  { key: 'tags', title: '标签', type: 'list_multi', options: [{ value: 't1', text: '理论' }, { value: 't2', text: '实验' }, { value: 't3', text: '实践' }] },
  { key: 'confirmed', title: '已确认', type: 'checkbox', customValue: ['Y', 'N'], defaultChecked: false },
  { key: 'kind', title: '类型', type: 'radio', width: 160, options: [{ value: '1', text: '常规' }, { value: '2', text: '专项' }] },
  { key: 'remark', title: '备注', type: 'textarea' },
  { key: 'progress', title: '进度', type: 'progress', defaultValue: 0 },
  { key: 'attachment', title: '附件', type: 'file' },
  { key: 'keywords', title: '关键词', type: 'tags' },
  { key: 'room', title: '教室', type: 'input' },
  { key: 'course', title: '课程', type: 'input' },
  { key: 'secret', title: '隐藏', type: 'hidden' },
];

export function demoRows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `r${i + 1}`,
    orderNum: i + 1,
    name: `教师${i + 1}`,
    code: `T${String(i + 1).padStart(5, '0')}`,
    mobile: `138${String(i).padStart(8, '0')}`,
    sex: i % 2 ? '2' : '1',
    score: 60 + (i % 41),
    hours: 2,
    visitDate: '2026-03-02',
    visitAt: '2026-03-02 08:00:00',
    lessonTime: '08:00:00',
    level: ['A', 'B', 'C', 'D'][i % 4],
    tags: 't1,t2',
    confirmed: i % 3 ? 'N' : 'Y',
    kind: '1',
    remark: '',
    progress: i % 101,
    attachment: '',
    keywords: 'ab;cd;',
    room: `A${100 + (i % 50)}`,
    course: '高等数学',
    secret: 'x',
  }));
}
