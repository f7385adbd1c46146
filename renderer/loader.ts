import { http } from '@core/http/client';
import { takeSchemaGuess } from '@core/session/prefetch';
import type { PageSchema } from '@shared/page-schema';

/**
 * Page schemas come from the API (GET /schema/page/<id>), so a changed file or a new screen shows
 * without a rebuild. They are cached in memory for a short time.
 */
const TTL = 30_000;
const pages = new Map<string, { at: number; p: Promise<PageSchema>; value?: PageSchema }>();

export class PageSchemaError extends Error {
  constructor(
    message: string,
    readonly problems: Array<{ file: string; path: string; reason: string }> = [],
    /** The envelope's code: 404 when there is no page schema with that id. */
    readonly code?: number,
  ) {
    super(message);
  }
}

export function fetchPageSchema(id: string, fresh = false): Promise<PageSchema> {
  const hit = pages.get(id);
  if (hit && !fresh && Date.now() - hit.at < TTL) return hit.p;
  // The request started at boot for this page (core/session/prefetch.ts), else a new one.
  const guess = fresh ? undefined : takeSchemaGuess(id);
  const ask = () => http.get<PageSchema & { problems?: never }>(`/schema/page/${id}`);
  const p = (guess ? guess.then((r) => r ?? ask()) : ask()).then((r) => {
    if (!r.success) {
      pages.delete(id);
      const problems = (r.result as unknown as { problems?: PageSchemaError['problems'] } | null)?.problems ?? [];
      throw new PageSchemaError(r.message || '页面配置加载失败', problems, Number(r.code));
    }
    return r.result as PageSchema;
  });
  const entry: { at: number; p: Promise<PageSchema>; value?: PageSchema } = { at: Date.now(), p };
  p.then(
    (v) => {
      entry.value = v;
    },
    () => pages.delete(id),
  );
  pages.set(id, entry);
  return p;
}

/** Drops the cached schema `id` (saved in the page designer): the next draw fetches it again. */
export function forgetPageSchema(id: string): void {
  pages.delete(id);
}

/** The schema `id` when it has already arrived (fresh), so a page can draw it in its first render. */
export function peekPageSchema(id: string): PageSchema | undefined {
  const hit = pages.get(id);
  return hit && Date.now() - hit.at < TTL ? hit.value : undefined;
}

/** hasPageSchema's answers: the lookup, and its value once it has arrived. */
const known = new Map<string, { p: Promise<boolean>; value?: boolean }>();

/**
 * Whether `id` is a page schema: asks for the schema itself (cached, so the page that follows does
 * not fetch it again) instead of listing every page. A bad schema counts (it shows 页面配置有误);
 * "not found" or a failed request does not. The answer is kept for the session.
 */
export function hasPageSchema(id: string): Promise<boolean> {
  let hit = known.get(id);
  if (!hit) {
    const entry: { p: Promise<boolean>; value?: boolean } = {
      p: fetchPageSchema(id).then(
        () => true,
        (e: unknown) => e instanceof PageSchemaError && e.code !== 404,
      ),
    };
    void entry.p.then((v) => (entry.value = v));
    known.set(id, (hit = entry));
  }
  return hit.p;
}

/** hasPageSchema's answer when it is already known. */
export const knownPageSchema = (id: string): boolean | undefined => known.get(id)?.value;

export function clearPageCache() {
  pages.clear();
  known.clear();
}
