import { lazy } from 'react';
import { registerWidget } from '@widgets/registry';
import { lazyWidget } from '@widgets/index';
import { registerPageKind } from '../registry';

registerPageKind('report', lazy(() => import('../StaticPages')));
// 报表配置's builder (issue 31): opened by a `widget` action of the report list (online/reportHead); lazy.
registerWidget('ReportBuilder', lazyWidget(() => import('../report/ReportBuilder'), 'ReportBuilder'));
