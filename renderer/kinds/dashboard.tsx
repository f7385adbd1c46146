import { lazy } from 'react';
import { registerPageKind } from '../registry';

registerPageKind('dashboard', lazy(() => import('../StaticPages')));
