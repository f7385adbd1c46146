// Page filters and data-bound panels of figures, charts, tables and links (renderer/Dashboard.tsx).
import { lazy } from 'react';
import { Result } from 'antd';
import { getWidget } from '@widgets/registry';
import '@widgets/index';
import { registerPageKind, type PageKindProps } from '../registry';

const Dashboard = lazy(() => import('../Dashboard'));

/**
 * A page body drawn by one registered widget (no panels: the timetable screens, 扫码听课) does not load
 * the panels' code (tables, charts): on a phone's first visit that is a chunk and a round trip less.
 */
function DashboardKind(props: PageKindProps) {
  const { schema } = props;
  if (schema.panels || !schema.widget) return <Dashboard {...props} />;
  const W = getWidget(schema.widget);
  return W ? <W schema={schema} pageId={props.pageId} {...schema.widgetProps} /> : <Result status="warning" title="页面不存在" subTitle="该页面的组件无法显示，请联系管理员" />;
}

registerPageKind('dashboard', DashboardKind);
