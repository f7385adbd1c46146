import { memo, useState } from 'react';
import { Popconfirm } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import type { ActionSchema } from '@shared/page-schema';
import { LazyDropdown, LazyPopconfirm } from '@core/ui/LazyOverlay';
import type { Row } from '../registry';
import { fillText } from '../template';

/**
 * The action column's width: its links (and 更多) on one line as the widest row of the page shows them
 * (14 px per character, 21 px per separator, cell padding), at least 80 px. Actions with a `visible`
 * condition (a workflow's per-status steps) count only on the rows they appear on; before any row, the
 * unconditional ones. No wider than its buttons: a pinned column wider than its links hides the data
 * columns beside it.
 */
const MIN_ACTION_WIDTH = 80; // the 操作 title and one link

export function actionColumnWidth(actions: ActionSchema[], rows: Row[], shown: (r: Row) => ActionSchema[]): number {
  const width = (list: ActionSchema[]) => {
    const inline = list.filter((a) => !a.dropdown).map((a) => a.label.length);
    if (list.some((a) => a.dropdown)) inline.push(3); // 更多 and its arrow
    return Math.max(MIN_ACTION_WIDTH, inline.reduce((w, n) => w + n * 14, 0) + (inline.length - 1) * 21 + 34);
  };
  if (!actions.some((a) => a.visible !== undefined)) return width(actions);
  if (!rows.length) return width(actions.filter((a) => a.visible === undefined));
  return Math.max(...rows.map((r) => width(shown(r))));
}

const ROW_ACTIONS_STYLE = { display: 'inline-flex', alignItems: 'center', gap: 8 } as const;
const SPLIT_STYLE = { color: '#e8e8e8' } as const;

export const RowActions = memo(function RowActions(props: {
  actions: Array<ActionSchema & { denied?: boolean }>;
  record: Row;
  cond: (v: unknown, extra?: Record<string, unknown>) => boolean;
  run: (a: ActionSchema, r?: Row) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<ActionSchema | null>(null);
  const extra = { $record: props.record };
  const list = props.actions; // those this record shows
  const disabled = (a: ActionSchema & { denied?: boolean }) => a.denied || (a.disabled !== undefined && props.cond(a.disabled, extra));
  const inline = list.filter((a) => !a.dropdown);
  const more = list.filter((a) => a.dropdown);
  const asks = (a: ActionSchema) => a.type === 'delete' || !!a.confirm;
  // `{field}` in a row action's confirmation is filled from the row (e.g. 表单开发's sync plan).
  const question = (a: ActionSchema) => (a.confirm ? fillText(a.confirm, props.record) : '确定删除吗?');
  const link = (a: ActionSchema & { denied?: boolean }) => {
    if (disabled(a)) return <span key={a.key} style={{ color: 'rgba(0,0,0,.25)', cursor: 'not-allowed' }}>{a.label}</span>;
    if (asks(a))
      return (
        <LazyPopconfirm key={a.key} title={question(a)} onConfirm={() => void props.run(a, props.record)}>
          <a>{a.label}</a>
        </LazyPopconfirm>
      );
    return (
      <a key={a.key} onClick={() => void props.run(a, props.record)}>
        {a.label}
      </a>
    );
  };
  const items = inline.map(link);
  if (more.length > 0) {
    // A confirmation asked from the 更多 menu opens at 更多 itself: the menu item it came from is gone
    // as soon as the menu closes (at once, without animations), and a popup anchored there would be lost.
    const trigger = (
      <a>
        更多 <DownOutlined />
      </a>
    );
    const ask = confirming && (
      <Popconfirm key="more" open title={question(confirming)} onOpenChange={(o) => !o && setConfirming(null)} onConfirm={() => (setConfirming(null), void props.run(confirming, props.record))}>
        {trigger}
      </Popconfirm>
    );
    items.push(
      ask || (
        <LazyDropdown
          key="more"
          menu={{ items: more.map((a) => ({ key: a.key, label: !disabled(a) && asks(a) ? <a onClick={() => setConfirming(a)}>{a.label}</a> : link(a) })) }}
        >
          {trigger}
        </LazyDropdown>
      ),
    );
  }
  // Plain markup, not antd Space: one Space per row costs a style-token lookup per row.
  return (
    <span className="schema-row-actions" style={ROW_ACTIONS_STYLE}>
      {items.flatMap((el, i) => (i ? [<span key={`split${i}`} style={SPLIT_STYLE}>|</span>, el] : [el]))}
    </span>
  );
});
