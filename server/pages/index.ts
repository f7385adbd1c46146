import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { SCHEMAS_DIR, checkAgainst, listJson, type SchemaProblem } from '../crud/entities.js';
import { BizError, fail, ok } from '../http/envelope.js';
import { routedComponent, userPermissions } from '../sys/permission-tree.js';
import { mayReadPage } from './allowed.js';
import { noticeList } from '../sys/announcement.js';
import { firstListOf } from '../../shared/list-request.js';
import type { PageSchema } from '../../shared/page-schema.js';
import { savedPages } from '../design/store.js';

/**
 * Page schemas (schemas/pages/<id>.json) served to the renderer. Files are read on demand and
 * cached by mtime, so a changed or new file shows without a rebuild or restart. Each is checked
 * against schemas/meta/page.schema.json; a bad one is reported (file, JSON path, reason) at start
 * and answered as an error the renderer shows — the rest of the product works on.
 */
export const PAGES_DIR = join(SCHEMAS_DIR, 'pages');
const ID = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export interface LoadedPage {
  id: string;
  file: string;
  schema?: Record<string, unknown>;
  problems: SchemaProblem[];
}

const cache = new Map<string, { mtime: number; page: LoadedPage }>();

function semantic(doc: Record<string, unknown>, file: string, ctx: ServerContext | undefined, dir: string): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const entity = doc.entity as string | undefined;
  if (entity && ctx && !ctx.entities.byName.has(entity)) out.push({ file, path: '/entity', reason: `未知的实体“${entity}”` });
  const kind = doc.kind as string;
  if (['list', 'tree-list', 'master-detail'].includes(kind) && !doc.resource && !(doc.api as { list?: string } | undefined)?.list && !doc.data && !(doc.online as { form?: string } | undefined)?.form)
    out.push({ file, path: '/', reason: '列表页需要 resource、api.list、online.form 或 data 之一' });
  const keys = new Set<string>();
  const actions = (doc.actions ?? {}) as Record<string, Array<{ key: string }>>;
  for (const [group, list] of Object.entries(actions))
    list.forEach((a, i) => {
      if (keys.has(`${group}:${a.key}`)) out.push({ file, path: `/actions/${group}/${i}/key`, reason: `按钮键“${a.key}”重复` });
      keys.add(`${group}:${a.key}`);
    });
  for (const [path, ref] of pageRefs(doc)) if (!ID.test(ref) || ref.includes('..') || !existsSync(join(dir, `${ref}.json`))) out.push({ file, path, reason: `页面不存在“${ref}”` });
  return out;
}

type Doc = Record<string, any>;
/** The pages a page draws inside itself (regions of sections, tabs, `page` actions), with their JSON paths. */
function pageRefs(doc: Doc): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const sections = (list: Doc[] | undefined, at: string) =>
    (list ?? []).forEach((s, i) => s.region?.page && out.push([`${at}/${i}/region/page`, s.region.page]));
  sections(doc.sections, '/sections');
  (doc.tabs as Doc[] | undefined)?.forEach((t, i) => {
    if (t.page) out.push([`/tabs/${i}/page`, t.page]);
    sections(t.sections, `/tabs/${i}/sections`);
  });
  for (const [group, list] of Object.entries((doc.actions ?? {}) as Record<string, Doc[]>))
    list.forEach((a, i) => a.type === 'page' && a.page && out.push([`/actions/${group}/${i}/page`, a.page]));
  return out;
}

/**
 * Stock JeecgBoot 3.4 view names (menu `component`) served by one of our page schemas, so a menu row
 * may carry either name (docs/jeecg-compat.md).
 */
export const PAGE_ALIASES: Record<string, string> = {
  'system/SysAnnouncementList': 'system/AnnouncementList',
  'system/UserAnnouncementList': 'system/MyAnnouncement',
};

/** A page schema's problems: the composed meta-schema, then the cross-field checks (file = where it came from). */
export function checkPageDoc(doc: Record<string, unknown>, file: string, ctx?: ServerContext, dir = PAGES_DIR): SchemaProblem[] {
  const problems = checkAgainst('page.schema.json', doc, file);
  return problems.length ? problems : semantic(doc, file, ctx, dir);
}

/** Reads and validates one page; undefined when no such file. */
export function loadPage(id: string, ctx?: ServerContext, dir = PAGES_DIR): LoadedPage | undefined {
  if (dir === PAGES_DIR) id = PAGE_ALIASES[id] ?? id;
  if (!ID.test(id) || id.includes('..')) return undefined;
  const abs = join(dir, `${id}.json`);
  let mtime: number;
  try {
    mtime = statSync(abs).mtimeMs;
  } catch {
    return undefined;
  }
  const hit = cache.get(abs);
  if (hit && hit.mtime === mtime) return hit.page;
  const file = relative(SCHEMAS_DIR, abs);
  const page: LoadedPage = { id, file, problems: [] };
  try {
    const doc = JSON.parse(readFileSync(abs, 'utf8')) as Record<string, unknown>;
    page.problems = checkPageDoc(doc, file, ctx, dir);
    if (!page.problems.length) page.schema = doc;
  } catch (err) {
    page.problems = [{ file, path: '/', reason: `invalid JSON: ${(err as Error).message}` }];
  }
  cache.set(abs, { mtime, page });
  return page;
}

export function pageIds(dir = PAGES_DIR): string[] {
  return listJson(dir).map((f) => relative(dir, f).replace(/\\/g, '/').replace(/\.json$/, ''));
}

export function loadAllPages(ctx?: ServerContext, dir = PAGES_DIR): LoadedPage[] {
  return pageIds(dir).map((id) => loadPage(id, ctx, dir)!).filter(Boolean);
}

/**
 * The loader of the pages as served: a page's live version saved in the page designer, else its file.
 * One loader for every reader of page schemas (the renderer's route, the designer, workflow forms).
 */
export async function servedPages(ctx: ServerContext): Promise<(id: string) => LoadedPage | undefined> {
  const saved = await savedPages(ctx);
  return (id: string) => saved.get(PAGE_ALIASES[id] ?? id) ?? loadPage(id, ctx);
}

const describe = (p: SchemaProblem) => `${p.file} ${p.path}: ${p.reason}`;

export async function registerPages(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  for (const p of loadAllPages(ctx)) for (const pr of p.problems) api.log.error(pr, 'bad page schema');

  // Only the screens of the caller's menu (and the pages they embed or link to) are served; any other
  // page answers exactly like an unknown one (issue 27 rule 9, server/pages/allowed.ts).
  // A version saved in the page designer (server/design) is served instead of its file.
  const alias = (id: string) => PAGE_ALIASES[id] ?? id;
  const served = () => servedPages(ctx);
  const readable = async (req: FastifyRequest, id: string) => mayReadPage(ctx, req.user!, id, await served(), alias);

  api.get('/schema/pages', { config: { auth: 'user' } }, async (req) => {
    const out = [];
    const load = await served();
    for (const p of pageIds().map((id) => load(id)!))
      if (await readable(req, p.id)) out.push({ id: p.id, title: (p.schema?.title as string) ?? p.id, kind: p.schema?.kind, valid: !p.problems.length, problems: p.problems });
    return ok(out);
  });

  const schemaOf = (id: string, p: LoadedPage | undefined) => {
    if (!p) throw notFound(id);
    if (p.problems.length) throw new BizError(`页面配置有误：${p.problems.map(describe).join('；')}`, 500, 200, { problems: p.problems });
    return p.schema;
  };
  api.get('/schema/page/*', { config: { auth: 'user' } }, async (req) => {
    const id = (req.params as { '*': string })['*'];
    if (!(await readable(req, id))) throw notFound(id);
    return ok(schemaOf(id, (await served())(id)));
  });

  // Where a path leads for this user (their menu's component there), that page's schema if it is a
  // schema page, and — for a list page opened at URL `search` — the answer to its first list request,
  // run here with the caller's own headers (same guard, permissions and data scope as when the page
  // asks itself). A first visit (core/session/early-requests.ts) then has its rows with its schema, one round
  // trip after the HTML, instead of after the entry, the menu and the renderer have loaded.
  const routeAnswer = async (req: FastifyRequest) => {
    const { path, search } = req.query as { path?: unknown; search?: unknown };
    if (typeof path !== 'string' || !path.startsWith('/') || path.length > 255) throw new BizError('路径参数有误', 400);
    if (search !== undefined && (typeof search !== 'string' || search.length > 2000)) throw new BizError('查询参数有误', 400);
    const component = await routedComponent(ctx, req.user!, path);
    if (!component) throw new BizError(`菜单中没有该路径：${path}`, 404);
    const page = (await readable(req, component)) ? (await served())(component) : undefined;
    const schema = page ? schemaOf(component, page) : null;
    const first = schema && typeof search === 'string' ? firstListOf(schema as unknown as PageSchema, search) : undefined;
    if (!first) return ok({ component, schema });
    const query = new URLSearchParams(Object.entries(first.params).map(([k, v]) => [k, String(v)]));
    const headers = Object.fromEntries(FORWARDED.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])));
    const answer = await req.server.inject({ method: 'GET', url: `${ctx.cfg.apiBase}${first.url}?${query}`, headers, remoteAddress: req.ip });
    const envelope = answer.statusCode === 200 ? (answer.json() as { success?: boolean }) : undefined;
    return ok({ component, schema, ...(envelope?.success ? { list: { url: first.url, params: first.params, answer: envelope } } : {}) });
  };
  api.get('/schema/route', { config: { auth: 'user' } }, routeAnswer);

  // A first visit's early requests in one (core/session/early-requests.ts): the menu, where the path leads and the
  // header's notice list, each as its own request would answer with HTTP 200 (GET /sys/permission/getUserPermissionByToken,
  // /schema/route, /sys/annountCement/listByUser?pageSize=5), or null where that request would answer otherwise or
  // fail: the app then makes it itself, with its own error handling. One request and one session lookup instead of three.
  api.get('/schema/boot', { config: { auth: 'user' } }, async (req) => {
    const settled = (answer: () => Promise<unknown>) =>
      answer().catch((err: unknown) => {
        if (err instanceof BizError) return err.status === 200 ? fail(err.message, err.code, err.result) : null;
        req.log.warn({ err }, 'early answer failed');
        return null;
      });
    // One after the other: they share the one database connection anyway.
    const permissions = await settled(async () => ok(await userPermissions(ctx, req.user!)));
    const route = await settled(() => routeAnswer(req));
    const notices = await settled(() => noticeList(ctx, req.user!, 5));
    return ok({ permissions, route, notices });
  });
}

/** The answer for a page that does not exist — and for one the caller may not read (no hint that it exists). */
const notFound = (id: string) => new BizError(`页面配置不存在：${id}`, 404);

/** The request headers a page's own list request would carry (core/http/client.ts). */
const FORWARDED = ['x-access-token', 'tenant-id', 'x-low-app-id'];
