import { lazy } from 'react';
import { registerPageKind } from '../registry';

// The page designer: a form and JSON editor for any screen's page schema, validated on every change, with a live preview.
registerPageKind('designer', lazy(() => import('../design/PageDesigner')));
