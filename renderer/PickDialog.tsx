import { useEffect, useState } from 'react';
import { App, Spin } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { http } from '@core/http/client';
import { ListPickerModal } from '@widgets/pickers/ListPicker';
import type { ActionSchema, ColumnSchema } from '@shared/page-schema';
import { fetchPageSchema } from './loader';
import { urlsOf } from './scope';
import { fillTemplate, fillUrl } from './template';

type Row = Record<string, unknown>;
interface Source {
  url: string;
  columns: ColumnSchema[];
  searchField?: string;
  searchLabel?: string;
}

const toColumns = (cols: ColumnSchema[]): ColumnsType<Row> =>
  cols.filter((c) => !c.hidden).map((c) => ({ key: c.dataIndex, dataIndex: c.dataIndex, title: c.title, width: c.width, ellipsis: !!c.ellipsis }));

/**
 * The `pick` action's dialog: the widget library's list picker over `listUrl` + `columns` (or the list
 * of the page schema `page`), searchable, multi-select; the picked keys go to `url` as `{ids}` with
 * the parent's fields (`body` template).
 */
export default function PickDialog({ action: a, data, onClose }: { action: ActionSchema; data: Row; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [source, setSource] = useState<Source | null>(null);
  useEffect(() => {
    let live = true;
    if (a.page)
      void fetchPageSchema(a.page).then(
        (s) => {
          if (!live) return;
          const first = s.query?.fields[0];
          setSource({ url: a.listUrl ?? urlsOf(s).list ?? '', columns: a.columns ?? s.columns ?? [], searchField: a.searchField ?? first?.name, searchLabel: a.searchLabel ?? first?.label });
        },
        (e: Error) => message.error(e.message),
      );
    else setSource({ url: a.listUrl ?? '', columns: a.columns ?? [], searchField: a.searchField, searchLabel: a.searchLabel });
    return () => {
      live = false;
    };
  }, [a, message]);
  if (!source) return <Spin />;
  const pickKey = a.pickKey ?? 'id';
  return (
    <ListPickerModal
      open
      title={a.title ?? a.label}
      width={a.width ?? 900}
      url={fillUrl(source.url, data)}
      rowKey={pickKey}
      multiple={a.multiple !== false}
      searchField={source.searchField}
      searchLabel={source.searchLabel}
      params={a.listParams ? (fillTemplate(a.listParams, data) as Row) : undefined}
      columns={toColumns(source.columns)}
      onCancel={() => onClose(false)}
      onOk={(rows) => {
        const all = { ...data, ids: rows.map((r) => String(r[pickKey])), rows };
        const body = a.body ? (fillTemplate(a.body, all) as Row) : { ids: all.ids.join(',') };
        const url = fillUrl(a.url!, all);
        void (a.method === 'put' ? http.put(url, body) : http.post(url, body)).then((r) => {
          if (!r.success) return void message.warning(r.message);
          message.success(r.message || '添加成功！');
          onClose(true);
        });
      }}
    />
  );
}
