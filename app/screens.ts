import { lazyWidget } from '@widgets/index';
import { registerWidget } from '@widgets/registry';

/*
 * Hand-written screens of app/pages that page schemas draw as widgets (docs/decisions.md lists why each
 * is still hand-written). The app registers them: widgets never import the app.
 */
const SCREENS: Record<string, [() => Promise<Record<string, unknown>>, string]> = {};

// System administration screens of app/pages/admin: a department's tabs.
SCREENS.DepartPanel = [() => import('@app/pages/admin/DepartPanel'), 'DepartPanel'];
registerWidget('DepartPanel', lazyWidget(SCREENS.DepartPanel[0], 'DepartPanel'));

// The data-log comparison of issue 5 (app/pages/admin-config): a diff view, hand-written.
SCREENS.DataLogCompare = [() => import('@app/pages/admin-config/DataLogCompare'), 'DataLogCompare'];
registerWidget('DataLogCompare', lazyWidget(SCREENS.DataLogCompare[0], 'DataLogCompare'));
