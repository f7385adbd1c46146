import type { ServerContext } from '../context.js';
import { now, sha256 } from '../util.js';
import { seedAuditDicts } from './dicts-domain.js';
import { departId, QUALITY_CENTER, userId } from './data/org.js';
import type { SeedStep } from './index.js';

/**
 * 审核评估 seed. The index system of the 2021–2025 audit assessment, 第二类 (7 一级 / 27 二级
 * indexes, reference/domain.md §4), with 审核重点 under the indexes the lecture-observation work
 * supports, is reference data every installation gets; the audit items and workgroups are demo data.
 */
const SCHEME = 'C2_2';
const indexId = (code: string) => sha256(`audit-index|${SCHEME}|${code}`).slice(0, 32);
const OFFICE = { academic: departId('A01A01'), quality: departId(QUALITY_CENTER), students: departId('A01A02'), personnel: departId('A01A03'), president: departId('A01A14'), library: departId('A01A12'), it: departId('A01A13') };

type Index = [code: string, name: string, lead?: string, extra?: { option?: string; quantitative?: boolean; threshold?: string; coop?: string[] }];

const INDEXES: Index[] = [
  ['1', '办学方向与本科地位', OFFICE.president],
  ['1.1', '党的领导', OFFICE.president],
  ['1.1.1', '学校坚持党的全面领导，落实立德树人根本任务的情况', OFFICE.president, { option: 'UNIFIED' }],
  ['1.2', '思政教育', OFFICE.students],
  ['1.3', '本科地位', OFFICE.academic],
  ['2', '培养过程', OFFICE.academic],
  ['2.1', '培养方案', OFFICE.academic],
  ['2.2', '专业建设', OFFICE.academic],
  ['2.3', '实践教学', OFFICE.academic],
  ['2.4', '课堂教学', OFFICE.academic],
  ['2.4.1', '推进课堂教学改革、提高课堂教学质量的情况', OFFICE.academic, { option: 'UNIFIED' }],
  ['2.4.2', '校院两级听课评课制度的建立与执行情况', OFFICE.quality, { option: 'UNIFIED', coop: [OFFICE.academic] }],
  ['2.4.3', '考试考核的过程管理与结果运用情况', OFFICE.academic, { option: 'TYPE' }],
  ['2.5', '卓越培养', OFFICE.academic],
  ['2.6', '创新创业教育', OFFICE.academic],
  ['3', '教学资源与利用', OFFICE.academic],
  ['3.1', '设施资源', OFFICE.it, { coop: [OFFICE.library] }],
  ['3.2', '资源建设', OFFICE.academic],
  ['4', '教师队伍', OFFICE.personnel],
  ['4.1', '师德师风', OFFICE.personnel],
  ['4.2', '教学能力', OFFICE.personnel],
  ['4.2.1', '教师教学能力提升的措施与成效', OFFICE.personnel, { option: 'UNIFIED', coop: [OFFICE.academic] }],
  ['4.3', '教学投入', OFFICE.personnel],
  ['4.3.1', '教授主讲本科课程人数占教授总数的比例', OFFICE.personnel, { option: 'QUANT_REQ', quantitative: true, threshold: '≥90%', coop: [OFFICE.academic] }],
  ['4.4', '教师发展', OFFICE.personnel],
  ['5', '学生发展', OFFICE.students],
  ['5.1', '理想信念', OFFICE.students],
  ['5.2', '学业成绩及综合素质', OFFICE.students],
  ['5.3', '国际视野', OFFICE.students],
  ['5.4', '支持服务', OFFICE.students],
  ['6', '质量保障', OFFICE.quality],
  ['6.1', '质量管理', OFFICE.quality],
  ['6.1.1', '教学督导与听课评教制度及其执行情况', OFFICE.quality, { option: 'UNIFIED' }],
  ['6.2', '质量改进', OFFICE.quality],
  ['6.2.1', '质量监测与评价结果的反馈及持续改进情况', OFFICE.quality, { option: 'UNIFIED' }],
  ['6.3', '质量文化', OFFICE.quality],
  ['7', '教学成效', OFFICE.academic],
  ['7.1', '达成度', OFFICE.academic],
  ['7.2', '适应度', OFFICE.academic],
  ['7.3', '保障度', OFFICE.academic],
  ['7.4', '有效度', OFFICE.quality],
  ['7.5', '满意度', OFFICE.quality],
];

async function seedAuditIndexes(ctx: ServerContext) {
  const ts = now();
  const codes = new Set(INDEXES.map(([c]) => c));
  const rows = INDEXES.map(([code, name, lead, x], i) => {
    const parent = code.includes('.') ? code.slice(0, code.lastIndexOf('.')) : '';
    return {
      id: indexId(code), scheme_type: SCHEME, parent_id: parent ? indexId(parent) : '0',
      has_child: [...codes].some((c) => c.startsWith(`${code}.`) && c.split('.').length === code.split('.').length + 1) ? '1' : '0',
      level: code.split('.').length, code, name, option_type: x?.option ?? null, quantitative: x?.quantitative ?? false, threshold: x?.threshold ?? null,
      lead_depart_id: lead ?? null, coop_departs: x?.coop?.join(',') ?? null, sort_no: i, create_by: 'system', create_time: ts,
    };
  });
  await ctx.db.insertInto('audit_index').values(rows).onConflict((oc) => oc.column('id').doNothing()).execute();
}

const groupId = (name: string) => sha256(`audit-group|${name}`).slice(0, 32);
const GROUPS = [
  { name: '评估工作领导小组', type: 'LEADING', leader: 'leader', members: 'leader,supervisor', lead: OFFICE.president, scope: ['1', '2', '3', '4', '5', '6', '7'], duty: '统筹审核评估工作，审定自评报告与整改方案。' },
  { name: '评建办公室', type: 'OFFICE', leader: 'supervisor', members: 'supervisor,secretary', lead: OFFICE.quality, scope: ['6'], duty: '制订评建工作方案，组织自评自建，协调各工作组，汇总支撑材料目录。' },
  { name: '报告撰写组', type: 'REPORT', leader: 'leader', members: 'leader,teacher2', lead: OFFICE.academic, scope: ['2', '7'], duty: '撰写自评报告，按一级指标分工起草并统稿。' },
  { name: '支撑材料组', type: 'MATERIAL', leader: 'secretary', members: 'secretary,teacher', lead: OFFICE.academic, scope: ['2', '4'], duty: '按审核要点收集、整理、审核支撑材料。' },
  { name: '督查组', type: 'INSPECTION', leader: 'supervisor', members: 'supervisor', lead: OFFICE.quality, scope: ['6'], duty: '督查各单位评建任务进度，跟踪自查问题整改。' },
];

const ITEMS: Array<{ index: string; content: string; evidence: string; period: string; dept: string; group: string; status: string; selfCheck?: string; problem?: string; due: string }> = [
  { index: '1.1.1', content: '党委常委会、校长办公会研究本科教学工作的情况', evidence: '近三年党委常委会、校长办公会研究本科教学的会议纪要', period: 'THREE_YEARS', dept: OFFICE.president, group: '评建办公室', status: 'DONE', selfCheck: '近三年党委常委会研究本科教学议题 14 次，纪要已归档。', due: '2026-12-15' },
  { index: '2.4.1', content: '课堂教学改革项目立项、建设与成效', evidence: '教改项目立项文件；课堂教学创新大赛获奖材料', period: 'FIVE_YEARS', dept: OFFICE.academic, group: '支撑材料组', status: 'COLLECTING', due: '2026-12-31' },
  { index: '2.4.2', content: '校院两级听课制度文件及近三年执行记录', evidence: '听课制度文件；各学期听课统计表（应听、实听、完成率）', period: 'THREE_YEARS', dept: OFFICE.quality, group: '支撑材料组', status: 'DONE', selfCheck: '校院两级听课制度健全，校领导、督导和学院领导听课记录完整，可从听课系统导出统计表。', due: '2026-12-15' },
  { index: '2.4.2', content: '听课评价结果的反馈与改进情况', evidence: '听课评价反馈记录；整改任务及验收材料', period: 'THREE_YEARS', dept: OFFICE.academic, group: '督查组', status: 'PROBLEM', selfCheck: '听课评价已在系统内反馈至被听课教师。', problem: '2025-2026学年第二学期有 3 个学院听课完成率未达到要求，听课发现的问题反馈后缺少复查记录。', due: '2026-12-20' },
  { index: '2.4.3', content: '课程考核改革与试卷、毕业论文（设计）质量检查', evidence: '试卷及毕业论文抽检报告', period: 'THREE_YEARS', dept: OFFICE.academic, group: '支撑材料组', status: 'TODO', due: '2027-01-10' },
  { index: '4.2.1', content: '教师教学发展中心建设与教师培训情况', evidence: '教师培训计划、培训记录及考核结果', period: 'THREE_YEARS', dept: OFFICE.personnel, group: '支撑材料组', status: 'COLLECTING', due: '2026-12-31' },
  { index: '4.3.1', content: '教授主讲本科课程情况统计', evidence: '近三年教授授课统计表（按学期）', period: 'THREE_YEARS', dept: OFFICE.personnel, group: '报告撰写组', status: 'PROBLEM', problem: '2025 年教授主讲本科课程比例为 86%，低于 90% 的标准值。', due: '2026-12-20' },
  { index: '6.1.1', content: '教学督导队伍建设与督导工作开展情况', evidence: '督导聘任文件；督导工作总结；督导听课记录', period: 'CYCLE', dept: OFFICE.quality, group: '评建办公室', status: 'COLLECTING', due: '2026-12-31' },
  { index: '6.2.1', content: '教学质量监测结果的反馈与持续改进', evidence: '本科教学质量报告；整改任务台账', period: 'THREE_YEARS', dept: OFFICE.quality, group: '评建办公室', status: 'DONE', selfCheck: '每年发布本科教学质量报告，整改任务全程在系统内跟踪。', due: '2026-12-15' },
];

async function seedAuditDemo(ctx: ServerContext) {
  const ts = now();
  await ctx.db.insertInto('audit_workgroup').values(GROUPS.map((g, i) => ({
    id: groupId(g.name), name: g.name, group_type: g.type, leader_id: userId(g.leader), members: g.members.split(',').map(userId).join(','), lead_depart_id: g.lead,
    index_scope: g.scope.map(indexId).join(','), duty: g.duty, sort_no: i, create_by: 'system', create_time: ts,
  }))).onConflict((oc) => oc.column('id').doNothing()).execute();
  await ctx.db.insertInto('audit_item').values(ITEMS.map((it, i) => ({
    id: sha256(`audit-item|${i}`).slice(0, 32), index_id: indexId(it.index), index_code: it.index, content: it.content, evidence_hint: it.evidence,
    period: it.period, resp_depart_id: it.dept, workgroup_id: groupId(it.group), due_date: it.due, self_check: it.selfCheck ?? null, problem: it.problem ?? null,
    status: it.status, create_by: 'system', create_time: ts,
  }))).onConflict((oc) => oc.column('id').doNothing()).execute();
}

export const auditSeedSteps: SeedStep[] = [
  { name: 'dicts-audit', run: seedAuditDicts },
  { name: 'audit-indexes', run: seedAuditIndexes },
  { name: 'audit-demo', demo: true, run: seedAuditDemo },
];
