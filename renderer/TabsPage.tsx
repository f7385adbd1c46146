import { Alert, Card, Spin, Tabs } from 'antd';
import type { TabSchema } from '@shared/page-schema';
import { useRecord } from './DetailPage';
import type { PageKindProps, Row } from './registry';
import { Region } from './Region';
import { Sections } from './Sections';

/** A tab of sections: the record's (loaded like a detail page's). */
function SectionsTab({ tab, record, error }: { tab: TabSchema; record?: Row; error?: string }) {
  if (error) return <Alert type="warning" showIcon message={error} />;
  if (!record) return <Spin />;
  return <Sections sections={tab.sections ?? []} record={record} />;
}

/**
 * tabs: each tab is a page (a region: `params` bound from the record — the parent's when the tabs are a
 * region themselves, e.g. a row's drawer) or sections of the record. A tab is drawn when first chosen,
 * and dropped when another one is.
 */
export default function TabsPage({ schema, params, parent, embedded }: PageKindProps) {
  const tabs = schema.tabs ?? [];
  const needsRecord = tabs.some((t) => t.sections);
  // Only tabs with sections read the record (loaded when the schema has api.queryById, else the parent).
  const { record, error } = useRecord(needsRecord ? schema : { ...schema, api: undefined, resource: undefined }, params, parent);
  const host = needsRecord ? record : parent;
  const items = tabs.map((t, i) => ({
    key: t.key ?? t.page ?? String(i),
    label: t.label,
    children: t.page ? <Region region={{ page: t.page, params: t.params }} parent={host} /> : <SectionsTab tab={t} record={record} error={error} />,
  }));
  const body = <Tabs className="schema-tabs" destroyOnHidden items={items} />;
  if (embedded) return body;
  return (
    // The tab bar is the card's header (the page title is in the breadcrumb and the page tab).
    <Card variant="borderless" styles={{ body: { paddingTop: 8 } }}>
      {body}
    </Card>
  );
}
