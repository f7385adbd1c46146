import { lazy, Suspense } from 'react';
import { Alert, Card, Tag } from 'antd';
import type { PageSchema } from '@shared/page-schema';
import { getWidget } from '@widgets/registry';
import './cells';
import type { PageKindProps } from './registry';
import { QueryForm } from './list/QueryForm';
import { ListTable, useIsPhone } from './list/ListTable';
import { ListToolbar, SelectionBar } from './list/ListToolbar';
import { useListController } from './list/useListController';

// What other modules take from the list page: its form modes, default actions, query inputs and action column width.
export { defaultActions, type FormMode } from './list/useListController';
export { queryControl } from './list/QueryForm';
export { actionColumnWidth } from './list/RowActions';

const FormModal = lazy(() => import('./FormModal'));

/** `header`: a registered widget above the table with `{...widgetProps, query}`. */
function ListHeader({ header, query }: { header: NonNullable<PageSchema['header']>; query: Record<string, unknown> }) {
  const W = getWidget(header.widget);
  return W ? <W {...header.widgetProps} query={query} /> : <Alert type="error" style={{ marginBottom: 16 }} message={`未注册的组件：${header.widget}`} />;
}

/**
 * A list page (kinds list, tree-list, master-detail; embedded as a region): the list controller
 * (renderer/list/useListController.ts) and its views — query form, toolbar, selection bar, table.
 */
export function ListPage({ pageId, schema, params, embedded }: PageKindProps) {
  const ctl = useListController({ pageId, schema, params });
  const { queryFields, toolbar, batch, form } = ctl;
  // On a phone the rows come first: one query field shows, the rest wait behind 展开.
  const phone = useIsPhone();
  const visibleCount = Math.min(schema.query?.visibleCount ?? 3, phone ? 1 : Infinity);
  return (
    <Card bordered={false} title={embedded ? undefined : schema.title} size={embedded ? 'small' : undefined} styles={embedded ? { body: { padding: 0 } } : undefined}>
      {schema.hint && <Alert className="schema-hint" type="info" showIcon style={{ marginBottom: 16 }} message={schema.hint} />}
      {queryFields.length > 0 && <QueryForm fields={queryFields} visibleCount={visibleCount} dicts={ctl.dicts} onSearch={ctl.search} onReset={ctl.reset} />}
      {schema.header && ctl.listed && <ListHeader header={schema.header} query={ctl.listParams} />}
      {!!ctl.applied?.length && (
        // What the server counted (a drill-down's term, teacher, grade): the rows are never read without it.
        <div className="schema-applied" data-testid="applied-filters" style={{ marginBottom: 12 }}>
          <span style={{ color: 'rgba(0,0,0,.45)', marginRight: 8 }}>筛选条件：</span>
          {ctl.applied.map((f) => (
            <Tag key={f.label} color="blue" bordered={false}>
              {f.label}：{f.text}
            </Tag>
          ))}
        </div>
      )}
      {/* A plain sub-list (a region without query fields or toolbar actions) is just its table. */}
      {!(embedded && !queryFields.length && !toolbar.length) && <ListToolbar ctl={ctl} embedded={embedded} cards={phone && schema.phoneView === 'cards' && !ctl.tree} />}
      {(batch.length > 0 || schema.selection) && <SelectionBar ctl={ctl} />}
      <ListTable ctl={ctl} />
      <Suspense fallback={null}>
        {form && <FormModal schema={schema} mode={form.mode} record={form.record} onClose={ctl.closeForm} onSaved={ctl.formSaved} />}
        {ctl.dialogs}
      </Suspense>
    </Card>
  );
}
