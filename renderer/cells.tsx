import { Image, Tag } from 'antd';
import { registerWidget } from '@widgets/registry';
import { API_BASE } from '@/http/client';

/**
 * Simple cell renderers (column `widget`), registered by name. Each receives `value`, `record`
 * and the column's `widgetProps`. Kept free of Formily so the list chunk stays light.
 */
type CellProps = { value: unknown; record: Record<string, unknown> };

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const fileUrl = (p: string) => (/^(https?:|data:|blob:)/.test(p) ? p : `${API_BASE}/sys/common/static/${p.replace(/^\/+/, '')}`);

function TagCell({ value, colors }: CellProps & { colors?: Record<string, string> }) {
  const s = str(value);
  return s ? <Tag color={colors?.[s]}>{s}</Tag> : null;
}

function ImageCell({ value }: CellProps) {
  const first = str(value).split(',')[0];
  return first ? <Image src={fileUrl(first)} height={32} alt="" /> : <span>无图片</span>;
}

function FileCell({ value }: CellProps) {
  const first = str(value).split(',')[0];
  return first ? (
    <a href={fileUrl(first)} target="_blank" rel="noreferrer">
      下载
    </a>
  ) : (
    <span>无文件</span>
  );
}

function YesNoCell({ value }: CellProps) {
  const s = str(value);
  return <span>{s === 'Y' || s === '1' || s === 'true' ? '是' : s === '' ? '' : '否'}</span>;
}

function DateCell({ value }: CellProps) {
  return <span>{str(value).slice(0, 10)}</span>;
}

registerWidget('cell:tag', TagCell);
registerWidget('cell:image', ImageCell);
registerWidget('cell:file', FileCell);
registerWidget('cell:yn', YesNoCell);
registerWidget('cell:date', DateCell);
