import { http } from '@/http/client';
import type { PageSchema } from './types';

/**
 * Page schemas come from the API (GET /schema/page/<id>), so a changed file or a new screen shows
 * without a rebuild. They are cached in memory for a short time.
 */
const TTL = 30_000;
const pages = new Map<string, { at: number; p: Promise<PageSchema> }>();

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
  const p = http.get<PageSchema & { problems?: never }>(`/schema/page/${id}`).then((r) => {
    if (!r.success) {
      pages.delete(id);
      const problems = (r.result as unknown as { problems?: PageSchemaError['problems'] } | null)?.problems ?? [];
      throw new PageSchemaError(r.message || '页面配置加载失败', problems, Number(r.code));
    }
    return r.result;
  });
  p.catch(() => pages.delete(id));
  pages.set(id, { at: Date.now(), p });
  return p;
}

/**
 * Whether `id` is a page schema: asks for the schema itself (cached, so the page that follows does
 * not fetch it again) instead of listing every page. A bad schema counts (it shows 页面配置有误);
 * "not found" or a failed request does not.
 */
export function hasPageSchema(id: string): Promise<boolean> {
  return fetchPageSchema(id).then(
    () => true,
    (e: unknown) => e instanceof PageSchemaError && e.code !== 404,
  );
}

export function clearPageCache() {
  pages.clear();
}
