/** Pure rules of the lecture-observation domain: weeks, timetable strings, scores, grades. */
import dayjs from 'dayjs';

export const MAX_WEEKS = 30;

/**
 * Parses a week expression such as `1-8,10-16`, `1-15(单)`, `2-16双` into the sorted week list.
 * Returns null when the text is not a week expression or a week is outside 1..MAX_WEEKS.
 */
export function parseWeeks(text: string): number[] | null {
  const s = text.replace(/\s+/g, '').replace(/周/g, '').replace(/，/g, ',').replace(/（/g, '(').replace(/）/g, ')');
  if (!s) return null;
  const out = new Set<number>();
  for (const part of s.split(',')) {
    const m = /^(\d+)(?:-(\d+))?(?:\(?([单双])\)?)?$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    if (a < 1 || b > MAX_WEEKS || a > b) return null;
    for (let w = a; w <= b; w++) if (!m[3] || (m[3] === '单' ? w % 2 === 1 : w % 2 === 0)) out.add(w);
  }
  return out.size ? [...out].sort((x, y) => x - y) : null;
}

/** Week list → bitmask (bit w-1 for week w); fits a bigint column. */
export const weekMask = (weeks: number[]) => weeks.reduce((m, w) => m | (1n << BigInt(w - 1)), 0n);

/** Week list → compact text: [1,2,3,5] → "1-3,5". */
export function formatWeeks(weeks: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < weeks.length; ) {
    let j = i;
    while (j + 1 < weeks.length && weeks[j + 1] === weeks[j]! + 1) j++;
    parts.push(i === j ? `${weeks[i]}` : `${weeks[i]}-${weeks[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

const WEEKDAYS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7 };

export interface SlotTime {
  weeks: number[];
  weekday: number;
  startSection: number;
  endSection: number;
}

/**
 * Parses academic-affairs time strings such as `1-4,6-17周星期一6-7节` or `1-15周(单)周三1-2节`;
 * several slots may be separated by `;` or newlines. Returns null if any slot is malformed.
 */
export function parseSlots(text: string): SlotTime[] | null {
  const slots: SlotTime[] = [];
  for (const raw of text.split(/[;；\n]+/).map((x) => x.trim()).filter(Boolean)) {
    const m = /^(.+?)周?(?:星期|周)([一二三四五六日天])(?:第)?(\d+)(?:-(\d+))?节$/.exec(raw.replace(/\s+/g, ''));
    if (!m) return null;
    const weeks = parseWeeks(m[1]!);
    const start = Number(m[3]);
    const end = m[4] ? Number(m[4]) : start;
    if (!weeks || start < 1 || end > 16 || start > end) return null;
    slots.push({ weeks, weekday: WEEKDAYS[m[2]!]!, startSection: start, endSection: end });
  }
  return slots.length ? slots : null;
}

/** Teaching week of a date in a term starting on `termStart` (week 1 contains the start date; weeks start on Monday). */
export function weekOf(termStart: string, date: string): number {
  const monday = (d: dayjs.Dayjs) => d.subtract((d.day() + 6) % 7, 'day').startOf('day');
  return Math.floor(monday(dayjs(date)).diff(monday(dayjs(termStart)), 'day') / 7) + 1;
}

/** ISO weekday 1 (Monday) … 7 (Sunday). */
export const weekdayOf = (date: string) => ((dayjs(date).day() + 6) % 7) + 1;

/** The date of a given week and weekday in a term. */
export function dateOf(termStart: string, week: number, weekday: number): string {
  const s = dayjs(termStart);
  const monday = s.subtract((s.day() + 6) % 7, 'day');
  return monday.add((week - 1) * 7 + weekday - 1, 'day').format('YYYY-MM-DD');
}

export interface GradeBand {
  grade: string;
  label: string;
  /** Inclusive lower bound. */
  min: number;
}

export const DEFAULT_GRADE_BANDS: GradeBand[] = [
  { grade: 'EXCELLENT', label: '优秀', min: 90 },
  { grade: 'GOOD', label: '良好', min: 80 },
  { grade: 'MEDIUM', label: '中等', min: 70 },
  { grade: 'PASS', label: '合格', min: 60 },
  { grade: 'FAIL', label: '不合格', min: 0 },
];

/**
 * One colour per grade everywhere (the record form, the lists and details through the `eval_grade`
 * dictionary, the statistics and home-page charts): the antd preset name for tags and its hex for charts.
 */
export const GRADE_COLOR: Record<string, { tag: string; hex: string }> = {
  EXCELLENT: { tag: 'green', hex: '#52c41a' },
  GOOD: { tag: 'cyan', hex: '#13c2c2' },
  MEDIUM: { tag: 'blue', hex: '#1677ff' },
  PASS: { tag: 'orange', hex: '#fa8c16' },
  FAIL: { tag: 'red', hex: '#f5222d' },
};
/** Grade code → its default label (优秀 …). */
export const GRADE_TEXT: Record<string, string> = Object.fromEntries(DEFAULT_GRADE_BANDS.map((b) => [b.grade, b.label]));
/** Named colour sets a chart can use for its series by field (`chart.palette`). */
export const CHART_PALETTES: Record<string, Record<string, string>> = {
  grade: Object.fromEntries(Object.entries(GRADE_COLOR).map(([g, c]) => [g, c.hex])),
};

/** Validates grade bands: distinct grades, distinct lower bounds, one band starting at 0. */
export function checkGradeBands(bands: unknown): string | null {
  if (!Array.isArray(bands) || !bands.length) return '等级划分不能为空';
  const mins = new Set<number>();
  for (const b of bands as GradeBand[]) {
    if (!b || typeof b.grade !== 'string' || !b.grade || typeof b.label !== 'string' || typeof b.min !== 'number' || !Number.isFinite(b.min))
      return '等级划分的每一项需要等级、名称和最低分';
    if (mins.has(b.min)) return `等级划分的最低分 ${b.min} 重复`;
    mins.add(b.min);
  }
  if (!mins.has(0)) return '等级划分需要一个从 0 分开始的等级';
  return null;
}

export function gradeOf(total: number, bands: GradeBand[] = DEFAULT_GRADE_BANDS): GradeBand {
  const sorted = [...bands].sort((a, b) => b.min - a.min);
  return sorted.find((b) => total >= b.min) ?? sorted[sorted.length - 1]!;
}

export interface IndexNode {
  id: string;
  parentId: string | null;
  level: number;
  name: string;
  maxScore: number;
}

/** Leaf indexes are the scored ones: second-level items, or first-level items without children. */
export function leavesOf(indexes: IndexNode[]): IndexNode[] {
  const parents = new Set(indexes.map((i) => i.parentId).filter(Boolean));
  return indexes.filter((i) => !parents.has(i.id));
}

/**
 * Checks a set's structure before publishing: the first-level maxima add up to the full score and
 * each first-level item's children add up to it. Returns the first problem in Chinese, or null.
 */
export function checkIndexTree(indexes: IndexNode[], fullScore: number): string | null {
  const roots = indexes.filter((i) => !i.parentId);
  if (!roots.length) return '指标体系至少需要一个一级指标';
  const sum = round2(roots.reduce((s, r) => s + r.maxScore, 0));
  if (sum !== round2(fullScore)) return `一级指标分值合计 ${sum} 分，应等于满分 ${fullScore} 分`;
  for (const r of roots) {
    const kids = indexes.filter((i) => i.parentId === r.id);
    if (!kids.length) continue;
    const ks = round2(kids.reduce((s, k) => s + k.maxScore, 0));
    if (ks !== round2(r.maxScore)) return `一级指标“${r.name}”的二级指标分值合计 ${ks} 分，应等于 ${r.maxScore} 分`;
  }
  for (const i of indexes) if (!(i.maxScore > 0)) return `指标“${i.name}”的分值必须大于 0`;
  return null;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ScoreInput {
  indexId: string;
  score: unknown;
}

/** What is wrong with a set of index scores: each refused score (by index id, naming the index) and the leaves left unscored. */
export interface ScoreProblems {
  invalid: Map<string, string>;
  missing: IndexNode[];
  scores: Map<string, number>;
}

/** One score's problem (not a number, below 0, above the maximum, more than two decimals), or null. */
export function scoreProblem(leaf: Pick<IndexNode, 'name' | 'maxScore'>, score: unknown): string | null {
  if (score === null || score === undefined || score === '') return null;
  const v = typeof score === 'string' && !/^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(score) ? NaN : Number(score);
  if (!Number.isFinite(v)) return `指标“${leaf.name}”的得分“${String(score)}”不是数字`;
  if (v < 0) return `指标“${leaf.name}”的得分不能小于 0`;
  if (v > leaf.maxScore) return `指标“${leaf.name}”的得分 ${v} 超过最高分 ${leaf.maxScore}`;
  if (round2(v) !== v) return `指标“${leaf.name}”的得分最多保留两位小数`;
  return null;
}

/** Every problem of a record's scores at once (the form shows them at the field, the server refuses with them). */
export function scoreProblems(leaves: IndexNode[], input: ScoreInput[], complete: boolean): ScoreProblems {
  const byId = new Map(leaves.map((l) => [l.id, l]));
  const scores = new Map<string, number>();
  const invalid = new Map<string, string>();
  for (const s of input) {
    const leaf = byId.get(String(s?.indexId ?? ''));
    if (!leaf) throw new RuleError('评分中包含不属于本学期指标体系的指标');
    const problem = scoreProblem(leaf, s.score);
    if (problem) invalid.set(leaf.id, problem);
    else if (s.score !== null && s.score !== undefined && s.score !== '') scores.set(leaf.id, Number(s.score));
  }
  const missing = complete ? leaves.filter((l) => !scores.has(l.id) && !invalid.has(l.id)) : [];
  return { invalid, missing, scores };
}

/** The problems as one Chinese message (refused scores first, then every unscored index by name), or null. */
export function scoreMessage(p: Pick<ScoreProblems, 'invalid' | 'missing'>): string | null {
  const parts = [...p.invalid.values()];
  if (p.missing.length === 1) parts.push(`指标“${p.missing[0]!.name}”尚未评分`);
  else if (p.missing.length > 1) parts.push(`有 ${p.missing.length} 项指标尚未评分：${p.missing.map((l) => `“${l.name}”`).join('、')}`);
  return parts.length ? parts.join('；') : null;
}

/**
 * Validates index scores against the set's leaves and returns the cleaned scores with the total.
 * `complete` (submitting) requires every leaf; a draft may leave some out. The error names every
 * refused score and every missing index.
 */
export function scoreRecord(leaves: IndexNode[], input: ScoreInput[], complete: boolean): { scores: Map<string, number>; total: number } {
  const p = scoreProblems(leaves, input, complete);
  const msg = scoreMessage(p);
  if (msg) throw new RuleError(msg);
  return { scores: p.scores, total: round2([...p.scores.values()].reduce((a, b) => a + b, 0)) };
}

export class RuleError extends Error {}

/** Lecture record statuses that count as an observation done. */
export const DONE_STATUSES = ['SUBMITTED', 'CONFIRMED', 'ARCHIVED'] as const;

// ---- improvement task state machine (DESIGN §4) ----

export type ImpStatus = 'DRAFT' | 'ISSUED' | 'ACCEPTED' | 'IN_PROGRESS' | 'SUBMITTED' | 'REJECTED' | 'VERIFIED' | 'CLOSED' | 'CANCELLED';
export type ImpAction = 'ISSUE' | 'ACCEPT' | 'FEEDBACK' | 'SUBMIT' | 'REJECT' | 'VERIFY' | 'CLOSE' | 'CANCEL';
/** Who may take an action: the issuing side (issuer, verifier) or the handling side (responsible person/department). */
export type ImpSide = 'issuer' | 'handler';

export const IMP_STATUS_TEXT: Record<ImpStatus, string> = {
  DRAFT: '待下发', ISSUED: '已下发', ACCEPTED: '已签收', IN_PROGRESS: '整改中', SUBMITTED: '待验收',
  REJECTED: '已退回', VERIFIED: '已验收', CLOSED: '已销号', CANCELLED: '已撤销',
};
/** Tag colours of the improvement statuses (antd tag colours; the `rect_status` dictionary is seeded from these). */
export const IMP_STATUS_COLOR: Record<ImpStatus, string> = {
  DRAFT: 'default', ISSUED: 'blue', ACCEPTED: 'cyan', IN_PROGRESS: 'processing', SUBMITTED: 'orange',
  REJECTED: 'red', VERIFIED: 'green', CLOSED: 'purple', CANCELLED: 'default',
};
/** Lecture record statuses: text and tag colour (the `record_status` dictionary is seeded from these). */
export const RECORD_STATUS: Record<string, [text: string, color: string]> = {
  DRAFT: ['草稿', 'default'], SUBMITTED: ['已提交', 'blue'], RETURNED: ['已退回', 'red'], CONFIRMED: ['已确认', 'green'], ARCHIVED: ['已归档', 'purple'],
  REVIEWING: ['复核中', 'orange'],
};
/** A lesson's sections as text: 第3-4节 (第5节 for one). */
export const sectionsText = (a?: unknown, b?: unknown) => (a ? `第${String(a)}${b && b !== a ? `-${String(b)}` : ''}节` : '');

/** What a lecture record's log says was done (the `record_log_action` dictionary is seeded from these). */
export const RECORD_LOG_TEXT: Record<string, string> = {
  CREATE: '创建草稿', SAVE: '保存草稿', SUBMIT: '提交', RETURN: '退回', CONFIRM: '确认',
  REPLY: '教师回复', APPEAL: '申请复核', UPHOLD: '复核：维持原评价', AMEND: '复核：修改评价',
};
export const IMP_ACTION_TEXT: Record<ImpAction, string> = {
  ISSUE: '下发', ACCEPT: '签收', FEEDBACK: '反馈', SUBMIT: '提交验收', REJECT: '退回', VERIFY: '验收', CLOSE: '销号', CANCEL: '撤销',
};

/** The texts of an improvement log's actions (the transitions, plus creation and splitting). */
export const IMP_LOG_TEXT: Record<string, string> = { ...IMP_ACTION_TEXT, CREATE: '创建', SPLIT: '分解', FEEDBACK: '整改反馈', VERIFY: '验收通过' };

export const IMP_TRANSITIONS: Record<ImpAction, { from: ImpStatus[]; to: ImpStatus; side: ImpSide }> = {
  ISSUE: { from: ['DRAFT'], to: 'ISSUED', side: 'issuer' },
  ACCEPT: { from: ['ISSUED'], to: 'ACCEPTED', side: 'handler' },
  FEEDBACK: { from: ['ACCEPTED', 'IN_PROGRESS', 'REJECTED'], to: 'IN_PROGRESS', side: 'handler' },
  SUBMIT: { from: ['ACCEPTED', 'IN_PROGRESS', 'REJECTED'], to: 'SUBMITTED', side: 'handler' },
  REJECT: { from: ['SUBMITTED'], to: 'REJECTED', side: 'issuer' },
  VERIFY: { from: ['SUBMITTED'], to: 'VERIFIED', side: 'issuer' },
  CLOSE: { from: ['VERIFIED'], to: 'CLOSED', side: 'issuer' },
  CANCEL: { from: ['DRAFT', 'ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'REJECTED'], to: 'CANCELLED', side: 'issuer' },
};

/** The next status, or a Chinese reason why the action is not allowed from this status. */
export function nextStatus(status: ImpStatus, action: string): { to: ImpStatus } | { error: string } {
  const t = IMP_TRANSITIONS[action as ImpAction];
  if (!t) return { error: `不支持的操作：${action}` };
  if (!t.from.includes(status)) return { error: `当前状态为“${IMP_STATUS_TEXT[status] ?? status}”，不能${IMP_ACTION_TEXT[action as ImpAction]}` };
  return { to: t.to };
}

/** Subtask statuses that no longer block submitting the parent task. */
export const SUBTASK_FINISHED: ImpStatus[] = ['VERIFIED', 'CLOSED', 'CANCELLED'];
const OPEN: ImpStatus[] = ['ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'SUBMITTED', 'REJECTED'];

/** Overdue is derived: still open past its deadline. */
export const isOverdue = (status: string, deadline: string | null, today = dayjs().format('YYYY-MM-DD')) =>
  !!deadline && OPEN.includes(status as ImpStatus) && deadline < today;

/** A lesson of a day as the scan and 今日听课 routes answer it (server/domain/classroom-now.ts) and the phone form reads it. */
export interface LessonToday {
  scheduleId: string;
  courseTaskId: string;
  courseName: string | null;
  teacherId: string | null;
  teacherName: string | null;
  classroomId: string | null;
  classroomName: string | null;
  classNames: string | null;
  startSection: number;
  endSection: number;
  sectionsText: string;
  /** 第3-4节 10:00–11:40 */
  timeText: string;
  beginTime: string | null;
  endTime: string | null;
  /** NOW (on now), NEXT (later today), PAST (over). */
  state: 'NOW' | 'NEXT' | 'PAST';
  stateText: string;
  lectureDate: string;
  week: number;
  /** The signed-in user's record of this lesson on this date, if any. */
  myRecordId: string | null;
  myStatus: string | null;
}
