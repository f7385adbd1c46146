// A list whose form has sub-tables (the list controller with `form.subTables`).
import { ListPage } from '../ListPage';
import { registerPageKind } from '../registry';

registerPageKind('master-detail', ListPage);
