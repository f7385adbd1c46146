import { message, Tag } from 'antd';
import { registerWidget } from '@widgets/registry';
import { lazyWidget } from '@widgets/index';
import { http } from '@core/http/client';
import { useDicts } from '@core/dict';

/**
 * Simple cell renderers (column `widget`), registered by name. Each receives `value`, `record`
 * and the column's `widgetProps`. Kept free of Formily so the list chunk stays light.
 */
type CellProps = { value: unknown; record: Record<string, unknown> };

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

const NO_DICTS: string[] = [];

/** A tag: with `dict`, the dictionary item's text and colour (a `colors` entry wins). */
function TagCell({ value, colors, dict }: CellProps & { colors?: Record<string, string>; dict?: string }) {
  const dicts = useDicts(dict ? [dict] : NO_DICTS);
  const s = str(value);
  const item = dict ? dicts[dict]?.find((d) => d.value === s) : undefined;
  return s ? <Tag color={colors?.[s] ?? item?.color}>{item?.text ?? s}</Tag> : null;
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
