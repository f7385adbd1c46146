import type { ServerContext } from '../context.js';
import { seedDicts, type DictSeed } from './dicts-base.js';
import { DEFAULT_GRADE_BANDS, GRADE_COLOR, IMP_LOG_TEXT, RECORD_LOG_TEXT, IMP_STATUS_COLOR, IMP_STATUS_TEXT, RECORD_STATUS, type ImpStatus } from '../../shared/rules.js';

/** Vocabularies of lecture observation and improvement (DESIGN §4): stable codes, Chinese labels. */
export const DOMAIN_DICTS: DictSeed[] = [
  { code: 'term_no', name: '学期序号', items: [['1', '第一学期'], ['2', '第二学期'], ['3', '夏季学期']] },
  { code: 'time_season', name: '作息季节', items: [['SUMMER', '夏季作息'], ['WINTER', '冬季作息']] },
  { code: 'day_period', name: '时段', items: [['AM', '上午'], ['PM', '下午'], ['EVE', '晚上']] },
  { code: 'room_type', name: '教室类型', items: [['NORMAL', '普通教室'], ['MEDIA', '多媒体教室'], ['SMART', '智慧教室'], ['LAB', '实验室']] },
  { code: 'course_nature', name: '课程性质', items: [['REQUIRED', '必修'], ['ELECTIVE', '选修']] },
  { code: 'course_category', name: '课程类别', items: [['GENERAL', '通识课'], ['DISCIPLINE', '学科基础课'], ['MAJOR', '专业课'], ['PRACTICE', '实践课']] },
  { code: 'lesson_kind', name: '课程类型', items: [['THEORY', '理论课'], ['EXPERIMENT', '实验课'], ['PRACTICE', '实践课'], ['PE', '体育课']] },
  { code: 'assess_mode', name: '考核方式', items: [['EXAM', '考试'], ['CHECK', '考查']] },
  { code: 'data_source', name: '数据来源', items: [['IMPORT', '教务导入'], ['MANUAL', '手工录入']] },
  { code: 'weekday', name: '星期', items: [['1', '星期一'], ['2', '星期二'], ['3', '星期三'], ['4', '星期四'], ['5', '星期五'], ['6', '星期六'], ['7', '星期日']] },
  { code: 'index_set_status', name: '指标体系状态', items: [['DRAFT', '草稿', 'orange'], ['PUBLISHED', '已发布', 'green'], ['ARCHIVED', '已停用', 'default']] },
  { code: 'req_target', name: '要求对象', items: [['CATEGORY', '按听课人类别'], ['PERSON', '按人员']] },
  { code: 'count_unit', name: '计量单位', items: [['TIMES', '次'], ['SECTIONS', '节'], ['HOURS', '学时']] },
  {
    code: 'lecture_type', name: '听课类型',
    items: [['RANDOM', '推门听课'], ['TRACK', '跟踪听课'], ['GUIDE', '指导听课'], ['SPECIAL', '专项听课'], ['COLLECTIVE', '集体听课'], ['OPEN', '公开课']],
  },
  { code: 'lecture_mode', name: '听课方式', items: [['OFFLINE', '线下'], ['ONLINE', '线上']] },
  { code: 'eval_grade', name: '评价等级', items: DEFAULT_GRADE_BANDS.map((b) => [b.grade, b.label, GRADE_COLOR[b.grade]!.tag]) },
  {
    code: 'record_status', name: '听课记录状态',
    items: Object.entries(RECORD_STATUS).map(([code, [text, color]]) => [code, text, color]),
  },
  {
    code: 'rect_status', name: '整改状态',
    items: (Object.keys(IMP_STATUS_TEXT) as ImpStatus[]).map((s) => [s, IMP_STATUS_TEXT[s], IMP_STATUS_COLOR[s]]),
  },
  {
    code: 'rect_action', name: '整改操作',
    items: [['CREATE', '创建'], ['SPLIT', '分解'], ['ISSUE', '下发'], ['ACCEPT', '签收'], ['FEEDBACK', '反馈'], ['SUBMIT', '提交验收'], ['REJECT', '退回'], ['VERIFY', '验收'], ['CLOSE', '销号'], ['CANCEL', '撤销']],
  },
  { code: 'rect_source', name: '整改来源', items: [['LECTURE', '听课记录'], ['AUDIT', '审核评估'], ['MANUAL', '手工创建']] },
  { code: 'rect_category', name: '问题类别', items: [['ATTITUDE', '教学态度'], ['CONTENT', '教学内容'], ['METHOD', '教学方法'], ['EFFECT', '教学效果'], ['OTHER', '其他']] },
  { code: 'position_rank', name: '职级', items: [['1', '校级'], ['2', '处级'], ['3', '科级'], ['4', '科员']] },
  { code: 'rect_level', name: '严重程度', items: [['NORMAL', '一般'], ['SERIOUS', '严重'], ['URGENT', '紧急']] },
];

export const seedDomainDicts = (ctx: ServerContext) => seedDicts(ctx, DOMAIN_DICTS);

/** Vocabularies of the undergraduate teaching audit assessment (审核评估 2021–2025, docs reference/domain.md §4). */
export const AUDIT_DICTS: DictSeed[] = [
  { code: 'audit_type', name: '审核评估类型', items: [['C1', '第一类'], ['C2_1', '第二类第一种'], ['C2_2', '第二类第二种'], ['C2_3', '第二类第三种']] },
  { code: 'audit_level', name: '审核指标层级', items: [['1', '一级指标'], ['2', '二级指标'], ['3', '审核重点']] },
  {
    code: 'audit_option', name: '审核指标选项',
    items: [['UNIFIED', '统一必选项'], ['TYPE', '类型必选项'], ['FEATURE', '特色可选项'], ['FIRST', '首评限选项'], ['QUANT_REQ', '定量必选'], ['QUANT_OPT', '定量可选']],
  },
  { code: 'evidence_period', name: '佐证材料时间范围', items: [['LAST_YEAR', '评估当年'], ['THREE_YEARS', '近三年'], ['FIVE_YEARS', '近五年'], ['CYCLE', '评估周期内']] },
  {
    code: 'audit_item_status', name: '审核要点状态',
    items: [['TODO', '未开始', 'default'], ['COLLECTING', '材料整理中', 'blue'], ['DONE', '已完成', 'green'], ['PROBLEM', '存在问题', 'red']],
  },
  {
    code: 'workgroup_type', name: '工作组类型',
    items: [['LEADING', '领导小组'], ['OFFICE', '评建办公室'], ['REPORT', '报告撰写组'], ['MATERIAL', '支撑材料组'], ['SUPPORT', '综合保障组'], ['PUBLICITY', '学习宣传组'], ['INSPECTION', '督查组']],
  },
];
export const seedAuditDicts = (ctx: ServerContext) => seedDicts(ctx, AUDIT_DICTS);

/** Vocabularies of the laboratories (reference/domain.md §7.5). */
export const LAB_DICTS: DictSeed[] = [
  { code: 'lab_type', name: '实验室类型', items: [['TEACHING', '教学实验室'], ['RESEARCH', '科研实验室'], ['SHARED', '公共平台'], ['TRAINING', '实训中心']] },
  { code: 'lab_safety', name: '实验室安全等级', items: [['I', '一级（高危）', 'red'], ['II', '二级', 'orange'], ['III', '三级', 'blue'], ['IV', '四级（低危）', 'green']] },
  { code: 'lab_open', name: '开放状态', items: [['OPEN', '开放', 'green'], ['CLOSED', '停用', 'default']] },
  { code: 'lab_service_type', name: '实验室服务类型', items: [['TEST', '测试分析'], ['PROCESS', '加工制备'], ['TRAINING', '技术培训'], ['OPEN_USE', '开放使用']] },
  { code: 'charge_mode', name: '计费方式', items: [['SAMPLE', '按样品'], ['HOUR', '按机时'], ['FREE', '免费']] },
  { code: 'party_type', name: '委托方类型', items: [['INNER', '校内'], ['OUTER', '校外']] },
  { code: 'contract_status', name: '合同状态', items: [['DRAFT', '草稿', 'default'], ['ACTIVE', '生效', 'green'], ['EXPIRED', '到期', 'orange'], ['TERMINATED', '终止', 'red'], ['PENDING', '审批中', 'blue'], ['REJECTED', '已退回', 'orange']] },
  { code: 'approval_status', name: '审核状态', items: [['PENDING', '待审核', 'orange'], ['APPROVED', '已通过', 'green'], ['REJECTED', '已驳回', 'red']] },
  {
    code: 'order_status', name: '订单状态',
    items: [['SUBMITTED', '已提交', 'blue'], ['ACCEPTED', '已受理', 'cyan'], ['TESTING', '检测中', 'processing'], ['DONE', '已完成', 'green'], ['SETTLED', '已结算', 'purple'], ['CANCELLED', '已取消', 'default']],
  },
  { code: 'reservation_status', name: '预约状态', items: [['PENDING', '待审核', 'orange'], ['APPROVED', '已通过', 'green'], ['REJECTED', '已驳回', 'red'], ['CANCELLED', '已取消', 'default']] },
  { code: 'device_status', name: '设备状况', items: [['NORMAL', '正常', 'green'], ['FAULT', '故障', 'red']] },
];
export const seedLabDicts = (ctx: ServerContext) => seedDicts(ctx, LAB_DICTS);

/**
 * Texts that schema screens show instead of hand-written maps (issue 26): the improvement log's actions
 * (the timeline of a task's detail) and how a scheduled job's run was started (its run history).
 */
export const DISPLAY_DICTS: DictSeed[] = [
  { code: 'rect_log_action', name: '整改处理动作', items: Object.entries(IMP_LOG_TEXT) },
  { code: 'record_log_action', name: '听课记录操作', items: Object.entries(RECORD_LOG_TEXT) },
  { code: 'job_trigger_type', name: '任务触发方式', items: [['cron', '定时触发'], ['manual', '手动执行']] },
];
export const seedDisplayDicts = (ctx: ServerContext) => seedDicts(ctx, DISPLAY_DICTS);
