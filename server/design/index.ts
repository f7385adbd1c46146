import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import type { SchemaProblem } from '../crud/entities.js';
import { BizError, ok } from '../http/envelope.js';
import { seesEverything } from '../sys/permission-tree.js';
import { checkPageDoc, loadAllPages, loadPage, PAGE_ALIASES, pageIds, servedPages } from '../pages/index.js';
import { allowedPages, mayReadPage, referencedPages } from '../pages/allowed.js';
import { newId } from '../util.js';
import { isExpression, parse, stripBraces } from '../../shared/expr.js';
import { jsonDiff, jsonMerge3 } from '../../shared/json-diff.js';
import { fileHashOf, fileTextOf, liveVersions, savedPage, VERSION_TABLE } from './store.js';

/**
 * The page designer's API (issue 31): read a page's shipped and saved schemas, validate a draft (the
 * composed meta-schema, the page checks and the safety rules below) on every change, save a draft as a
 * new version, roll back to any version or to the shipped default. Permission `design:page:*`
 * (seeded for the admin role only). An invalid schema is never stored.
 */
export const DESIGN = { list: 'design:page:list', save: 'design:page:save', rollback: 'design:page:rollback' } as const;
const ID = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;
const MAX_SCHEMA_CHARS = 400_000;

/** Widget names registered in the browser (widgets/index.ts, app/screens.ts) plus those the shipped pages use. */
let widgetNames: Set<string> | undefined;
function knownWidgets(): Set<string> {
  if (widgetNames) return widgetNames;
  const names = new Set<string>();
  const root = resolve(import.meta.dirname, '../..');
  for (const f of ['widgets/index.ts', 'app/screens.ts']) {
    let src: string;
    try {
      src = readFileSync(join(root, f), 'utf8');
    } catch {
      continue;
    }
    for (const m of src.matchAll(/registerWidget\(\s*'([^']+)'/g)) names.add(m[1]!);
    for (const m of src.matchAll(/WIDGETS(?:\.(\w+)|\['([^']+)'\])\s*=/g)) names.add((m[1] ?? m[2])!);
    for (const m of src.matchAll(/^\s*'?([\w:]+)'?\s*:\s*\[\(\)\s*=>\s*import/gm)) names.add(m[1]!);
  }
  for (const p of loadAllPages()) walk(p.schema, '', (v, k) => k === 'widget' && typeof v === 'string' && names.add(v));
  return (widgetNames = names);
}

function walk(v: unknown, path: string, visit: (v: unknown, key: string, path: string) => void, key = '', depth = 0): void {
  if (depth > 60) return;
  visit(v, key, path || '/');
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}/${k}`, visit, k, depth + 1);
}

const loadServed = servedPages;
const alias = (p: string) => PAGE_ALIASES[p] ?? p;

/**
 * What the meta-schema cannot see: registered widgets, entities the author may use, pages the author may
 * open (a page named in a region, tab or `page` action becomes readable by every user of this screen),
 * expressions the safe evaluator parses.
 */
async function safetyProblems(ctx: ServerContext, user: SessionUser, doc: Record<string, unknown>, file: string): Promise<SchemaProblem[]> {
  const out: SchemaProblem[] = [];
  if (!seesEverything(user)) {
    const allowed = await allowedPages(ctx, user, await loadServed(ctx), alias);
    const refs = new Set(referencedPages(doc, new Map()));
    walk(doc, '', (v, key, path) => {
      if (key === 'page' && typeof v === 'string' && refs.has(v) && !allowed.has(alias(v)) && !v.startsWith('demo/')) out.push({ file, path, reason: `无权使用页面“${v}”` });
    });
  }
  const widgets = knownWidgets();
  walk(doc, '', (v, key, path) => {
    if (key === 'widget' && typeof v === 'string' && !widgets.has(v)) out.push({ file, path, reason: `未注册的组件“${v}”` });
    if (key === 'entity' && typeof v === 'string') {
      const e = ctx.entities.byName.get(v);
      if (!e) out.push({ file, path, reason: `未知的实体“${v}”` });
      else if (!seesEverything(user) && !(e.permission && user.perms.has(`${e.permission}:list`))) out.push({ file, path, reason: `无权使用实体“${v}”` });
    }
    for (const src of expressionsIn(v))
      try {
        parse(src);
      } catch (err) {
        out.push({ file, path, reason: `表达式有误：${(err as Error).message}` });
      }
  });
  return out;
}

/**
 * The expressions of a schema string, as the renderer reads them: a value that is one `{{ … }}` (a
 * condition, a computed value), else each `{{ … }}` part of a template (a dashboard title or description).
 */
function expressionsIn(v: unknown): string[] {
  if (typeof v !== 'string' || !v.includes('{{')) return [];
  if (isExpression(v) && !stripBraces(v).includes('}}')) return [stripBraces(v)];
  return [...v.matchAll(/\{\{([\s\S]+?)\}\}/g)].map((m) => m[1]!);
}

export async function draftProblems(ctx: ServerContext, user: SessionUser, id: string, doc: unknown): Promise<SchemaProblem[]> {
  const file = `草稿 ${id}`;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [{ file, path: '/', reason: '页面配置必须是 JSON 对象' }];
  if (JSON.stringify(doc).length > MAX_SCHEMA_CHARS) return [{ file, path: '/', reason: '页面配置过大' }];
  const problems = checkPageDoc(doc as Record<string, unknown>, file, ctx);
  return problems.length ? problems : await safetyProblems(ctx, user, doc as Record<string, unknown>, file);
}

/** What the upgrade changed in a page's shipped file under its live local version (null when nothing did). */
interface ShippedChange {
  /** The file the local version was made from (null when that version predates keeping it). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changes: ReturnType<typeof jsonDiff>;
}

export async function registerPageDesigner(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const pageIdOf = (raw: unknown) => {
    const id = typeof raw === 'string' ? (PAGE_ALIASES[raw] ?? raw) : '';
    if (!ID.test(id) || id.includes('..') || !loadPage(id, ctx)) throw new BizError(`页面不存在：${String(raw ?? '')}`);
    return id;
  };
  /** The designer edits only pages the author may open (all of them for the administrator). */
  const mayDesign = async (req: FastifyRequest, id: string) => {
    if (!(await mayReadPage(ctx, req.user!, id, await loadServed(ctx), alias))) throw new BizError(`页面不存在：${id}`);
  };
  const versionsOf = (id: string) =>
    ctx.db
      .selectFrom(VERSION_TABLE)
      .select(['version', 'page_schema', 'file_hash', 'file_schema', 'note', 'create_by', 'create_time'])
      .where('page_id', '=', id)
      .orderBy('version', 'desc')
      .execute();
  type Row = Awaited<ReturnType<typeof versionsOf>>[number];
  const shippedOf = (id: string) => {
    const p = loadPage(id, ctx)!;
    return { schema: p.schema ?? null, problems: p.problems };
  };
  const parseOrNull = (text: string | null | undefined) => {
    try {
      return text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  const shippedChangeOf = (id: string, live: Row | undefined): ShippedChange | null => {
    if (!live?.page_schema || live.file_hash === fileHashOf(id)) return null;
    const before = parseOrNull(live.file_schema);
    const after = parseOrNull(fileTextOf(id));
    return { before, after, changes: before ? jsonDiff(before, after) : [] };
  };

  api.get('/design/pages', { config: { auth: DESIGN.list } }, async (req) => {
    const live = new Map((await liveVersions(ctx.db)).map((r) => [r.page_id, r]));
    const load = await loadServed(ctx);
    const out = [];
    for (const id of pageIds()) {
      if (!(await mayReadPage(ctx, req.user!, id, load, alias))) continue;
      const p = loadPage(id, ctx)!;
      const v = live.get(id);
      out.push({ id, title: (p.schema?.title as string) ?? id, kind: p.schema?.kind ?? null, version: v?.version ?? null, saved: !!v?.page_schema, shippedChanged: !!(v?.page_schema && v.file_hash !== fileHashOf(id)) });
    }
    return ok(out);
  });

  api.get('/design/page', { config: { auth: DESIGN.list } }, async (req) => {
    const id = pageIdOf((req.query as { id?: unknown }).id);
    await mayDesign(req, id);
    const rows = await versionsOf(id);
    const hash = fileHashOf(id);
    const live = rows[0];
    const livePage = live?.page_schema ? savedPage(ctx, { page_id: id, version: Number(live.version), page_schema: live.page_schema }) : undefined;
    const shippedChange = shippedChangeOf(id, live);
    return ok({
      id,
      shipped: shippedOf(id),
      fileHash: hash,
      live: live ? { version: Number(live.version), saved: !!live.page_schema, schema: livePage?.schema ?? null, problems: livePage?.problems ?? [] } : null,
      // The shipped file changed since the live version was saved (an upgrade): the author decides.
      shippedChanged: !!shippedChange,
      shippedChange,
      versions: rows.map((r) => ({ version: Number(r.version), saved: !!r.page_schema, note: r.note ?? '', createBy: r.create_by, createTime: r.create_time, shippedChanged: !!(r.page_schema && r.file_hash !== hash) })),
    });
  });

  api.get('/design/version', { config: { auth: DESIGN.list } }, async (req) => {
    const q = req.query as { id?: unknown; version?: unknown };
    const id = pageIdOf(q.id);
    await mayDesign(req, id);
    const version = Number(q.version);
    if (version === 0) return ok({ version: 0, schema: shippedOf(id).schema });
    const row = await ctx.db.selectFrom(VERSION_TABLE).select(['version', 'page_schema']).where('page_id', '=', id).where('version', '=', version).executeTakeFirst();
    if (!row) throw new BizError('版本不存在');
    return ok({ version, schema: row.page_schema ? JSON.parse(row.page_schema) : shippedOf(id).schema });
  });

  api.post('/design/validate', { config: { auth: DESIGN.list } }, async (req) => {
    const body = (req.body ?? {}) as { id?: unknown; schema?: unknown };
    const id = pageIdOf(body.id);
    await mayDesign(req, id);
    return ok({ problems: await draftProblems(ctx, req.user!, id, body.schema) });
  });

  /**
   * A new version (the live one from now on). `base` is the version the author's draft started from
   * (0 = none yet): when another author saved in between, nothing is stored and the author is told —
   * a save never silently overwrites someone else's.
   */
  const insertVersion = async (req: FastifyRequest, id: string, schema: Record<string, unknown> | null, note: string, base?: number) => {
    const conflict = (top: number) => new BizError(`该页面已有更新的版本 v${top}（他人刚刚保存），未保存。请重新打开页面，对比后再保存。`, 500, 200, { conflict: top });
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const top = Number((await trx.selectFrom(VERSION_TABLE).select((eb) => eb.fn.max('version').as('m')).where('page_id', '=', id).executeTakeFirst())?.m ?? 0);
        if (base !== undefined && base !== top) throw conflict(top);
        const version = top + 1;
        await trx
          .insertInto(VERSION_TABLE)
          .values({ id: newId(), page_id: id, version, page_schema: schema ? JSON.stringify(schema) : null, file_hash: fileHashOf(id), file_schema: fileTextOf(id), note: note.slice(0, 200), create_by: req.user!.username, create_time: new Date() })
          .execute();
        return version;
      });
    } catch (err) {
      if (err instanceof BizError) throw err;
      // two saves at the same instant: the unique (page, version) index lets one through
      if (/unique|duplicate/i.test(String((err as Error).message))) throw conflict(Number(base ?? 0) + 1);
      throw err;
    }
  };
  const baseOf = (raw: unknown) => (raw === undefined || raw === null ? undefined : Number.isInteger(Number(raw)) ? Number(raw) : undefined);
  const refuse = (prefix: string, problems: SchemaProblem[], extra: Record<string, unknown> = {}) =>
    new BizError(`${prefix}：${problems.map((p) => `${p.path} ${p.reason}`).join('；')}`, 500, 200, { problems, ...extra });

  api.post('/design/save', { config: { auth: DESIGN.save } }, async (req) => {
    const body = (req.body ?? {}) as { id?: unknown; schema?: unknown; note?: unknown; baseVersion?: unknown };
    const id = pageIdOf(body.id);
    await mayDesign(req, id);
    const problems = await draftProblems(ctx, req.user!, id, body.schema);
    if (problems.length) throw refuse('页面配置有误，未保存', problems);
    const version = await insertVersion(req, id, body.schema as Record<string, unknown>, typeof body.note === 'string' ? body.note : '', baseOf(body.baseVersion));
    return ok({ version }, `已保存为版本 ${version}`);
  });

  api.post('/design/rollback', { config: { auth: DESIGN.rollback } }, async (req) => {
    const body = (req.body ?? {}) as { id?: unknown; version?: unknown };
    const id = pageIdOf(body.id);
    await mayDesign(req, id);
    const target = Number(body.version);
    if (!Number.isInteger(target) || target < 0) throw new BizError('版本不存在');
    let schema: Record<string, unknown> | null = null;
    if (target > 0) {
      const row = await ctx.db.selectFrom(VERSION_TABLE).select(['page_schema']).where('page_id', '=', id).where('version', '=', target).executeTakeFirst();
      if (!row) throw new BizError('版本不存在');
      schema = row.page_schema ? (JSON.parse(row.page_schema) as Record<string, unknown>) : null;
      // An old version the current meta-schema refuses is not made live again.
      const problems = schema ? await draftProblems(ctx, req.user!, id, schema) : [];
      if (problems.length) throw refuse('该版本已不符合当前的页面规范，不能回滚', problems);
    }
    const version = await insertVersion(req, id, schema, target ? `回滚到版本 ${target}` : '恢复出厂配置');
    return ok({ version }, target ? `已回滚到版本 ${target}（新版本 ${version}）` : `已恢复出厂配置（新版本 ${version}）`);
  });

  /**
   * After an upgrade changed the shipped file under a local version: `reapply` re-applies the author's
   * changes (old file → local version) to the new file and saves the result as a new version when it is
   * valid (otherwise nothing is saved and the merged draft comes back with its problems, for the author to
   * fix); `keep` keeps the local version as it is and marks the new file as seen. Both are new versions.
   */
  api.post('/design/upgrade', { config: { auth: DESIGN.save } }, async (req) => {
    const body = (req.body ?? {}) as { id?: unknown; mode?: unknown; baseVersion?: unknown };
    const id = pageIdOf(body.id);
    await mayDesign(req, id);
    const live = (await versionsOf(id))[0];
    const change = shippedChangeOf(id, live);
    if (!live || !change) throw new BizError('出厂配置没有变化，无需处理');
    const local = JSON.parse(live.page_schema!) as Record<string, unknown>;
    if (body.mode === 'keep') {
      const problems = await draftProblems(ctx, req.user!, id, local);
      if (problems.length) throw refuse('本地版本不符合当前的页面规范，不能保留', problems);
      const version = await insertVersion(req, id, local, '保留本地版本（出厂配置已更新）', baseOf(body.baseVersion));
      return ok({ version, conflicts: [] }, `已保留本地版本（新版本 ${version}）`);
    }
    if (body.mode !== 'reapply') throw new BizError('未知的处理方式');
    if (!change.before) throw new BizError('该本地版本没有记录保存时的出厂配置，无法自动重新应用：请对比后手动修改');
    const merged = jsonMerge3(change.before, local, change.after);
    const schema = merged.value as Record<string, unknown>;
    const problems = await draftProblems(ctx, req.user!, id, schema);
    if (problems.length) throw refuse('重新应用后的配置有误，未保存', problems, { schema, conflicts: merged.conflicts });
    const version = await insertVersion(req, id, schema, '基于新默认重新应用', baseOf(body.baseVersion));
    const kept = merged.conflicts.length ? `；${merged.conflicts.length} 处双方都改过，保留了本地的修改：${merged.conflicts.join('、')}` : '';
    return ok({ version, conflicts: merged.conflicts }, `已基于新默认重新应用（新版本 ${version}）${kept}`);
  });
}
