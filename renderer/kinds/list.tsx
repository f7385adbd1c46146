// A paged list: the list controller (renderer/ListPage.tsx) and its views.
import { ListPage } from '../ListPage';
import { registerPageKind } from '../registry';

registerPageKind('list', ListPage);
