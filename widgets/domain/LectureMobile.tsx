import { memo, startTransition, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Input, Modal, Result, Spin, Tag } from 'antd';
import type { AxiosRequestConfig } from 'axios';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { http, type Envelope } from '@core/http/client';
import { firstList, firstListDone, knownFirstList } from '@core/session/prefetch';
import { widgetLoadOf } from '@shared/list-request';
import type { PageSchema } from '@shared/page-schema';
import { userInfoAtom } from '@core/session/store';
import { changed, loadDraft, newClientKey, recall, remember, removeDraft, storeDraft, synced, type LocalDraft } from '@core/offline/drafts';
import { gradeOf, round2, scoreMessage, scoreProblem, scoreProblems, type GradeBand, type LessonToday } from '@shared/rules';
import type { IndexSystem } from './IndexScoreForm';
import './LectureMobile.css';

interface ScanAnswer {
  room: { id: string; name: string } | null;
  date: string;
  time: string;
  week: number;
  current: LessonToday | null;
  today: LessonToday[];
  /** The current lesson's index form. */
  system?: IndexSystem | null;
  /** The caller's draft record of the current lesson (as queryById answers it), if any. */
  record?: Record<string, unknown> | null;
}
/** What the phone form edits (and the draft keeps). */
export interface MobileValues {
  scores: Record<string, string>;
  actualCount: string;
  lateCount: string;
  topic: string;
  strengths: string;
  problems: string;
  suggestions: string;
}
const EMPTY: MobileValues = { scores: {}, actualCount: '', lateCount: '', topic: '', strengths: '', problems: '', suggestions: '' };
const EDITABLE = ['DRAFT', 'RETURNED'];
const GRADE_COLOR: Record<string, string> = { EXCELLENT: 'green', GOOD: 'cyan', MEDIUM: 'blue', PASS: 'orange', FAIL: 'red' };
const quiet = { quiet: true } as AxiosRequestConfig;
const SYNC_DELAY = 800;

type Sync = 'local' | 'syncing' | 'synced' | 'error';

/** Score text → what is sent: only numbers within 0…max go to the server; the rest stay on the phone with their message. */
function scoreList(system: IndexSystem, scores: Record<string, string>) {
  const leaves = new Set(system.leafIds);
  return Object.entries(scores)
    .filter(([id, t]) => leaves.has(id) && t.trim() !== '')
    .map(([indexId, t]) => ({ indexId, score: Number(t.trim()) }))
    .filter((s) => Number.isFinite(s.score) && !scoreProblem({ name: '', maxScore: system.indexes.find((i) => i.id === s.indexId)?.maxScore ?? 0 }, s.score));
}

/** Running total, scored count and the grade once every index is scored. */
export function mobileSummary(system: Pick<IndexSystem, 'indexes' | 'leafIds' | 'gradeBands'>, scores: Record<string, string>) {
  const list = scoreList(system as IndexSystem, scores);
  const total = round2(list.reduce((a, s) => a + s.score, 0));
  const complete = list.length === system.leafIds.length;
  const grade: GradeBand | undefined = complete && system.gradeBands.length ? gradeOf(total, system.gradeBands) : undefined;
  return { total, scored: list.length, leaves: system.leafIds.length, grade };
}

const body = (system: IndexSystem, lesson: LessonToday, v: MobileValues) => ({
  courseTaskId: lesson.courseTaskId,
  scheduleId: lesson.scheduleId,
  lectureDate: lesson.lectureDate,
  indexScoreList: scoreList(system, v.scores),
  actualCount: v.actualCount.trim() === '' ? null : Number(v.actualCount),
  lateCount: v.lateCount.trim() === '' ? null : Number(v.lateCount),
  topic: v.topic || null,
  strengths: v.strengths || null,
  problems: v.problems || null,
  suggestions: v.suggestions || null,
});

/**
 * 扫码听课 / 听课 on a phone (page schema lecture/Scan): the lesson on now in the scanned room
 * (`?room=`) or the one chosen in 今日听课 (`?scheduleId=&date=`), scored index by index with the running
 * total and grade in a sticky bar. Every change is kept in the browser first (core/offline/drafts) and
 * synced to the server when online — 未同步 / 已同步 — with a client key the server keeps unique, then 提交.
 */
export function LectureMobile({ pageId, schema }: { pageId?: string; schema?: PageSchema }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const user = useAtomValue(userInfoAtom);
  const room = params.get('room') ?? '';
  const scheduleId = params.get('scheduleId') ?? '';
  const date = params.get('date') ?? '';
  const query = room ? { room } : { scheduleId, date };
  const queryKey = room ? `scan:room:${room}` : `scan:${scheduleId}:${date}`;
  // A direct visit has the answer with the page's route (the schema's `widgetLoad`): drawn in the first render.
  const { search } = useLocation();
  const early = pageId && schema?.widgetLoad ? { pageId, search, ...widgetLoadOf(schema.widgetLoad, search) } : undefined;
  const [scan, setScan] = useState<ScanAnswer | undefined>(() => {
    const known = early && (knownFirstList(early.pageId, early.search, early.url, early.params) as Envelope<ScanAnswer> | undefined);
    return known?.success ? remember(queryKey, known.result) : undefined;
  });
  const [error, setError] = useState<string>();

  const asked = useRef(false);
  useEffect(() => {
    let live = true;
    // Another code or lesson opened in place: its answer replaces the last one.
    if (asked.current) setScan(undefined);
    asked.current = true;
    const ask = () => http.get<ScanAnswer>('/supervisor/lectureRecord/scan', query, quiet);
    const first = early ? firstList(early.pageId, early.search, early.url, early.params, ask).then((r) => (r as Envelope<ScanAnswer> | undefined) ?? ask()) : ask();
    if (early) firstListDone(early.pageId, early.search);
    setError(undefined);
    first
      .then((r) => {
        if (!live) return;
        if (r.success) setScan(remember(queryKey, r.result));
        else setError(r.message);
      })
      .catch(() => {
        if (!live) return;
        // Offline: the last answer for this code, if this phone has one.
        const last = recall<ScanAnswer>(queryKey);
        if (last) setScan(last);
        else setError('网络不可用，无法读取课表。请恢复网络后重试。');
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryKey]);

  if (error) return <Result status="warning" title={error} extra={<Button onClick={() => navigate('/supervisor/lectureToday')}>查看今日听课</Button>} />;
  if (!scan) return <Spin className="lecture-mobile-spin" tip="正在读取课表…"><div style={{ height: 120 }} /></Spin>;
  if (!scan.current) return <NoLessonNow scan={scan} />;
  return <Scoring key={`${scan.current.scheduleId}:${scan.current.lectureDate}`} lesson={scan.current} given={scan.system ?? undefined} givenRecord={scan.record ?? undefined} userId={user?.id ?? ''} />;
}

function LessonTimes({ l }: { l: LessonToday }) {
  return (
    <span>
      {l.sectionsText}
      {l.beginTime ? `（${l.beginTime}–${l.endTime ?? ''}）` : ''}
    </span>
  );
}

/** No lesson on now: the room's lessons still to come today, each can be opened. */
function NoLessonNow({ scan }: { scan: ScanAnswer }) {
  const navigate = useNavigate();
  const next = scan.today.filter((l) => l.state === 'NEXT');
  return (
    <div className="lecture-mobile" data-testid="lecture-no-lesson">
      <Result
        status="info"
        title={`${scan.room?.name ?? '该教室'}现在没有课`}
        subTitle={next.length ? `今天（${scan.date}）该教室接下来的课程如下，可在上课后扫码或直接开始听课。` : `今天（${scan.date}）该教室已没有其他课程。`}
      />
      {next.map((l) => (
        <div key={l.scheduleId} className="lm-lesson-card">
          <div className="lm-lesson-title">{l.courseName}</div>
          <div className="lm-lesson-meta">
            <LessonTimes l={l} /> · {l.teacherName}
          </div>
          <Button block className="lm-touch" onClick={() => navigate(`/lecture/scan?scheduleId=${encodeURIComponent(l.scheduleId)}&date=${l.lectureDate}`)}>
            开始听课
          </Button>
        </div>
      ))}
      <Button block type="link" className="lm-touch" onClick={() => navigate('/supervisor/lectureToday')}>
        查看今日全部课程
      </Button>
    </div>
  );
}

type Leaf = IndexSystem['indexes'][number];

/**
 * A value outside React state that the parts showing it subscribe to: the scores being typed (a score typed
 * redraws its own row and the bar, not the whole form — issue 30 bench: score → total ≤ 50 ms at 4× CPU; the
 * draft ref stays the truth) and the sync state (已同步 → 未同步 on the first score typed redraws the head only).
 */
interface Store<T> {
  value: T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}
function valueStore<T>(value: T): Store<T> {
  const listeners = new Set<() => void>();
  const store: Store<T> = {
    value,
    set(next) {
      if (Object.is(next, store.value)) return;
      store.value = next;
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}
type ScoreStore = Store<Record<string, string>>;

/** One index: its name and maximum, the score box (number keypad; Enter → the next unscored one) and its problem. Redrawn only when its own score changes. */
const ScoreItem = memo(function ScoreItem({ leaf: l, store, onEdit, register, onNext }: { leaf: Leaf; store: ScoreStore; onEdit: (id: string, text: string) => void; register: (id: string, el: HTMLInputElement | null) => void; onNext: (id: string) => void }) {
  const text = useSyncExternalStore(store.subscribe, () => store.value[l.id] ?? '');
  const problem = scoreProblem(l, text.trim() === '' ? null : text);
  return (
    <div className={`lm-item${problem ? ' lm-item-error' : ''}`} data-testid="lm-item">
      <div className="lm-item-text">
        <div className="lm-item-name">{l.name}</div>
        <div className="lm-item-max">满分 {l.maxScore}</div>
        {problem && <div className="lm-item-problem">{problem.replace(`指标“${l.name}”的`, '')}</div>}
      </div>
      <input
        ref={(el) => register(l.id, el)}
        className="lm-score"
        aria-label={`${l.name}得分`}
        aria-invalid={!!problem}
        inputMode="decimal"
        enterKeyHint="next"
        autoComplete="off"
        placeholder={`0–${l.maxScore}`}
        value={text}
        onChange={(e) => onEdit(l.id, e.target.value.replace(/[^\d.]/g, ''))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onNext(l.id);
          }
        }}
      />
    </div>
  );
});

type Edit = (patch: Partial<MobileValues>) => void;

/*
 * The parts of the form a score does not touch, each redrawn only when its own values change: a score typed
 * redraws its own row, the bar and nothing else (antd's inputs and auto-sized text areas are the costly part
 * of a redraw on a slow phone; issue 30 bench, score → total ≤ 50 ms at 4× CPU).
 */
const Counts = memo(function Counts({ actualCount, lateCount, topic, edit }: { actualCount: string; lateCount: string; topic: string; edit: Edit }) {
  return (
    <section className="lm-section">
      <div className="lm-counts">
        <label>
          <span>实到人数</span>
          <Input inputMode="numeric" aria-label="实到人数" value={actualCount} onChange={(e) => edit({ actualCount: e.target.value.replace(/\D/g, '') })} />
        </label>
        <label>
          <span>迟到人数</span>
          <Input inputMode="numeric" aria-label="迟到人数" value={lateCount} onChange={(e) => edit({ lateCount: e.target.value.replace(/\D/g, '') })} />
        </label>
      </div>
      <label className="lm-block">
        <span>授课内容</span>
        <Input aria-label="授课内容" value={topic} maxLength={500} onChange={(e) => edit({ topic: e.target.value })} />
      </label>
    </section>
  );
});

const REMARKS = [
  ['strengths', '优点'],
  ['problems', '存在问题'],
  ['suggestions', '改进建议'],
] as const;

const Remarks = memo(function Remarks({ edit, submitError, ...v }: { strengths: string; problems: string; suggestions: string; edit: Edit; submitError?: string }) {
  return (
    <section className="lm-section">
      {REMARKS.map(([k, label]) => (
        <label key={k} className="lm-block">
          <span>{label}</span>
          <Input.TextArea aria-label={label} autoSize={{ minRows: 2, maxRows: 8 }} value={v[k]} maxLength={2000} onChange={(e) => edit({ [k]: e.target.value })} />
        </label>
      ))}
      {submitError && <Alert className="lm-alert" type="error" showIcon message={submitError} data-testid="lm-submit-error" />}
    </section>
  );
});

const BarActions = memo(function BarActions({ submitting, onNext, onSubmit }: { submitting: boolean; onNext: () => void; onSubmit: () => void }) {
  return (
    <div className="lm-bar-actions">
      <Button className="lm-touch" onClick={onNext}>
        下一项
      </Button>
      <Button className="lm-touch" type="primary" loading={submitting} onClick={onSubmit}>
        提交
      </Button>
    </div>
  );
});

/** A record as the server answers it (queryById) → the draft the form edits. */
function draftOf(rec: Record<string, unknown>, id: string): LocalDraft<MobileValues> {
  const s = (k: string) => (rec[k] === null || rec[k] === undefined ? '' : String(rec[k]));
  const scores: Record<string, string> = {};
  for (const x of (rec.indexScoreList as Array<{ indexId: string; score: number }>) ?? []) scores[x.indexId] = String(x.score);
  return {
    clientKey: s('clientKey') || newClientKey(), recordId: id, rev: 0, dirty: false, changedAt: Date.now(),
    values: { scores, actualCount: s('actualCount'), lateCount: s('lateCount'), topic: s('topic'), strengths: s('strengths'), problems: s('problems'), suggestions: s('suggestions') },
  };
}

/**
 * Where the form starts, known in its first render when it can be (no spinner drawn first): the draft kept on this
 * phone, else the server's draft record that came with the lesson, else a new one; `locked` for a record already
 * submitted; nothing when the server's record must be asked for.
 */
function startOf(draftKey: string, lesson: LessonToday, givenRecord?: Record<string, unknown>): { draft?: LocalDraft<MobileValues>; sync: Sync; locked?: string } {
  const local = loadDraft<MobileValues>(draftKey);
  if (local) return { draft: local, sync: local.dirty ? 'local' : 'synced' };
  if (!lesson.myRecordId) return { draft: { clientKey: newClientKey(), values: EMPTY, dirty: false, rev: 0, changedAt: Date.now() }, sync: 'synced' };
  if (lesson.myStatus && !EDITABLE.includes(lesson.myStatus)) return { sync: 'local', locked: '该课次的听课记录已提交，不能再修改。' };
  if (givenRecord && givenRecord.id === lesson.myRecordId) return { draft: draftOf(givenRecord, lesson.myRecordId), sync: 'synced' };
  return { sync: 'local' };
}

/** The lesson and the sync state: redrawn when those change, not on every score typed. */
const Head = memo(function Head({ lesson, syncStore, syncError, online }: { lesson: LessonToday; syncStore: Store<Sync>; syncError?: string; online: boolean }) {
  const sync = useSyncExternalStore(syncStore.subscribe, () => syncStore.value);
  return (
    <section className="lm-head">
      <div className="lm-head-row">
        <h2 className="lm-course">{lesson.courseName}</h2>
        {sync === 'synced' ? (
          <Tag color="success" data-testid="sync-state">已同步</Tag>
        ) : sync === 'syncing' ? (
          <Tag color="processing" data-testid="sync-state">同步中…</Tag>
        ) : (
          <Tag color={sync === 'error' ? 'error' : 'warning'} data-testid="sync-state">未同步</Tag>
        )}
      </div>
      <div className="lm-lesson-meta">
        {lesson.teacherName} · {lesson.classroomName ?? '—'} · <LessonTimes l={lesson} />
      </div>
      <div className="lm-lesson-meta">
        {lesson.lectureDate} 第{lesson.week}周{lesson.classNames ? ` · ${lesson.classNames}` : ''}
      </div>
      {!online && <Alert className="lm-alert" type="warning" showIcon message="网络已断开：评分保存在本机（未同步），恢复网络后自动同步。" />}
      {sync === 'error' && syncError && <Alert className="lm-alert" type="error" showIcon message={`同步失败：${syncError}`} />}
    </section>
  );
});

/** The sticky bar: the running total, the grade once complete, 下一项 and 提交 — what a score typed redraws, with its own row. */
const Bar = memo(function Bar({ system, store, submitting, onNext, onSubmit }: { system: IndexSystem; store: ScoreStore; submitting: boolean; onNext: () => void; onSubmit: () => void }) {
  const scores = useSyncExternalStore(store.subscribe, () => store.value);
  const { total, scored, leaves, grade: band } = useMemo(() => mobileSummary(system, scores), [system, scores]);
  const grade = band?.grade;
  const gradeLabel = band?.label;
  return (
    <footer className="lm-bar" data-testid="score-bar">
      <div className="lm-bar-figures">
        <div className="lm-bar-total">
          总分 <b data-testid="score-total">{total}</b>
          {grade ? (
            <Tag color={GRADE_COLOR[grade]} data-testid="score-grade">
              {gradeLabel}
            </Tag>
          ) : null}
        </div>
        <div className="lm-bar-hint">
          已评 {scored}/{leaves}
          {grade ? '' : ' · 评完显示等级'}
        </div>
      </div>
      <BarActions submitting={submitting} onNext={onNext} onSubmit={onSubmit} />
    </footer>
  );
});

function Scoring({ lesson, userId, given, givenRecord }: { lesson: LessonToday; userId: string; given?: IndexSystem; givenRecord?: Record<string, unknown> }) {
  const navigate = useNavigate();
  const draftKey = `lecture:${userId}:${lesson.scheduleId}:${lesson.lectureDate}`;
  const [start] = useState(() => startOf(draftKey, lesson, givenRecord));
  const [system, setSystem] = useState<IndexSystem | undefined>(given);
  const [draft, setDraftState] = useState<LocalDraft<MobileValues> | undefined>(start.draft);
  const draftRef = useRef<LocalDraft<MobileValues> | undefined>(start.draft);
  const [store] = useState<ScoreStore>(() => valueStore(start.draft?.values.scores ?? {}));
  const [syncStore] = useState(() => valueStore<Sync>(start.sync));
  const setSync = syncStore.set;
  const [syncError, setSyncError] = useState<string>();
  const [online, setOnline] = useState(() => navigator.onLine);
  const [done, setDone] = useState<{ recordNo?: string }>();
  const locked = start.locked;
  const [submitError, setSubmitError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef(new Map<string, HTMLInputElement>());
  // The remarks (three auto-sized text areas, below the scores: off screen on a phone) are drawn right after the
  // form's first paint, not in it: the score boxes can be used ~0.1 s sooner on a slow phone (issue 30 bench).
  const [remarksShown, setRemarksShown] = useState(false);
  useEffect(() => startTransition(() => setRemarksShown(true)), []);

  // The draft is written to storage right after the screen has updated (a keystroke paints first; a
  // closed tab still runs the pending write), at most once per burst of changes.
  const pendingWrite = useRef<ReturnType<typeof setTimeout>>();
  /** Keeps the draft (ref, store, storage soon); `redraw` false: a score typed, which only its row and the bar show. */
  const setDraft = useCallback(
    (d: LocalDraft<MobileValues>, redraw = true) => {
      draftRef.current = d;
      store.set(d.values.scores);
      if (redraw) setDraftState(d);
      if (pendingWrite.current === undefined)
        pendingWrite.current = setTimeout(() => {
          pendingWrite.current = undefined;
          if (draftRef.current) storeDraft(draftKey, draftRef.current);
        }, 0);
    },
    [draftKey, store],
  );
  useEffect(
    () => () => {
      if (pendingWrite.current !== undefined && draftRef.current) storeDraft(draftKey, draftRef.current);
      clearTimeout(pendingWrite.current);
    },
    [draftKey],
  );

  // The index system (kept on the phone for a reload without network) and the draft: local first, else the server's record.
  useEffect(() => {
    let live = true;
    const sysKey = `form:${lesson.courseTaskId}`;
    if (given) remember(sysKey, given);
    else
      void http
      .get<IndexSystem>('/supervisor/lectureRecord/form', { courseTaskId: lesson.courseTaskId }, quiet)
      .then((r) => live && (r.success ? setSystem(remember(sysKey, r.result)) : setSubmitError(r.message)))
      .catch(() => {
        const last = recall<IndexSystem>(sysKey);
        if (live && last) setSystem(last);
        else if (live) setSubmitError('网络不可用，且本机没有该课程的评价指标，请恢复网络后重试。');
      });
    // A draft not yet on the phone (new, or the server's) is kept there at once; a server record not at hand is asked for.
    if (start.draft && !loadDraft(draftKey)) setDraft(start.draft);
    else if (!start.draft && !start.locked && lesson.myRecordId)
      void http.get<Record<string, unknown>>('/supervisor/lectureRecord/queryById', { id: lesson.myRecordId }, quiet).then((r) => {
        if (!live || !r.success) return;
        setDraft(draftOf(r.result, lesson.myRecordId!));
        setSync('synced');
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftKey]);

  /** Saves the draft to the server (add with the client key, then edit), when online. Resolves true when clean. */
  const flying = useRef<Promise<boolean>>();
  const syncNow = useCallback(async (): Promise<boolean> => {
    if (flying.current) await flying.current;
    const d = draftRef.current;
    if (!d || !system) return false;
    if (!d.dirty) return true;
    if (!navigator.onLine) {
      setSync('local');
      return false;
    }
    const run = (async () => {
      setSync('syncing');
      const payload = body(system, lesson, d.values);
      try {
        const r = d.recordId
          ? await http.put<Record<string, unknown>>('/supervisor/lectureRecord/edit', { ...payload, id: d.recordId }, quiet)
          : await http.post<Record<string, unknown>>('/supervisor/lectureRecord/add', { ...payload, clientKey: d.clientKey }, quiet);
        if (!r.success) {
          setSync('error');
          setSyncError(r.message);
          return false;
        }
        const next = synced(draftRef.current!, d.rev, String(r.result.id));
        setDraft(next);
        setSyncError(undefined);
        setSync(next.dirty ? 'local' : 'synced');
        return !next.dirty;
      } catch {
        setSync('local');
        return false;
      }
    })();
    flying.current = run;
    try {
      return await run;
    } finally {
      flying.current = undefined;
    }
  }, [system, lesson, setDraft, setSync]);

  // Network comes and goes: sync on its return.
  useEffect(() => {
    const up = () => {
      setOnline(true);
      void syncNow();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, [syncNow]);
  // A draft left dirty (a reload, or the tab closed offline) syncs as soon as the index system is here.
  useEffect(() => {
    if (system && draftRef.current?.dirty) void syncNow();
  }, [system, syncNow]);

  const timer = useRef<ReturnType<typeof setTimeout>>();
  const syncRef = useRef(syncNow);
  syncRef.current = syncNow;
  const edit = useCallback(
    (patch: Partial<MobileValues> | ((v: MobileValues) => Partial<MobileValues>), redraw = true) => {
      const d = draftRef.current;
      if (!d) return;
      setDraft(changed(d, { ...d.values, ...(typeof patch === 'function' ? patch(d.values) : patch) }), redraw);
      setSync('local');
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void syncRef.current(), SYNC_DELAY);
    },
    [setDraft, setSync],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  const editScore = useCallback((id: string, text: string) => edit((v) => ({ scores: { ...v.scores, [id]: text } }), false), [edit]);
  const register = useCallback((id: string, el: HTMLInputElement | null) => {
    if (el) inputs.current.set(id, el);
    else inputs.current.delete(id);
  }, []);
  const focusNextRef = useRef<(from?: string) => void>(() => undefined);
  const onNext = useCallback((id: string) => focusNextRef.current(id), []);
  const onNextFree = useCallback(() => focusNextRef.current(), []);
  const submitRef = useRef<() => Promise<void>>(async () => undefined);
  const onSubmit = useCallback(() => void submitRef.current(), []);

  const leaves = useMemo(() => (system ? system.indexes.filter((i) => system.leafIds.includes(i.id)) : []), [system]);
  const groups = useMemo(() => {
    if (!system) return [];
    const roots = system.indexes.filter((i) => !i.parentId);
    return roots.map((r) => ({ root: r, items: leaves.filter((l) => l.parentId === r.id || l.id === r.id) }));
  }, [system, leaves]);

  if (locked)
    return <Result status="info" title={locked} extra={<Button className="lm-touch" onClick={() => navigate('/supervisor/lectureRecord')}>查看我的听课记录</Button>} />;
  if (done)
    return (
      <Result
        status="success"
        title="已提交"
        subTitle={`听课记录${done.recordNo ? ` ${done.recordNo}` : ''}已提交，授课教师会收到通知。`}
        extra={[
          <Button key="list" type="primary" className="lm-touch" onClick={() => navigate('/supervisor/lectureRecord')}>
            查看我的听课记录
          </Button>,
          <Button key="today" className="lm-touch" onClick={() => navigate('/supervisor/lectureToday')}>
            今日听课
          </Button>,
        ]}
      />
    );
  if (!system || !draft) return submitError ? <Result status="warning" title={submitError} /> : <Spin className="lecture-mobile-spin" />;

  const v = draft.values;
  focusNextRef.current = (from?: string) => {
    const order = groups.flatMap((g) => g.items.map((l) => l.id)); // as shown
    const start = from ? order.indexOf(from) + 1 : 0;
    const nextId = [...order.slice(start), ...order.slice(0, start)].find((id) => !(store.value[id] ?? '').trim()) ?? order[start];
    const el = nextId ? inputs.current.get(nextId) : undefined;
    el?.focus();
    el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };

  submitRef.current = submit;
  async function submit() {
    setSubmitError(undefined);
    const problems = scoreProblems(leaves, Object.entries(store.value).map(([indexId, score]) => ({ indexId, score: score.trim() === '' ? null : score })), true);
    const msg = scoreMessage(problems);
    if (msg) {
      setSubmitError(msg);
      const first = problems.invalid.keys().next().value ?? problems.missing[0]?.id;
      if (first) inputs.current.get(first)?.focus();
      return;
    }
    if (!navigator.onLine) {
      setSubmitError('网络不可用：记录已保存在本机，恢复网络后再提交。');
      return;
    }
    const ok = await new Promise<boolean>((resolve) =>
      Modal.confirm({ title: '提交听课记录', content: '提交后将通知授课教师，且不能再修改。确定提交吗？', okText: '提交', cancelText: '取消', onOk: () => resolve(true), onCancel: () => resolve(false) }),
    );
    if (!ok) return;
    setSubmitting(true);
    try {
      if (!(await syncNow())) {
        setSubmitError(syncError ?? '记录尚未同步到服务器，请稍后再试。');
        return;
      }
      const r = await http.post<Record<string, unknown>>(`/supervisor/lectureRecord/submit?id=${encodeURIComponent(draftRef.current!.recordId!)}`, {}, quiet);
      if (!r.success) {
        setSubmitError(r.message);
        return;
      }
      removeDraft(draftKey);
      setDone({ recordNo: r.result?.recordNo as string | undefined });
    } catch {
      setSubmitError('网络不可用：记录已保存在本机，恢复网络后再提交。');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="lecture-mobile" data-testid="lecture-mobile">
      <Head lesson={lesson} syncStore={syncStore} syncError={syncError} online={online} />

      <Counts actualCount={v.actualCount} lateCount={v.lateCount} topic={v.topic} edit={edit} />

      <div className="lm-system">
        {system.name}（满分 {system.fullScore}）
      </div>
      {groups.map(({ root, items }) => (
        <section key={root.id} className="lm-section">
          {items.length > 1 || items[0]?.id !== root.id ? <h3 className="lm-group">{root.name}</h3> : null}
          {items.map((l) => (
            <ScoreItem key={l.id} leaf={l} store={store} onEdit={editScore} register={register} onNext={onNext} />
          ))}
        </section>
      ))}

      {remarksShown && <Remarks strengths={v.strengths} problems={v.problems} suggestions={v.suggestions} edit={edit} submitError={submitError} />}

      <Bar system={system} store={store} submitting={submitting} onNext={onNextFree} onSubmit={onSubmit} />
    </div>
  );
}

