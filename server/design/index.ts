import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import type { SchemaProblem } from '../crud/entities.js';
import { BizError, ok } from '../http/envelope.js';
import { seesEverything } from '../sys/permission-tree.js';
import { checkPageDoc, loadAllPages, loadPage, PAGE_ALIASES, pageIds } from '../pages/index.js';
import { mayReadPage } from '../pages/allowed.js';
import { newId } from '../util.js';
import { isExpression, parse, stripBraces } from '../../shared/expr.js';
import { fileHashOf, liveVersions, savedPage, savedPages, VERSION_TABLE } from './store.js';

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

/** What the meta-schema cannot see: registered widgets, entities the author may use, expressions the safe evaluator parses. */
function safetyProblems(ctx: ServerContext, user: SessionUser, doc: Record<string, unknown>, file: string): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const widgets = knownWidgets();
  walk(doc, '', (v, key, path) => {
    if (key === 'widget' && typeof v === 'string' && !widgets.has(v)) out.push({ file, path, reason: `未注册的组件“${v}”` });
    if (key === 'entity' && typeof v === 'string') {
      const e = ctx.entities.byName.get(v);
      if (!e) out.push({ file, path, reason: `未知的实体“${v}”` });
      else if (!seesEverything(user) && !(e.permission && user.perms.has(`${e.permission}:list`))) out.push({ file, path, reason: `无权使用实体“${v}”` });
    }
    if (isExpression(v))
      try {
        parse(stripBraces(v));
      } catch (err) {
        out.push({ file, path, reason: `表达式有误：${(err as Error).message}` });
      }
  });
  return out;
}

export function draftProblems(ctx: ServerContext, user: SessionUser, id: string, doc: unknown): SchemaProblem[] {
  const file = `草稿 ${id}`;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [{ file, path: '/', reason: '页面配置必须是 JSON 对象' }];
  if (JSON.stringify(doc).length > MAX_SCHEMA_CHARS) return [{ file, path: '/', reason: '页面配置过大' }];
  const problems = checkPageDoc(doc as Record<string, unknown>, file, ctx);
  return problems.length ? problems : safetyProblems(ctx, user, doc as Record<string, unknown>, file);
}

export async function registerPageDesigner(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const pageIdOf = (raw: unknown) => {
    const id = typeof raw === 'string' ? (PAGE_ALIASES[raw] ?? raw) : '';
    if (!ID.test(id) || id.includes('..') || !loadPage(id, ctx)) throw new BizError(`页面不存在：${String(raw ?? '')}`);
    return id;
  };
  /** The designer edits only pages the author may open (all of them for the administrator). */
  const mayDesign = async (req: FastifyRequest, id: string) => {
    const saved = await savedPages(ctx);
    if (!(await mayReadPage(ctx, req.user!, id, (p) => saved.get(p) ?? loadPage(p, ctx), (p) => PAGE_ALIASES[p] ?? p))) throw new BizError(`页面不存在：${id}`);
  };
  const versionsOf = (id: string) =>
    ctx.db
      .selectFrom(VERSION_TABLE)
      .select(['version', 'page_schema', 'file_hash', 'note', 'create_by', 'create_time'])
      .where('page_id', '=', id)
      .orderBy('version', 'desc')
      .execute();
  const shippedOf = (id: string) => {
    const p = loadPage(id, ctx)!;
    return { schema: p.schema ?? null, problems: p.problems };
  };

  api.get('/design/pages', { config: { auth: DESIGN.list } }, async (req) => {
    const live = new Map((await liveVersions(ctx.db)).map((r) => [r.page_id, r]));
    const saved = await savedPages(ctx);
    const out = [];
    for (const id of pageIds()) {
      if (!(await mayReadPage(ctx, req.user!, id, (p) => saved.get(p) ?? loadPage(p, ctx), (p) => PAGE_ALIASES[p] ?? p))) continue;
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
    return ok({
      id,
      shipped: shippedOf(id),
      fileHash: hash,
      live: live ? { version: Number(live.version), saved: !!live.page_schema, schema: livePage?.schema ?? null, problems: livePage?.problems ?? [] } : null,
      // The shipped file changed since the live version was saved (an upgrade): the author should look at it.
      shippedChanged: !!(live?.page_schema && live.file_hash !== hash),
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
    return ok({ problems: draftProblems(ctx, req.user!, id, body.schema) });
  });

  const insertVersion = async (req: FastifyRequest, id: string, schema: Record<string, unknown> | null, note: string) => {
    return ctx.db.transaction().execute(async (trx) => {
      const top = await trx.selectFrom(VERSION_TABLE).select((eb) => eb.fn.max('version').as('m')).where('page_id', '=', id).executeTakeFirst();
      const version = Number(top?.m ?? 0) + 1;
      await trx
        .insertInto(VERSION_TABLE)
        .values({ id: newId(), page_id: id, version, page_schema: schema ? JSON.stringify(schema) : null, file_hash: fileHashOf(id), note: note.slice(0, 200), create_by: req.user!.username, create_time: new Date() })
        .execute();
      return version;
    });
  };

  api.post('/design/save', { config: { auth: DESIGN.save } }, async (req) => {
    const body = (req.body ?? {}) as { id?: unknown; schema?: unknown; note?: unknown };
    const id = pageIdOf(body.id);
    await mayDesign(req, id);
    const problems = draftProblems(ctx, req.user!, id, body.schema);
    if (problems.length) throw new BizError(`页面配置有误，未保存：${problems.map((p) => `${p.path} ${p.reason}`).join('；')}`, 500, 200, { problems });
    const version = await insertVersion(req, id, body.schema as Record<string, unknown>, typeof body.note === 'string' ? body.note : '');
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
      const problems = schema ? draftProblems(ctx, req.user!, id, schema) : [];
      if (problems.length) throw new BizError(`该版本已不符合当前的页面规范，不能回滚：${problems.map((p) => `${p.path} ${p.reason}`).join('；')}`, 500, 200, { problems });
    }
    const version = await insertVersion(req, id, schema, target ? `回滚到版本 ${target}` : '恢复出厂配置');
    return ok({ version }, target ? `已回滚到版本 ${target}（新版本 ${version}）` : `已恢复出厂配置（新版本 ${version}）`);
  });
}
