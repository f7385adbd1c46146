import { lazyWidget } from '@widgets/index';
import { registerWidget } from '@widgets/registry';

/*
 * Hand-written screens of app/pages that page schemas draw as widgets (docs/decisions.md lists why each
 * is still hand-written). The app registers them: widgets never import the app.
 */
const SCREENS: Record<string, [() => Promise<Record<string, unknown>>, string]> = {};

// The data-log comparison of issue 5 (app/pages/admin-config): a diff view, hand-written.
SCREENS.DataLogCompare = [() => import('@app/pages/admin-config/DataLogCompare'), 'DataLogCompare'];
registerWidget('DataLogCompare', lazyWidget(SCREENS.DataLogCompare[0], 'DataLogCompare'));
