import { registerDialogAction } from '../dialogAction';

// A small form in a dialog (`fields`, initial `values`); its values with the row id (`idField`) and `body` go to `url` (`{field}` from the row and the page's bound parameters).
registerDialogAction('form', () => import('../ActionForm'), (a) => !!a.url);
