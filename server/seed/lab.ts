import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { now, sha256 } from '../util.js';
import { seedLabDicts } from './dicts-domain.js';
import { CS_COLLEGE, departId, userId } from './data/org.js';
import type { SeedStep } from './index.js';

/** 实验室管理 demo: four labs with services, contracts, teaching plans, orders, bookings and use records. */
const id = (kind: string, key: string | number) => sha256(`lab|${kind}|${key}`).slice(0, 32);
const LABS = [
  { code: 'SY-A301', name: '软件工程实验室', type: 'TEACHING', dept: CS_COLLEGE, campus: '主校区', location: '实验楼A座301', manager: 'secretary', capacity: 60, area: 120, safety: 'IV' },
  { code: 'SY-B205', name: '大学物理实验中心', type: 'TEACHING', dept: 'A01A10', campus: '主校区', location: '实验楼B座205', manager: 'leader', capacity: 48, area: 160, safety: 'III' },
  { code: 'PT-C101', name: '分析测试中心', type: 'SHARED', dept: 'A01A11', campus: '主校区', location: '科研楼C座101', manager: 'supervisor', capacity: 20, area: 260, safety: 'II' },
  { code: 'SX-D001', name: '机械工程实训中心', type: 'TRAINING', dept: 'A01A07', campus: '东校区', location: '实训楼D座', manager: 'leader', capacity: 80, area: 900, safety: 'II' },
];

async function seedLabDemo(ctx: ServerContext) {
  const db = ctx.db;
  const ts = now();
  const audit = { create_by: 'system', create_time: ts };
  const day = (n: number) => dayjs().add(n, 'day').format('YYYY-MM-DD');
  await db.insertInto('lab_lab').values(LABS.map((l) => ({
    id: id('lab', l.code), code: l.code, name: l.name, lab_type: l.type, depart_id: departId(l.dept), campus: l.campus, location: l.location,
    manager_id: userId(l.manager), capacity: l.capacity, area: l.area, safety_level: l.safety, open_status: 'OPEN', ...audit,
  }))).execute();
  const lab = (code: string) => id('lab', code);
  const services = [
    { key: 'xrd', lab: 'PT-C101', name: 'X射线衍射分析（XRD）', type: 'TEST', mode: 'SAMPLE', inner: 80, outer: 200, unit: '样品', slots: '周一至周五 8:30-17:00' },
    { key: 'sem', lab: 'PT-C101', name: '扫描电镜（SEM）测试', type: 'TEST', mode: 'HOUR', inner: 150, outer: 400, unit: '机时', slots: '周一至周五 8:30-17:00' },
    { key: 'cnc', lab: 'SX-D001', name: '数控加工', type: 'PROCESS', mode: 'HOUR', inner: 120, outer: 300, unit: '机时', slots: '周一至周六 8:00-18:00' },
  ];
  await db.insertInto('lab_service').values(services.map((s) => ({
    id: id('service', s.key), lab_id: lab(s.lab), name: s.name, service_type: s.type, charge_mode: s.mode, price_inner: s.inner, price_outer: s.outer,
    unit: s.unit, need_approval: true, open_slots: s.slots, status: 'OPEN', ...audit,
  }))).execute();
  await db.insertInto('lab_contract').values([
    { id: id('contract', 1), contract_no: 'HT2026-0012', party_name: '某某新材料科技有限公司', party_type: 'OUTER', lab_id: lab('PT-C101'), amount: 24000, sign_date: '2026-03-10', valid_from: '2026-03-10', valid_to: '2027-03-09', status: 'ACTIVE', ...audit },
    { id: id('contract', 2), contract_no: 'HT2025-0041', party_name: '某某精密机械厂', party_type: 'OUTER', lab_id: lab('SX-D001'), amount: 18000, sign_date: '2025-09-01', valid_from: '2025-09-01', valid_to: '2026-08-31', status: 'EXPIRED', ...audit },
  ]).execute();
  const term = await db.selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirst();
  const tasks = term ? await db.selectFrom('sup_course_task').select(['id', 'name']).where('term_id', '=', term.id).orderBy('course_code').orderBy('seq_no').limit(2).execute() : [];
  if (term)
    await db.insertInto('lab_plan').values([
      { id: id('plan', 1), term_id: term.id, lab_id: lab('SY-A301'), task_id: tasks[0]?.id ?? null, item_name: '软件测试用例设计与执行', hours: 8, std_count: 45, weeks: '9-12', status: 'APPROVED', ...audit },
      { id: id('plan', 2), term_id: term.id, lab_id: lab('SY-B205'), task_id: tasks[1]?.id ?? null, item_name: '迈克尔逊干涉仪测波长', hours: 4, std_count: 40, weeks: '13-14', status: 'PENDING', ...audit },
    ]).execute();
  await db.insertInto('lab_order').values([
    { id: id('order', 1), order_no: `SY${dayjs().format('YYYY')}90001`, service_id: id('service', 'xrd'), contract_id: id('contract', 1), applicant_id: userId('teacher2'), research_group: '新能源材料课题组', sample_count: 12, expect_finish: day(10), amount: 2400, status: 'TESTING', ...audit },
    { id: id('order', 2), order_no: `SY${dayjs().format('YYYY')}90002`, service_id: id('service', 'sem'), contract_id: null, applicant_id: userId('teacher'), research_group: '智能感知课题组', sample_count: 3, expect_finish: day(5), amount: 450, status: 'SUBMITTED', ...audit },
  ]).execute();
  const bookings = [
    { lab: 'SY-A301', who: 'teacher', purpose: '软件工程课程设计答辩', people: 40, date: day(2), from: 3, to: 4, status: 'APPROVED', by: 'secretary' },
    { lab: 'SY-A301', who: 'teacher2', purpose: '学科竞赛集训', people: 20, date: day(3), from: 9, to: 10, status: 'PENDING' },
    { lab: 'PT-C101', who: 'teacher2', purpose: '研究生样品制备培训', people: 12, date: day(5), from: 5, to: 6, status: 'PENDING' },
    { lab: 'SY-B205', who: 'teacher', purpose: '补做物理实验', people: 30, date: day(-3), from: 1, to: 2, status: 'APPROVED', by: 'leader' },
  ];
  await db.insertInto('lab_reservation').values(bookings.map((b, i) => ({
    id: id('booking', i), lab_id: lab(b.lab), applicant_id: userId(b.who), purpose: b.purpose, attendance: b.people, use_date: b.date,
    start_section: b.from, end_section: b.to, status: b.status, approver_id: b.by ? userId(b.by) : null, ...audit,
  }))).execute();
  await db.insertInto('lab_use_record').values([
    { id: id('use', 1), lab_id: lab('SY-B205'), user_id: userId('teacher'), use_date: day(-3), start_time: '08:00', end_time: '09:40', attendance: 28, content: '补做物理实验（光学）', device_status: 'NORMAL', ...audit },
    { id: id('use', 2), lab_id: lab('SX-D001'), user_id: userId('leader'), use_date: day(-7), start_time: '14:00', end_time: '17:00', attendance: 35, content: '金工实习', device_status: 'FAULT', remark: '2号车床主轴异响，已报修', ...audit },
    { id: id('use', 3), lab_id: lab('SY-A301'), user_id: userId('teacher2'), use_date: day(-1), start_time: '19:00', end_time: '21:00', attendance: 18, content: '学科竞赛集训', device_status: 'NORMAL', ...audit },
  ]).execute();
}

export const labSeedSteps: SeedStep[] = [
  { name: 'dicts-lab', run: seedLabDicts },
  { name: 'lab-demo', demo: true, run: seedLabDemo },
];
