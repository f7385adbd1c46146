import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { cachedRows } from '../db/read-cache.js';
import { checkPageDoc, PAGES_DIR, type LoadedPage } from '../pages/index.js';

/**
 * Page schemas saved in the page designer (table design_page_version). Every save is a new version; the
 * highest version of a page is the live one: a schema, or null = "the shipped file" (a rollback to the
 * default). The files under schemas/pages stay the shipped defaults; a live saved schema is served
 * instead of its file (server/pages/index.ts).
 *
 * The live versions are read through the read cache: a save drops the entry at once in this process
 * and, through the notice hub, in every other API process (TTL as a backstop).
 */
export const VERSION_TABLE = 'design_page_version';
const LIVE_TTL_MS = 60_000;

export interface VersionRow {
  page_id: string;
  version: number;
  page_schema: string | null;
  file_hash: string | null;
}

/** sha256 of a page's shipped file (empty string when the page has no file). */
export function fileHashOf(id: string): string {
  const text = fileTextOf(id);
  return text === null ? '' : createHash('sha256').update(text).digest('hex');
}

/** The text of a page's shipped file (null when the page has no file); kept with every saved version. */
export function fileTextOf(id: string): string | null {
  try {
    return readFileSync(join(PAGES_DIR, `${id}.json`), 'utf8');
  } catch {
    return null;
  }
}

/** The live (highest) version of every page that has one. */
export function liveVersions(db: DB): Promise<VersionRow[]> {
  const q = db
    .selectFrom(`${VERSION_TABLE} as v`)
    .select(['v.page_id', 'v.version', 'v.page_schema', 'v.file_hash'])
    .where((eb) => eb('v.version', '=', eb.selectFrom(`${VERSION_TABLE} as w`).select((w) => w.fn.max('w.version').as('m')).whereRef('w.page_id', '=', 'v.page_id')));
  return cachedRows<VersionRow>(db, q, LIVE_TTL_MS);
}

/** Parsed and re-validated live schemas, memoised by page and version (the meta-schema can change under a saved version). */
const parsed = new Map<string, { text: string | null; page: LoadedPage }>();

/**
 * The saved pages served instead of their files: page id → page. A saved schema the current meta-schema
 * refuses (after an upgrade) is left out, so its file is served and the page keeps working; the designer
 * shows the problem.
 */
export async function savedPages(ctx: ServerContext): Promise<Map<string, LoadedPage>> {
  const out = new Map<string, LoadedPage>();
  for (const row of await liveVersions(ctx.db)) {
    if (!row.page_schema) continue;
    const page = savedPage(ctx, row);
    if (page.schema) out.set(row.page_id, page);
  }
  return out;
}

export function savedPage(ctx: ServerContext, row: Pick<VersionRow, 'page_id' | 'version' | 'page_schema'>): LoadedPage {
  const key = `${row.page_id}@${row.version}`;
  let page = parsed.get(key)?.text === row.page_schema ? parsed.get(key)!.page : undefined;
  if (!page) {
    const file = `设计版本 ${row.page_id} v${row.version}`;
    page = { id: row.page_id, file, problems: [] };
    try {
      const doc = JSON.parse(row.page_schema ?? 'null') as Record<string, unknown>;
      page.problems = checkPageDoc(doc, file, ctx);
      if (!page.problems.length) page.schema = doc;
    } catch (err) {
      page.problems = [{ file, path: '/', reason: `invalid JSON: ${(err as Error).message}` }];
    }
    if (parsed.size > 500) parsed.clear();
    parsed.set(key, { text: row.page_schema, page });
  }
  return page;
}
