import { message, Tag } from 'antd';
import { registerWidget } from '@widgets/registry';
import { lazyWidget } from '@widgets/index';
import { http } from '@core/http/client';

/**
 * Simple cell renderers (column `widget`), registered by name. Each receives `value`, `record`
 * and the column's `widgetProps`. Kept free of Formily so the list chunk stays light.
 */
type CellProps = { value: unknown; record: Record<string, unknown> };

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function TagCell({ value, colors }: CellProps & { colors?: Record<string, string> }) {
  const s = str(value);
  return s ? <Tag color={colors?.[s]}>{s}</Tag> : null;
}

/** Downloads the first stored file under the record's `fileName` (the stored name is a random one). */
function FileCell({ value, record }: CellProps) {
  const first = str(value).split(',')[0];
  if (!first) return <span>无文件</span>;
  const name = str(record.fileName) || first.split('/').pop()!;
  const save = () => http.download(`/sys/common/static/${first.split('/').map(encodeURIComponent).join('/')}`, undefined, name).catch((e: Error) => message.error(e.message));
  return <a onClick={() => void save()}>下载</a>;
}

function YesNoCell({ value }: CellProps) {
  const s = str(value);
  return <span>{s === 'Y' || s === '1' || s === 'true' ? '是' : s === '' ? '' : '否'}</span>;
}

function DateCell({ value }: CellProps) {
  return <span>{str(value).slice(0, 10)}</span>;
}

registerWidget('cell:tag', TagCell);
registerWidget('cell:image', lazyWidget(() => import('./ImageCell'), 'ImageCell'));
registerWidget('cell:file', FileCell);
registerWidget('cell:yn', YesNoCell);
registerWidget('cell:date', DateCell);
