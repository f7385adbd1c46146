import { lazy } from 'react';
import { registerPageKind } from '../registry';

registerPageKind('report', lazy(() => import('../StaticPages')));
