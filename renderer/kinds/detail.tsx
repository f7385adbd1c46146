import { lazy } from 'react';
import { registerPageKind } from '../registry';

registerPageKind('detail', lazy(() => import('../StaticPages')));
