// A list whose rows load their children on expand (the list controller with `tree`).
import { ListPage } from '../ListPage';
import { registerPageKind } from '../registry';

registerPageKind('tree-list', ListPage);
