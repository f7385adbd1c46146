import { lazy } from 'react';
import { registerPageKind } from '../registry';

// One record: description sections, bound sub-lists, attachments, a timeline of its log, actions on it.
registerPageKind('detail', lazy(() => import('../DetailPage')));
