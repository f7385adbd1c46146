import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Dropdown } from 'antd';
import { DeleteOutlined, DownloadOutlined, DownOutlined, PlusOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { LazyPopover } from '@core/ui/LazyOverlay';
import { JSuperQuery } from '@widgets/query/JSuperQuery';
import type { ListController, ShownAction } from './useListController';

/**
 * The toolbar above a list: its actions, the advanced query, 批量操作 (with a selection) and 列设置.
 * `embedded` (a region's sub-list without query fields, e.g. a record's 佐证文档) has no advanced query;
 * `cards` (a phone's card view) has no column settings.
 */
export function ListToolbar({ ctl, embedded, cards }: { ctl: ListController; embedded?: boolean; cards?: boolean }) {
  const { pageId, schema, toolbar, batch, selected, run, runBatch, hidden, hideColumns } = ctl;
  const [columnsOpen, setColumnsOpen] = useState(false);
  const superFields = useMemo(
    () => (embedded && !ctl.queryFields.length ? [] : (schema.columns ?? []).filter((c) => !c.widget)).map((c) => ({ value: c.dataIndex, text: c.title, type: c.dict ? 'list' : 'string', dictCode: c.dict })),
    [schema, embedded, ctl.queryFields.length],
  );
  const toolbarButton = (a: ShownAction) => (
    <Button
      key={a.key}
      type={a.primary ? 'primary' : 'default'}
      danger={a.danger}
      disabled={a.denied}
      icon={a.type === 'add' ? <PlusOutlined /> : a.type === 'export' ? <DownloadOutlined /> : a.type === 'import' ? <UploadOutlined /> : undefined}
      onClick={() => void run(a)}
    >
      {a.label}
    </Button>
  );

  return (
    <div className="schema-toolbar" style={{ marginBottom: 16, display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
      {toolbar.map(toolbarButton)}
      {superFields.length > 0 && (
        // The widget library's advanced query: its button is drawn with the toolbar (no lazy swap
        // after the rows: that re-laid out the whole table); its builder loads when first used.
        <JSuperQuery fieldList={superFields} saveCode={`schema:${pageId}`} onSearch={ctl.superSearch} />
      )}
      {selected.length > 0 && batch.length > 0 && (
        <Dropdown
          menu={{
            items: batch.map((a) => ({ key: a.key, label: a.label, disabled: a.denied, icon: a.type === 'batchDelete' ? <DeleteOutlined /> : undefined })),
            onClick: ({ key }) => runBatch(batch.find((x) => x.key === key)!),
          }}
        >
          <Button>
            批量操作 <DownOutlined />
          </Button>
        </Dropdown>
      )}
      <span style={{ flex: 1 }} />
      {!cards && (
        <LazyPopover
          open={columnsOpen}
          onOpenChange={setColumnsOpen}
          placement="bottomRight"
          title="列设置"
          content={
            <Checkbox.Group
              style={{ display: 'flex', flexDirection: 'column' }}
              value={(schema.columns ?? []).filter((c) => !c.hidden && !hidden.includes(c.dataIndex)).map((c) => c.dataIndex)}
              options={(schema.columns ?? []).filter((c) => !c.hidden).map((c) => ({ label: c.title, value: c.dataIndex }))}
              onChange={(v) => hideColumns((schema.columns ?? []).map((c) => c.dataIndex).filter((d) => !v.includes(d)))}
            />
          }
        >
          <Button icon={<SettingOutlined />} aria-label="列设置" />
        </LazyPopover>
      )}
    </div>
  );
}

/** 已选择 N 项 · 清空, above a list whose rows can be selected. */
export function SelectionBar({ ctl }: { ctl: ListController }) {
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      message={
        <span>
          已选择 <a style={{ fontWeight: 600 }}>{ctl.selected.length}</a> 项 <a style={{ marginLeft: 24 }} onClick={() => ctl.setSelected([])}>清空</a>
        </span>
      }
    />
  );
}
