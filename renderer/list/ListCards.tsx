import type { ReactNode } from 'react';
import { Empty, Pagination, Spin } from 'antd';
import type { DataColumn } from '../DataTable';
import type { Row } from '../registry';
import './list-cards.css';

/**
 * A list on a phone as cards (`phoneView: "cards"`): one card per row, the first column as its title, the
 * other columns as label/value lines that wrap (nothing cut, no sideways scrolling), the row's actions
 * as large buttons at its foot. Same columns, renderers and actions as the table.
 */
export function ListCards(props: {
  rowKey: string;
  columns: DataColumn[];
  rows: Row[];
  loading?: boolean;
  actions?: (r: Row) => ReactNode;
  current: number;
  pageSize: number;
  total: number;
  onPage: (page: number, size: number) => void;
}) {
  const { columns, rows } = props;
  const [head, ...rest] = columns.filter((c) => c.key !== 'action');
  const cell = (c: DataColumn, r: Row, i: number): ReactNode => {
    const v = r[String(c.dataIndex)];
    const shown = c.render ? (c.render as (v: unknown, r: Row, i: number) => ReactNode)(v, r, i) : v === null || v === undefined ? '' : String(v);
    return shown === '' || shown === null || shown === undefined ? '—' : shown;
  };
  return (
    <Spin spinning={!!props.loading}>
      <div className="list-cards" data-testid="list-cards">
        {!rows.length && !props.loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />}
        {rows.map((r, i) => (
          <div key={String(r[props.rowKey] ?? i)} className="list-card" data-testid="list-card">
            {head && <div className="list-card-title">{cell(head, r, i)}</div>}
            <dl className="list-card-fields">
              {rest.map((c) => (
                <div key={String(c.key)} className="list-card-field">
                  <dt>{c.title as ReactNode}</dt>
                  <dd>{cell(c, r, i)}</dd>
                </div>
              ))}
            </dl>
            {props.actions && <div className="list-card-actions">{props.actions(r)}</div>}
          </div>
        ))}
        {props.total > props.pageSize && (
          <Pagination className="list-cards-pager" simple current={props.current} pageSize={props.pageSize} total={props.total} onChange={props.onPage} />
        )}
      </div>
    </Spin>
  );
}
