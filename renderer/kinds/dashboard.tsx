// Page filters and data-bound panels of figures, charts, tables and links (renderer/Dashboard.tsx).
import { lazy } from 'react';
import { registerPageKind } from '../registry';

registerPageKind('dashboard', lazy(() => import('../Dashboard')));
