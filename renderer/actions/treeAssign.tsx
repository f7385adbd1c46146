import { registerDialogAction } from '../dialogAction';

// Checkable-tree assignment: the tree of `treeUrl`, the keys checked by `checkedUrl`, saved to `saveUrl` with `body` ({checked}, {last}, the row's fields).
registerDialogAction('treeAssign', () => import('../TreeAssign'), (a) => !!a.treeUrl && !!(a.saveUrl ?? a.url));
