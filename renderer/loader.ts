import { http } from '@/http/client';
import type { PageSchema } from './types';

/**
 * Page schemas come from the API (GET /schema/page/<id>), so a changed file or a new screen shows
 * without a rebuild. They are cached in memory for a short time; the page list (for
 * `hasPageSchema`) likewise.
 */
const TTL = 30_000;
const pages = new Map<string, { at: number; p: Promise<PageSchema> }>();
let list: { at: number; p: Promise<Set<string>> } | undefined;

export class PageSchemaError extends Error {
  constructor(
    message: string,
    readonly problems: Array<{ file: string; path: string; reason: string }> = [],
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
      throw new PageSchemaError(r.message || '页面配置加载失败', problems);
    }
    return r.result;
  });
  p.catch(() => pages.delete(id));
  pages.set(id, { at: Date.now(), p });
  return p;
}

export async function hasPageSchema(id: string): Promise<boolean> {
  if (!list || Date.now() - list.at > TTL) {
    const p = http
      .get<Array<{ id: string }>>('/schema/pages')
      .then((r) => new Set(r.success && Array.isArray(r.result) ? r.result.map((x) => x.id) : []))
      .catch(() => new Set<string>());
    list = { at: Date.now(), p };
  }
  return (await list.p).has(id);
}

export function clearPageCache() {
  pages.clear();
  list = undefined;
}
