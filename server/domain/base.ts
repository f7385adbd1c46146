import type { DB } from '../db/index.js';
import { BizError } from '../http/envelope.js';
import { DEFAULT_GRADE_BANDS, leavesOf, type GradeBand, type IndexNode } from '../../shared/rules.js';

export interface TermRow {
  id: string;
  code: string;
  name: string;
  startDate: string;
  weekCount: number;
}

const termCols = ['id', 'code', 'name', 'start_date', 'week_count'] as const;
const toTerm = (r: Record<string, unknown>): TermRow => ({
  id: String(r.id), code: String(r.code), name: String(r.name), startDate: String(r.start_date), weekCount: Number(r.week_count ?? 18),
});

export async function getTerm(db: DB, id: string): Promise<TermRow> {
  const r = await db.selectFrom('sup_term').select([...termCols]).where('id', '=', id).executeTakeFirst();
  if (!r) throw new BizError('学期不存在');
  return toTerm(r);
}

/** The current term (exactly one is flagged), or null before any term exists. */
export async function currentTerm(db: DB): Promise<TermRow | null> {
  const r = await db.selectFrom('sup_term').select([...termCols]).where('is_current', '=', true).executeTakeFirst();
  return r ? toTerm(r) : null;
}

/** The term a request is about: the given id, else the current term. */
export async function termOrCurrent(db: DB, termId: unknown): Promise<TermRow> {
  if (typeof termId === 'string' && termId) return getTerm(db, termId);
  const t = await currentTerm(db);
  if (!t) throw new BizError('尚未设置当前学期');
  return t;
}

export interface IndexSet {
  id: string;
  name: string;
  fullScore: number;
  bands: GradeBand[];
  indexes: (IndexNode & { code: string | null; description: string | null; weight: number | null; sort: number })[];
  leaves: IndexNode[];
}

export function parseBands(v: unknown): GradeBand[] {
  try {
    const b = typeof v === 'string' ? JSON.parse(v) : v;
    return Array.isArray(b) && b.length ? (b as GradeBand[]) : DEFAULT_GRADE_BANDS;
  } catch {
    return DEFAULT_GRADE_BANDS;
  }
}

export async function loadIndexSet(db: DB, setId: string): Promise<IndexSet> {
  const s = await db.selectFrom('sup_index_set').select(['id', 'name', 'full_score', 'grade_bands']).where('id', '=', setId).executeTakeFirst();
  if (!s) throw new BizError('评价指标体系不存在');
  const rows = await db.selectFrom('sup_index').selectAll().where('set_id', '=', setId).orderBy('level').orderBy('sort').execute();
  const indexes = rows.map((r) => ({
    id: String(r.id), parentId: (r.parent_id as string | null) ?? null, level: Number(r.level), name: String(r.name), maxScore: Number(r.max_score),
    code: (r.code as string | null) ?? null, description: (r.description as string | null) ?? null, weight: r.weight === null ? null : Number(r.weight), sort: Number(r.sort ?? 0),
  }));
  return { id: String(s.id), name: String(s.name), fullScore: Number(s.full_score), bands: parseBands(s.grade_bands), indexes, leaves: leavesOf(indexes) };
}

/** The published index system that applies to a lesson kind (latest version), falling back to the theory system. */
export async function applicableIndexSet(db: DB, lessonKind: string | null): Promise<IndexSet> {
  for (const kind of [lessonKind || 'THEORY', 'THEORY']) {
    const s = await db
      .selectFrom('sup_index_set')
      .select('id')
      .where('lesson_kind', '=', kind)
      .where('status', '=', 'PUBLISHED')
      .orderBy('published_time', 'desc')
      .orderBy('version', 'desc')
      .executeTakeFirst();
    if (s) return loadIndexSet(db, String(s.id));
  }
  throw new BizError('没有已发布的评价指标体系，请先发布指标体系');
}
