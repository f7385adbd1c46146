// A paged list: the list controller (renderer/list/useListController.ts) and its views (renderer/ListPage.tsx); with `aside`, a tree filter beside it.
import { AsideList } from '../list/AsideList';
import { ListPage } from '../ListPage';
import { registerPageKind, type PageKindProps } from '../registry';

function List(props: PageKindProps) {
  return props.schema.aside ? <AsideList {...props} /> : <ListPage {...props} />;
}

registerPageKind('list', List);
