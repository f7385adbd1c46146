import { useEffect, useState } from 'react';
import { Image } from 'antd';
import { axiosInstance, http } from '@/http/client';

/**
 * File-storage cells. Stored files need the session: the preview fetches the image with the token
 * header into an object URL (no token in any URL), the download goes through http.download.
 */
type CellProps = { value?: unknown; record?: Record<string, unknown> };
const staticPath = (p: string) => `/sys/common/static/${p.split('/').map(encodeURIComponent).join('/')}`;

export function StoredImageCell({ value, record }: CellProps) {
  const path = String(value ?? '');
  const isImage = String(record?.fileType ?? '').startsWith('image/');
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!path || !isImage) return;
    let url: string | undefined;
    let live = true;
    void axiosInstance
      .get(staticPath(path), { responseType: 'blob' })
      .then((r) => {
        url = URL.createObjectURL(r.data as Blob);
        if (live) setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, isImage]);
  if (!isImage) return <span style={{ color: 'rgba(0,0,0,.45)' }}>非图片</span>;
  return src ? <Image src={src} height={32} alt={String(record?.fileName ?? '')} preview={{ mask: '预览' }} /> : <span>加载中</span>;
}

export function StoredFileDownload({ value, record }: CellProps) {
  const path = String(value ?? '');
  if (!path) return <span>无文件</span>;
  return <a onClick={() => void http.download(staticPath(path), undefined, String(record?.fileName ?? path.split('/').pop()))}>下载</a>;
}
