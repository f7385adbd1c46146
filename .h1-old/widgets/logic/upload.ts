/** Upload file state machine (SPEC §4): empty → uploading(percent) → done(path) | error(message). */
export type UploadStatus = 'uploading' | 'done' | 'error';

export interface UploadFile {
  uid: string;
  name: string;
  type?: string;
  size?: number;
  status: UploadStatus;
  percent: number;
  path?: string;
  url?: string;
  message?: string;
}

export const UPLOAD_DEFAULT_BIZ = 'temp';
export const UPLOAD_DEFAULT_TEXT = '点击上传';
export const UNKNOWN_ERROR = '未知错误';

export type UploadEvent =
  | { type: 'start'; uid: string; name: string; size?: number; fileType?: string }
  | { type: 'progress'; uid: string; percent: number }
  | { type: 'response'; uid: string; body: { success?: boolean; message?: string } | undefined; urlOf?: (path: string) => string }
  | { type: 'fail'; uid: string; message?: string }
  | { type: 'remove'; uid: string };

export function uploadReducer(files: UploadFile[], e: UploadEvent): UploadFile[] {
  const patch = (p: Partial<UploadFile>) => files.map((f) => (f.uid === e.uid ? { ...f, ...p } : f));
  switch (e.type) {
    case 'start':
      return [...files, { uid: e.uid, name: e.name, size: e.size, type: e.fileType, status: 'uploading', percent: 0 }];
    case 'progress':
      return patch({ percent: Math.max(0, Math.min(100, e.percent)) });
    case 'response':
      // success:false counts as an error.
      if (e.body?.success) {
        const path = e.body.message ?? '';
        return patch({ status: 'done', percent: 100, path, url: e.urlOf ? e.urlOf(path) : path, message: undefined });
      }
      return patch({ status: 'error', message: e.body?.message || UNKNOWN_ERROR });
    case 'fail':
      return patch({ status: 'error', message: e.message || UNKNOWN_ERROR });
    case 'remove':
      return files.filter((f) => f.uid !== e.uid);
  }
}

/** The value to emit: comma-joined paths, only once every file is done (undefined = not yet). */
export function uploadValue(files: UploadFile[]): string | undefined {
  if (files.some((f) => f.status !== 'done')) return undefined;
  return files.map((f) => f.path).join(',');
}

/** Files from a stored comma-joined value. */
export function filesFromValue(value: unknown, urlOf: (path: string) => string = (p) => p): UploadFile[] {
  if (typeof value !== 'string' || value === '') return [];
  return value.split(',').filter(Boolean).map((path, i) => ({
    uid: `v${i}-${path}`,
    name: path.slice(path.lastIndexOf('/') + 1),
    status: 'done' as const,
    percent: 100,
    path,
    url: urlOf(path),
  }));
}

export function isImageFile(type: string | undefined, name: string): boolean {
  if (type) return type.startsWith('image/');
  return /\.(png|jpe?g|gif|bmp|webp|svg)$/i.test(name);
}

/** Whether another file may be added under a number limit (0 = unlimited). */
export function canAddFile(count: number, limit = 0): boolean {
  return limit <= 0 || count < limit;
}
