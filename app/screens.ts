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

// Configuration screens of issue 5 (app/pages/admin-config): address book, job runs, data-log comparison.
SCREENS.AddressBook = [() => import('@app/pages/admin-config/AddressBook'), 'AddressBook'];
SCREENS.JobRunHistory = [() => import('@app/pages/admin-config/JobRunHistory'), 'JobRunHistory'];
SCREENS.DataLogCompare = [() => import('@app/pages/admin-config/DataLogCompare'), 'DataLogCompare'];
for (const n of ['AddressBook', 'JobRunHistory', 'DataLogCompare']) registerWidget(n, lazyWidget(SCREENS[n]![0], n));
