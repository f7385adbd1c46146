import { Image } from 'antd';
import { fileUrl } from '@core/http/client';

/**
 * The `cell:image` cell, in a chunk of its own (antd's Image and its preview are loaded by lists
 * that show images only): the first stored image; a record whose `fileType` says it is no image shows 非图片.
 */
export function ImageCell({ value, record }: { value: unknown; record: Record<string, unknown> }) {
  const first = String(value ?? '').split(',')[0];
  if (!first) return <span>无图片</span>;
  if (record.fileType && !String(record.fileType).startsWith('image/')) return <span style={{ color: 'rgba(0,0,0,.45)' }}>非图片</span>;
  return <Image src={fileUrl(first)} height={32} alt={String(record.fileName ?? '')} preview={{ mask: '预览' }} />;
}
