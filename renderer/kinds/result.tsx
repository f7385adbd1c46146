import { lazy } from 'react';
import { registerPageKind } from '../registry';

registerPageKind('result', lazy(() => import('../StaticPages')));
