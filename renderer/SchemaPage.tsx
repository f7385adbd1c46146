import type { PageSchema } from '@shared/page-schema';
import type { PageKindProps } from './registry';
import { KindPage } from './KindPage';

// Every page kind and action type registers itself (one file each): importing the folders is enough.
import.meta.glob(['./kinds/*.tsx', './actions/*.{ts,tsx}'], { eager: true });

export { hasPageSchema } from './loader';

/**
 * Draws the page schema `pageId` (GET /schema/page/<id>) with the component its kind registered; a bad
 * schema shows an error page. `params` / `parent` / `embedded`: a region of another page (see PageKindProps).
 * `schema`: draw this schema object instead of fetching one (the page designer's preview of a draft).
 */
export function SchemaPage(props: Omit<PageKindProps, 'schema'> & { schema?: PageSchema }) {
  return <KindPage {...props} />;
}
