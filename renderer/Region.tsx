import { useMemo } from 'react';
import type { RegionSchema } from '@shared/page-schema';
import { SchemaPage } from './SchemaPage';
import { fillValues, type Row } from './registry';

/**
 * A region: the page schema `region.page` drawn inside another page, its `params` (`"{field}"` filled
 * from the parent record) sent with every request it makes and given to its new records — a record's
 * sub-list, a tab, a drawer of a row action.
 */
export function Region({ region, parent }: { region: RegionSchema; parent?: Row }) {
  const params = useMemo(() => (region.params ? fillValues(region.params, parent) : undefined), [region, parent]);
  return <SchemaPage pageId={region.page} params={params} parent={parent} embedded />;
}

export default Region;
