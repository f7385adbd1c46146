import { Card, Tabs } from 'antd';
import { SchemaPage } from './SchemaPage';

/** Several existing page schemas as tabs of one screen (e.g. the timetable's base data). */
export function PageTabs({ tabs }: { tabs: Array<{ key?: string; label: string; page: string }> }) {
  return (
    <Card variant="borderless" styles={{ body: { paddingTop: 8 } }}>
      <Tabs destroyOnHidden items={(tabs ?? []).map((t) => ({ key: t.key ?? t.page, label: t.label, children: <SchemaPage pageId={t.page} /> }))} />
    </Card>
  );
}
