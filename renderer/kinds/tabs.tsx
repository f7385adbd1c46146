import { lazy } from 'react';
import { registerPageKind } from '../registry';

// Tabs of pages (regions with bound parameters) and record sections.
registerPageKind('tabs', lazy(() => import('../TabsPage')));
