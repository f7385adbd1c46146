// A paged list: the list controller (renderer/ListPage.tsx) and its views; with `aside`, a tree filter beside it.
import { AsideList } from '../AsideList';
import { ListPage } from '../ListPage';
import { registerPageKind, type PageKindProps } from '../registry';

function List(props: PageKindProps) {
  return props.schema.aside ? <AsideList {...props} /> : <ListPage {...props} />;
}

registerPageKind('list', List);
