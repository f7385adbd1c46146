import { http } from '@core/http/client';
import { peekSchemaGuess, putListGuess, quietGet } from '@core/session/prefetch';
import { fetchPageSchema, hasPageSchema } from './loader';
import { firstListOf } from '@shared/list-request';
import type { PageSchema } from '@shared/page-schema';

/**
 * In the renderer chunk (loaded at boot with the main layout, no antd beyond theirs): it starts
 * what page `pageId` at URL `search` will ask for, before it renders (core/session/prefetch.ts):
 * its schema, then — for a list page — its first list request.
 * `guess`: at boot, from the route answer — only the schema request already started at boot is
 * used, and the list request is quiet; otherwise (the menu routes the path here) normal requests.
 */
export function warmPage(pageId: string, search: string, guess: boolean) {
  const schema: Promise<PageSchema | undefined> | undefined = guess
    ? peekSchemaGuess(pageId)?.then((r) => (r?.success ? (r.result as PageSchema) : undefined))
    : hasPageSchema(pageId).then((has) => (has ? fetchPageSchema(pageId).catch(() => undefined) : undefined));
  void schema?.then((s) => {
    const req = s && firstListOf(s, search);
    if (req) putListGuess(pageId, search, req.url, req.params, () => (guess ? quietGet(req.url, req.params) : http.get(req.url, req.params)));
  });
}
