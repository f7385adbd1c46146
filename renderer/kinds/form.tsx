import { lazy } from 'react';
import { registerPageKind } from '../registry';

// A page-level form.
registerPageKind('form', lazy(() => import('../FormPage')));
