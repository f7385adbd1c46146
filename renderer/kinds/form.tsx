import { lazy } from 'react';
import { registerPageKind } from '../registry';

// A form page: `load` a record, edit it in sections, `submit` it (renderer/FormPage.tsx).
registerPageKind('form', lazy(() => import('../FormPage')));
