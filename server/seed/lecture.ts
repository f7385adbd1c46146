import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { newId } from '../util.js';
import { recordNoPrefix } from '../domain/numbering.js';
import { dateOf, DEFAULT_GRADE_BANDS, formatWeeks, gradeOf, round2, weekMask } from '../../shared/rules.js';
import { COURSE_WORDS, PROBLEMS, STRENGTHS, SUGGESTIONS } from './data/lecture/texts.js';
import { QUALITY_CENTER } from './data/org.js';

/**
 * Demo lecture-observation data (DESIGN §5): the previous term (finished) and the current one
 * (week ~12 on 2026-11-21), ~300 courses with tasks and schedule lines, the default index system,
 * requirements per listener category, ~2,000 records with scores, improvement tasks in every state.
 * Bulk multi-row inserts keep it fast; `scale` multiplies records and tasks (npm run seed -- --scale N).
 */
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const TS = '2026-09-01 08:00:00';

export async function insertMany(db: DB, table: string, rows: Record<string, unknown>[], chunk = 500) {
  for (let i = 0; i < rows.length; i += chunk) await db.insertInto(table).values(rows.slice(i, i + chunk)).execute();
}

export const TERMS = [
  { code: '2025-2026-2', name: '2025-2026学年第二学期', schoolYear: '2025-2026', termNo: 2, startDate: '2026-03-02', endDate: '2026-07-05', current: false, doneWeeks: 18 },
  { code: '2026-2027-1', name: '2026-2027学年第一学期', schoolYear: '2026-2027', termNo: 1, startDate: '2026-09-07', endDate: '2027-01-10', current: true, doneWeeks: 11 },
];

export const DEFAULT_INDEXES: Array<{ name: string; max: number; children: Array<[string, number]> }> = [
  { name: '教学态度', max: 15, children: [['为人师表，按时上下课', 5], ['备课充分，教学准备完善', 5], ['课堂管理有序', 5]] },
  { name: '教学内容', max: 30, children: [['内容准确，符合教学大纲', 10], ['重点突出，难点讲透', 10], ['联系实际，反映学科前沿', 10]] },
  { name: '教学方法', max: 25, children: [['方法得当，启发思维', 10], ['师生互动，学生参与', 8], ['合理运用现代教育技术', 7]] },
  { name: '教学效果', max: 30, children: [['学生专注，课堂气氛活跃', 15], ['达成教学目标', 15]] },
];

export async function seedLectureBase(ctx: ServerContext) {
  const db = ctx.db;
  const rand = rng(20261121);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const termIds = TERMS.map(() => newId());
  await insertMany(db, 'sup_term', TERMS.map((t, i) => ({
    id: termIds[i], code: t.code, name: t.name, school_year: t.schoolYear, term_no: t.termNo, start_date: t.startDate, end_date: t.endDate,
    week_count: 18, is_current: t.current, create_by: 'system', create_time: TS,
  })));
  const sections: Record<string, unknown>[] = [];
  const times = [['08:00', '08:45'], ['08:55', '09:40'], ['10:00', '10:45'], ['10:55', '11:40'], ['14:00', '14:45'], ['14:55', '15:40'], ['16:00', '16:45'], ['16:55', '17:40'], ['19:00', '19:45'], ['19:55', '20:40']];
  for (const season of ['SUMMER', 'WINTER'])
    times.forEach(([b, e], i) => {
      const shift = season === 'SUMMER' && i >= 4 ? 30 : 0;
      const add = (t: string) => { const [h, m] = t.split(':').map(Number); const x = h! * 60 + m! + shift; return `${String(Math.floor(x / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}:00`; };
      sections.push({ id: newId(), campus: '主校区', season, valid_from: season === 'SUMMER' ? '2026-05-01' : '2026-10-01', valid_to: season === 'SUMMER' ? '2026-09-30' : '2027-04-30',
        section_no: i + 1, name: `第${i + 1}节`, begin_time: add(b!), end_time: add(e!), period: i < 4 ? 'AM' : i < 8 ? 'PM' : 'EVE', create_by: 'system', create_time: TS });
    });
  await insertMany(db, 'sup_section_time', sections);

  const rooms = Array.from({ length: 60 }, (_, i) => {
    const b = ['博学楼', '明德楼', '求是楼', '实验楼'][i % 4]!;
    const floor = 1 + (Math.floor(i / 4) % 5);
    return { id: newId(), code: `${'BMQS'[i % 4]}${floor}${String(i).padStart(2, '0')}`, name: `${b}${floor}${String(i % 20).padStart(2, '0')}`, campus: '主校区', building: b, floor,
      capacity: pick([60, 90, 120, 150]), room_type: i % 4 === 3 ? 'LAB' : pick(['MEDIA', 'SMART', 'NORMAL']), status: 1, create_by: 'system', create_time: TS };
  });
  await insertMany(db, 'sup_classroom', rooms);

  const colleges = (await db.selectFrom('sys_depart').select(['id', 'org_code', 'depart_name']).where('depart_type', '=', '1').where('parent_id', 'is not', null).orderBy('org_code').execute())
    .filter((d) => String(d.org_code).length === 6);
  const teachers = await sql<{ id: string; org_code: string; realname: string }>`
    select u.id, u.org_code, u.realname from sys_user u join sys_user_role ur on ur.user_id = u.id join sys_role r on r.id = ur.role_id
    where r.role_code in ('teacher', 'leader', 'secretary') and u.org_code is not null order by u.username`.execute(db);
  if (!teachers.rows.length || !colleges.length) return; // no demo organisation: base data only
  const classes: Record<string, unknown>[] = [];
  for (const c of colleges)
    for (const g of [2023, 2024, 2025, 2026])
      for (let k = 1; k <= 2; k++)
        classes.push({ id: newId(), code: `${c.org_code}${g}${k}`, name: `${String(c.depart_name).replace('学院', '')}${String(g).slice(2)}级${k}班`, grade: g, major_name: String(c.depart_name).replace('学院', '') + '专业',
          depart_id: c.id, student_count: 30 + Math.floor(rand() * 30), create_by: 'system', create_time: TS });
  await insertMany(db, 'sup_class', classes);

  const byCollege = new Map<string, typeof teachers.rows>();
  for (const t of teachers.rows) {
    const c = colleges.find((x) => t.org_code.startsWith(String(x.org_code)));
    if (c) (byCollege.get(String(c.id)) ?? byCollege.set(String(c.id), []).get(String(c.id))!).push(t);
  }
  const courses = Array.from({ length: 300 }, (_, i) => {
    const c = colleges[i % colleges.length]!;
    const word = COURSE_WORDS[i % COURSE_WORDS.length]!;
    const suffix = i < COURSE_WORDS.length ? '' : ['（上）', '（下）', '实验', 'A', 'B', '专题', '（双语）'][Math.floor(i / COURSE_WORDS.length) % 7];
    return { id: newId(), code: `${String(c.org_code).slice(-2)}${String(10000 + i)}`, name: `${word}${suffix}`, depart_id: c.id, credit: pick([1, 2, 2.5, 3, 4]), total_hours: pick([32, 48, 64]),
      nature: pick(['REQUIRED', 'REQUIRED', 'ELECTIVE']), category: pick(['GENERAL', 'DISCIPLINE', 'MAJOR', 'MAJOR']), lesson_kind: suffix === '实验' ? 'EXPERIMENT' : 'THEORY',
      assess_mode: pick(['EXAM', 'CHECK']), create_by: 'system', create_time: TS };
  });
  await insertMany(db, 'sup_course', courses);

  const tasks: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const demoTeacher = (await db.selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirst())?.id;
  termIds.forEach((termId) => {
    const busy = new Set<string>();
    courses.forEach((c, i) => {
      const pool = byCollege.get(String(c.depart_id)) ?? teachers.rows;
      let t = pool[(i * 7 + termIds.indexOf(termId) * 3) % pool.length]!;
      if (demoTeacher && i % 60 === 3) t = teachers.rows.find((x) => x.id === demoTeacher) ?? t;
      const cls = classes.filter((x) => x.depart_id === c.depart_id);
      const picked = [cls[i % cls.length]!, cls[(i + 1) % cls.length]!];
      const id = newId();
      tasks.push({ id, term_id: termId, course_id: c.id, course_code: c.code, course_name: c.name, seq_no: '01', name: `${c.name}-01`, depart_id: c.depart_id,
        teacher_id: t.id, teacher_ids: t.id, teacher_names: t.realname, class_ids: picked.map((x) => x.id).join(','), class_names: picked.map((x) => x.name).join(','),
        student_count: picked.reduce((s, x) => s + Number(x.student_count), 0), source: 'IMPORT', create_by: 'system', create_time: TS });
      const n = Number(c.total_hours) >= 64 ? 2 : 1;
      for (let k = 0; k < n; k++) {
        let weekday = 0, start = 0, room = rooms[0]!;
        for (let tries = 0; tries < 30; tries++) {
          weekday = 1 + Math.floor(rand() * 5);
          start = pick([1, 3, 5, 7, 9]);
          room = pick(rooms);
          if (!busy.has(`${t.id}|${weekday}|${start}`) && !busy.has(`${room.id}|${weekday}|${start}`)) break;
        }
        busy.add(`${t.id}|${weekday}|${start}`);
        busy.add(`${room.id}|${weekday}|${start}`);
        const weeks = Array.from({ length: 16 }, (_, w) => w + 1).filter((w) => (n === 2 && k === 1 && i % 3 === 0 ? w % 2 === 1 : true));
        lines.push({ id: newId(), term_id: termId, task_id: id, weekday, start_section: start, end_section: start + 1, weeks: formatWeeks(weeks) + (n === 2 && k === 1 && i % 3 === 0 ? '' : ''),
          week_mask: String(weekMask(weeks)), classroom_id: room.id, teacher_id: t.id, create_by: 'system', create_time: TS });
      }
    });
  });
  await insertMany(db, 'sup_course_task', tasks);
  await insertMany(db, 'sup_course_schedule', lines);

  const setId = newId();
  await insertMany(db, 'sup_index_set', [{ id: setId, root_id: setId, name: '理论课课堂教学评价指标体系', lesson_kind: 'THEORY', full_score: 100, version: 1, status: 'PUBLISHED',
    grade_bands: JSON.stringify(DEFAULT_GRADE_BANDS), published_time: TS, create_by: 'system', create_time: TS }]);
  const idx: Record<string, unknown>[] = [];
  DEFAULT_INDEXES.forEach((p, i) => {
    const pid = newId();
    idx.push({ id: pid, set_id: setId, parent_id: null, level: 1, code: String(i + 1), name: p.name, max_score: p.max, sort: i });
    p.children.forEach(([n, m], j) => idx.push({ id: newId(), set_id: setId, parent_id: pid, level: 2, code: `${i + 1}.${j + 1}`, name: n, max_score: m, sort: j }));
  });
  await insertMany(db, 'sup_index', idx);

  const req = [['school_leader', 4, 2], ['college_leader', 6, 4], ['supervisor', 16, 12], ['section_head', 6, 4], ['teacher', 4, 2], ['new_teacher', 8, 6]] as const;
  await insertMany(db, 'sup_require_task', termIds.flatMap((termId) => req.map(([cat, n, off]) => ({
    id: newId(), term_id: termId, target_type: 'CATEGORY', listener_category: cat, required_count: n, unit: 'TIMES', min_offline: off, due_week: 16, create_by: 'system', create_time: TS,
  }))));
}

/** ~2,000 × scale records with index scores, and improvement tasks in every state. */
export async function seedLectureRecords(ctx: ServerContext, scale = 1, seed = 7) {
  const db = ctx.db;
  const rand = rng(seed * 7919);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const terms = await db.selectFrom('sup_term').select(['id', 'code', 'start_date', 'is_current']).orderBy('start_date').execute();
  const set = await db.selectFrom('sup_index_set').select('id').where('status', '=', 'PUBLISHED').where('lesson_kind', '=', 'THEORY').executeTakeFirst();
  if (!terms.length || !set) return;
  const leaves = (await db.selectFrom('sup_index').select(['id', 'name', 'max_score', 'parent_id']).where('set_id', '=', set.id).where('level', '=', 2).orderBy('code').execute())
    .map((l) => ({ id: String(l.id), name: String(l.name), max: Number(l.max_score) }));
  const listeners = (await sql<{ id: string; realname: string; org_code: string; listener_category: string; username: string }>`
    select id, realname, org_code, listener_category, username from sys_user where listener_category is not null and del_flag = 0 order by username`.execute(db)).rows;
  // Lessons in a stable order (ids are random), so one seed always makes the same records.
  const lines = (await sql<Record<string, unknown>>`
    select s.id, s.term_id, s.task_id, s.weekday, s.start_section, s.end_section, s.week_mask, s.classroom_id, r.name as room_name,
           k.teacher_id, k.course_id, k.course_name, k.class_names, k.student_count, u.realname as teacher_name, u.org_code as teacher_org
    from sup_course_schedule s join sup_course_task k on k.id = s.task_id join sys_user u on u.id = k.teacher_id
    join sup_term t on t.id = s.term_id left join sup_classroom r on r.id = s.classroom_id
    order by t.code, k.course_code, k.seq_no, s.weekday, s.start_section, s.id`.execute(db)).rows;
  if (!listeners.length || !lines.length) return;
  const quality = new Map<string, number>();
  const q = (t: string) => quality.get(t) ?? quality.set(t, 72 + rand() * 24).get(t)!;
  const perTerm = new Map<string, Record<string, unknown>[]>();
  for (const l of lines) (perTerm.get(String(l.term_id)) ?? perTerm.set(String(l.term_id), []).get(String(l.term_id))!).push(l);
  const existing = await db.selectFrom('sup_lecture_record').select(sql<string>`count(*)`.as('n')).executeTakeFirst();
  let no = Number(existing?.n ?? 0);
  const records: Record<string, unknown>[] = [];
  const scores: Record<string, unknown>[] = [];
  const logs: Record<string, unknown>[] = [];
  // Who returns a record: the secretary of the listener's college (else the quality office's supervisor).
  const secretaries = (await sql<{ id: string; realname: string; org_code: string }>`
    select u.id, u.realname, u.org_code from sys_user u join sys_user_role ur on ur.user_id = u.id join sys_role ro on ro.id = ur.role_id
    where ro.role_code in ('secretary', 'supervisor') and u.del_flag = 0 order by ro.role_code, u.username`.execute(db)).rows;
  const returner = (org: unknown) => secretaries.find((x) => String(x.org_code ?? '').slice(0, 6) === String(org ?? '').slice(0, 6)) ?? secretaries[secretaries.length - 1];
  // Keys already taken (a scale run adds to existing data): one record per listener, lesson and date.
  const seen = new Set<string>();
  if (no > 0)
    for (const r of (await sql<{ k: string }>`select listener_id || '|' || course_task_id || '|' || to_char(lecture_date, 'YYYY-MM-DD') as k from sup_lecture_record`.execute(db)).rows) seen.add(r.k);
  const target: Record<string, number> = { school_leader: 4, college_leader: 6, supervisor: 22, section_head: 6, teacher: 4, new_teacher: 8 };
  for (const term of terms) {
    const meta = TERMS.find((t) => t.code === term.code);
    const doneWeeks = meta?.doneWeeks ?? 16;
    const pool = perTerm.get(String(term.id)) ?? [];
    if (!pool.length) continue;
    for (const u of listeners) {
      const base = target[u.listener_category] ?? 3;
      const demoBoost = u.username === 'supervisor' ? 3 : u.username === 'teacher' ? 1.5 : 1;
      const n = Math.round((base * (0.6 + rand() * 0.7) * demoBoost * (meta?.current ? 0.8 : 1) + (u.listener_category === 'supervisor' ? 4 : 0)) * scale);
      for (let i = 0; i < n; i++) {
        const l = pick(pool);
        if (l.teacher_id === u.id) continue;
        const weeks = Array.from({ length: doneWeeks }, (_, w) => w + 1).filter((w) => (BigInt(String(l.week_mask)) >> BigInt(w - 1)) & 1n);
        if (!weeks.length) continue;
        const week = pick(weeks);
        const date = dateOf(String(term.start_date), week, Number(l.weekday));
        const key = `${u.id}|${l.task_id}|${date}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const id = newId();
        const quality = Math.min(99, Math.max(45, q(String(l.teacher_id)) + (rand() - 0.5) * 12));
        let total = 0;
        for (const leaf of leaves) {
          const s = Math.min(leaf.max, Math.max(0, Math.round(leaf.max * (quality / 100 + (rand() - 0.5) * 0.12) * 2) / 2));
          total += s;
          scores.push({ id: newId(), record_id: id, index_id: leaf.id, index_name: leaf.name, max_score: leaf.max, score: s, term_id: term.id, teacher_id: l.teacher_id, listener_id: u.id });
        }
        total = round2(total);
        const r = rand();
        const status = meta?.current ? (r < 0.08 ? 'DRAFT' : r < 0.12 ? 'RETURNED' : r < 0.55 ? 'SUBMITTED' : 'CONFIRMED') : r < 0.03 ? 'RETURNED' : 'ARCHIVED';
        const weak = total < 75;
        records.push({
          id, record_no: `${recordNoPrefix(String(term.code))}${String(++no).padStart(5, '0')}`, term_id: term.id, listener_id: u.id, listener_name: u.realname, listener_org_code: u.org_code,
          teacher_id: l.teacher_id, teacher_name: l.teacher_name, teacher_org_code: l.teacher_org, course_task_id: l.task_id, schedule_id: l.id, course_id: l.course_id,
          course_name: l.course_name, class_names: l.class_names, classroom_id: l.classroom_id, classroom_name: l.room_name, lecture_date: date, week, weekday: l.weekday,
          start_section: l.start_section, end_section: l.end_section, lecture_type: pick(['RANDOM', 'RANDOM', 'RANDOM', 'TRACK', 'GUIDE', 'SPECIAL']),
          mode: rand() < 0.15 ? 'ONLINE' : 'OFFLINE', expected_count: l.student_count, actual_count: Math.max(0, Number(l.student_count) - Math.floor(rand() * 5)),
          late_count: Math.floor(rand() * 3), index_set_id: set.id, total_score: total, grade: gradeOf(total).grade,
          strengths: pick(STRENGTHS), problems: weak ? pick(PROBLEMS) : rand() < 0.5 ? pick(PROBLEMS) : null, suggestions: pick(SUGGESTIONS), need_improve: weak && rand() < 0.5,
          status, submit_time: status === 'DRAFT' ? null : `${date} 18:00:00`, confirm_time: status === 'CONFIRMED' || status === 'ARCHIVED' ? `${date} 20:00:00` : null,
          return_reason: status === 'RETURNED' ? '评分与文字评价不一致，请核实后重新提交' : null, create_by: u.username, create_time: `${date} 17:00:00`,
        });
        // Its log: created and submitted by the listener, then returned by a secretary or confirmed by the teacher.
        const line = (action: string, from: string | null, to: string, who: { id: unknown; realname: unknown } | undefined, time: string, comment: string | null = null) =>
          logs.push({ id: newId(), record_id: id, action, from_status: from, to_status: to, operator_id: who?.id ?? null, operator_name: who?.realname ?? null, comment, action_time: time, seq: logs.length + 1 });
        line('CREATE', null, 'DRAFT', u, `${date} 17:00:00`);
        if (status !== 'DRAFT') line('SUBMIT', 'DRAFT', 'SUBMITTED', u, `${date} 18:00:00`);
        if (status === 'RETURNED') line('RETURN', 'SUBMITTED', 'RETURNED', returner(u.org_code), `${date} 19:00:00`, '评分与文字评价不一致，请核实后重新提交');
        if (status === 'CONFIRMED' || status === 'ARCHIVED') line('CONFIRM', 'SUBMITTED', 'CONFIRMED', { id: l.teacher_id, realname: l.teacher_name }, `${date} 20:00:00`);
      }
    }
  }
  await insertMany(db, 'sup_lecture_record', records, 300);
  await insertMany(db, 'sup_index_score', scores, 1000);
  await insertMany(db, 'sup_record_log', logs, 1000);
  await sql`insert into sup_counter (name, value) select 'TK' || replace(t.code, '-', ''), ${no} from sup_term t on conflict (name) do update set value = greatest(sup_counter.value, excluded.value)`.execute(db);
  await seedImprovement(db, records, Math.max(1, Math.round(scale)));
}

const STATUSES = ['DRAFT', 'ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'SUBMITTED', 'REJECTED', 'VERIFIED', 'CLOSED', 'CANCELLED'];

async function seedImprovement(db: DB, records: Record<string, unknown>[], scale: number) {
  // Who issues a college's tasks: its leader (else its secretary), and — for every third task, and for
  // colleges without either — the university's quality office (a supervisor of the quality centre).
  const staff = await db
    .selectFrom('sys_user as u').innerJoin('sys_user_role as ur', 'ur.user_id', 'u.id').innerJoin('sys_role as ro', 'ro.id', 'ur.role_id')
    .select(['u.id', 'u.username', 'u.realname', 'u.org_code', 'ro.role_code'])
    .where('ro.role_code', 'in', ['leader', 'secretary', 'supervisor']).where('u.del_flag', '=', 0)
    .orderBy('u.username').execute();
  const collegeOf = (org: unknown) => String(org ?? '').slice(0, 6);
  const quality = staff.find((u) => u.role_code === 'supervisor' && String(u.org_code ?? '').startsWith(QUALITY_CENTER)) ?? staff.find((u) => u.role_code === 'supervisor');
  const fallback = quality ?? staff[0] ?? (await db.selectFrom('sys_user').select(['id', 'username', 'realname']).orderBy('username').executeTakeFirst());
  if (!fallback) return;
  const issuerFor = (org: unknown, i: number) => {
    const own = ['leader', 'secretary'].map((code) => staff.find((u) => u.role_code === code && collegeOf(u.org_code) === collegeOf(org))).find(Boolean);
    return own && i % 3 !== 2 ? own : fallback;
  };
  // Records needing improvement, taken college by college in turn, so every college (the demo
  // leader's and secretary's included) has tasks in its scoped view.
  const byCollege = new Map<string, Record<string, unknown>[]>();
  for (const r of records.filter((x) => x.need_improve && x.status !== 'DRAFT')) {
    const c = String(r.teacher_org_code ?? '').slice(0, 6);
    (byCollege.get(c) ?? byCollege.set(c, []).get(c)!).push(r);
  }
  const queues = [...byCollege.keys()].sort().map((c) => byCollege.get(c)!);
  const flagged: Record<string, unknown>[] = [];
  for (let k = 0; queues.some((q) => k < q.length); k++) for (const q of queues) if (k < q.length) flagged.push(q[k]!);
  const departs = new Map((await db.selectFrom('sys_depart').select(['id', 'org_code']).execute()).map((d) => [String(d.org_code), String(d.id)]));
  const tasks: Record<string, unknown>[] = [];
  const subs: Record<string, unknown>[] = [];
  const logs: Record<string, unknown>[] = [];
  const base = await db.selectFrom('sup_counter').select('value').where('name', '=', 'ZG2026').executeTakeFirst();
  let no = Number(base?.value ?? 0);
  const count = Math.min(flagged.length, 27 * scale);
  for (let i = 0; i < count; i++) {
    const r = flagged[i]!;
    const issuer = issuerFor(r.teacher_org_code, i);
    const status = STATUSES[i % STATUSES.length]!;
    const id = newId();
    const overdue = i % 4 === 1;
    const deadline = overdue ? '2026-11-10' : '2026-12-20';
    tasks.push({
      id, task_no: `ZG2026${String(++no).padStart(5, '0')}`, title: `${String(r.teacher_name)}《${String(r.course_name)}》听课问题整改`, term_id: r.term_id, source: 'LECTURE', source_id: r.id,
      category: ['METHOD', 'CONTENT', 'EFFECT', 'ATTITUDE'][i % 4], severity: i % 9 === 0 ? 'SERIOUS' : 'NORMAL', description: r.problems ?? '课堂教学存在不足', requirement: r.suggestions,
      resp_depart_id: departs.get(String(r.teacher_org_code)) ?? null, resp_org_code: r.teacher_org_code, resp_person_id: r.teacher_id, issuer_id: issuer.id,
      issue_time: status === 'DRAFT' ? null : '2026-10-20 09:00:00', deadline, progress: ['VERIFIED', 'CLOSED', 'SUBMITTED'].includes(status) ? 100 : status === 'IN_PROGRESS' ? 50 : 0,
      status, create_by: issuer.username, create_time: '2026-10-19 16:00:00',
    });
    const path = STATUSES.slice(0, STATUSES.indexOf(status) + 1).filter((s) => s !== 'REJECTED' || status === 'REJECTED');
    if (status === 'CANCELLED') path.splice(0, path.length, 'DRAFT', 'ISSUED', 'CANCELLED');
    path.forEach((s, k) => logs.push({ id: newId(), target_type: 'task', target_id: id, action: k ? ({ ISSUED: 'ISSUE', ACCEPTED: 'ACCEPT', IN_PROGRESS: 'FEEDBACK', SUBMITTED: 'SUBMIT', REJECTED: 'REJECT', VERIFIED: 'VERIFY', CLOSED: 'CLOSE', CANCELLED: 'CANCEL' } as Record<string, string>)[s] : 'CREATE',
      from_status: k ? path[k - 1] : null, to_status: s, operator_id: issuer.id, operator_name: issuer.realname, comment: null, action_time: `2026-10-${String(19 + k).padStart(2, '0')} 10:00:00`, seq: k + 1 }));
    if (['IN_PROGRESS', 'SUBMITTED', 'REJECTED', 'VERIFIED', 'CLOSED'].includes(status))
      for (let k = 0; k < 2; k++)
        subs.push({ id: newId(), task_id: id, title: k ? '调整课件，精简文字' : '改进课堂互动设计', assignee_id: r.teacher_id, assignee_org_code: r.teacher_org_code, issuer_id: r.teacher_id,
          deadline: '2026-12-10', measures: '制定改进方案并在后续课堂落实', status: status === 'IN_PROGRESS' ? (k ? 'ACCEPTED' : 'SUBMITTED') : 'VERIFIED', create_by: 'system', create_time: '2026-10-21 10:00:00' });
  }
  await insertMany(db, 'imp_task', tasks);
  await insertMany(db, 'imp_subtask', subs);
  await insertMany(db, 'imp_action_log', logs, 1000);
  await sql`insert into sup_counter (name, value) values ('ZG2026', ${no}) on conflict (name) do update set value = greatest(sup_counter.value, excluded.value)`.execute(db);
}

export const lectureSeedSteps = [
  { name: 'lecture-base', demo: true, run: seedLectureBase },
  { name: 'lecture-records', demo: true, run: (ctx: ServerContext) => seedLectureRecords(ctx) },
];

/**
 * Bulk generator for benchmarks (`npm run seed -- --scale N`): about N × 2,000 more lecture records
 * with index scores, spread over listeners, schedule lines and the taught weeks of every term, in
 * set-based SQL (generate_series) so a million records on PostgreSQL take minutes. Scores follow a
 * per-record quality drawn from the record id, so records and their index scores agree.
 */
export async function bulkLectureRecords(db: DB, scale: number): Promise<number> {
  const set = await db.selectFrom('sup_index_set').select('id').where('status', '=', 'PUBLISHED').where('lesson_kind', '=', 'THEORY').executeTakeFirst();
  if (!set) return 0;
  let added = 0;
  const terms = await db.selectFrom('sup_term').select(['id', 'code', 'start_date', 'is_current']).execute();
  for (const term of terms) {
    const doneWeeks = term.is_current ? 11 : 18;
    const n = Math.round(1000 * scale);
    const prefix = recordNoPrefix(String(term.code));
    const base = Number((await sql<{ v: string }>`select coalesce((select value from sup_counter where name = ${prefix}), 0) as v`.execute(db)).rows[0]!.v);
    // q in [0.6, 0.99): the share of each index's maximum this record scores.
    const qOf = (idRef: ReturnType<typeof sql.ref>) => sql`(0.6 + ((('x' || substr(${idRef}, 1, 8))::bit(32)::int & 65535) / 65535.0) * 0.39)`;
    const q = qOf(sql.ref('r.id'));
    const total = sql`(select sum(least(i.max_score, round(i.max_score * ${q} * 2) / 2)) from sup_index i where i.set_id = ${set.id} and i.level = 2)`;
    const res = await sql`
      with l as (select array_agg(id order by id) as ids from sys_user where listener_category is not null and del_flag = 0),
           s as (select array_agg(id order by id) as ids from sup_course_schedule where term_id = ${term.id}),
           picks as (
             select g, l.ids[1 + floor(random() * array_length(l.ids, 1))::int] as listener_id,
                    s.ids[1 + floor(random() * array_length(s.ids, 1))::int] as line_id,
                    1 + floor(random() * ${doneWeeks})::int as week, random() as rnd
             from generate_series(1, ${n}) g, l, s where array_length(l.ids, 1) > 0 and array_length(s.ids, 1) > 0),
           rows as (
             select md5(p.g::text || clock_timestamp()::text || random()::text) as id, p.*, sl.task_id, sl.weekday, sl.start_section, sl.end_section, sl.classroom_id,
                    (date_trunc('week', ${term.start_date}::date) + ((p.week - 1) * 7 + sl.weekday - 1) * interval '1 day')::date as lecture_date
             from picks p join sup_course_schedule sl on sl.id = p.line_id)
      insert into sup_lecture_record (id, record_no, term_id, listener_id, listener_name, listener_org_code, teacher_id, teacher_name, teacher_org_code,
        course_task_id, schedule_id, course_id, course_name, class_names, classroom_id, classroom_name, lecture_date, week, weekday, start_section, end_section,
        lecture_type, mode, expected_count, actual_count, late_count, index_set_id, total_score, strengths, suggestions, need_improve, status, submit_time, create_by, create_time)
      select r.id, ${prefix} || lpad((${base} + r.g)::text, greatest(5, length((${base} + r.g)::text)), '0'), ${term.id}, r.listener_id, lu.realname, lu.org_code, k.teacher_id, tu.realname, tu.org_code,
        r.task_id, r.line_id, k.course_id, k.course_name, k.class_names, r.classroom_id, room.name, r.lecture_date, r.week, r.weekday, r.start_section, r.end_section,
        (array['RANDOM','RANDOM','TRACK','GUIDE'])[1 + floor(r.rnd * 4)::int], case when r.rnd < 0.15 then 'ONLINE' else 'OFFLINE' end,
        k.student_count, k.student_count, 0, ${set.id}, ${total}, ${STRENGTHS[0]}, ${SUGGESTIONS[0]}, false,
        case when ${term.is_current} then (array['SUBMITTED','CONFIRMED','CONFIRMED','DRAFT'])[1 + floor(r.rnd * 4)::int] else 'ARCHIVED' end,
        r.lecture_date + time '18:00', lu.username, r.lecture_date + time '17:00'
      from rows r
      join sup_course_task k on k.id = r.task_id
      join sys_user lu on lu.id = r.listener_id
      join sys_user tu on tu.id = k.teacher_id
      left join sup_classroom room on room.id = r.classroom_id
      where k.teacher_id <> r.listener_id
      on conflict do nothing`.execute(db);
    const inserted = Number(res.numAffectedRows ?? 0);
    added += inserted;
    await sql`insert into sup_counter (name, value) values (${prefix}, ${base + n}) on conflict (name) do update set value = greatest(sup_counter.value, excluded.value)`.execute(db);
    // Scores of the new records (those without scores yet), with the same quality as their total; then grades.
    await sql`
      insert into sup_index_score (id, record_id, index_id, index_name, max_score, score, term_id, teacher_id, listener_id)
      select md5(r.id || i.id), r.id, i.id, i.name, i.max_score, least(i.max_score, round(i.max_score * ${q} * 2) / 2), r.term_id, r.teacher_id, r.listener_id
      from sup_lecture_record r
      join sup_index i on i.set_id = r.index_set_id and i.level = 2
      where r.term_id = ${term.id} and r.grade is null and r.total_score is not null`.execute(db);
    await sql`
      update sup_lecture_record r set
        grade = case when total_score >= 90 then 'EXCELLENT' when total_score >= 80 then 'GOOD' when total_score >= 70 then 'MEDIUM' when total_score >= 60 then 'PASS' else 'FAIL' end
      where r.term_id = ${term.id} and r.grade is null and r.total_score is not null`.execute(db);
  }
  return added;
}
