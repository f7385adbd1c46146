import { useEffect, useReducer, useRef } from 'react';
import { Button, Image, message, Progress, Space, Tooltip, Upload } from 'antd';
import { DeleteOutlined, LeftOutlined, PlusOutlined, RightOutlined, UploadOutlined } from '@ant-design/icons';
import { API_BASE, fileUrl, http } from '@core/http/client';
import { canAddFile, filesFromValue, isImageFile, UPLOAD_DEFAULT_BIZ, UPLOAD_DEFAULT_TEXT, uploadReducer, uploadValue, type UploadEvent, type UploadFile } from '../logic/upload';
import { moveImage } from '../logic/inputs';

export const UPLOAD_URL = '/sys/common/upload';
/** Public URL of a stored path. */
/** Stored content (editors) keeps the plain path URL; previews use `fileUrl` (with the session token). */
export const storedFileUrl = (path: string) => (/^https?:\/\//.test(path) ? path : `${API_BASE}/sys/common/static/${path}`);

export interface JUploadProps {
  /** Comma-joined stored paths. */
  value?: string;
  onChange?: (v: string | undefined) => void;
  /** Sub-folder on the server (default temp). */
  bizPath?: string;
  /** Maximum number of files; 0 = unlimited. */
  number?: number;
  /** Image mode: only images (请上传图片), thumbnails, ordering. */
  image?: boolean;
  text?: string;
  disabled?: boolean;
  /** Extra check before upload; return a message to reject. */
  beforeUpload?: (file: File) => string | undefined | Promise<string | undefined>;
  /** Cell mode: adds isup=1 to the upload. */
  cell?: boolean;
  /** Send the X-Access-Token header with the upload (default true; false uploads anonymously, which the server refuses). */
  token?: boolean;
}

type Action = UploadEvent | { type: 'reset'; files: UploadFile[] };
const reducer = (files: UploadFile[], a: Action) => (a.type === 'reset' ? a.files : uploadReducer(files, a));

/** File or image upload with the SPEC §4 state machine; the value is emitted once every file is done. */
export function JUpload({ value, onChange, bizPath = UPLOAD_DEFAULT_BIZ, number = 0, image = false, text = UPLOAD_DEFAULT_TEXT, disabled, beforeUpload, cell, token = true }: JUploadProps) {
  const [files, dispatch] = useReducer(reducer, value, (v) => filesFromValue(v, fileUrl));
  const emitted = useRef(value ?? '');
  // An outside change of the value replaces the list.
  useEffect(() => {
    if ((value ?? '') !== emitted.current) {
      emitted.current = value ?? '';
      dispatch({ type: 'reset', files: filesFromValue(value, fileUrl) });
    }
  }, [value]);
  useEffect(() => {
    const v = uploadValue(files);
    if (v !== undefined && v !== emitted.current) {
      emitted.current = v;
      onChange?.(v || undefined);
    }
  }, [files, onChange]);

  const start = async (file: File) => {
    if (image && !isImageFile(file.type, file.name)) return void message.warning('请上传图片');
    const custom = await beforeUpload?.(file);
    if (custom) return void message.warning(custom);
    const uid = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    dispatch({ type: 'start', uid, name: file.name, size: file.size, fileType: file.type });
    const form = new FormData();
    form.append('file', file);
    form.append('biz', bizPath);
    if (cell) form.append('isup', '1');
    try {
      const body = await http.upload(UPLOAD_URL, form, (percent) => dispatch({ type: 'progress', uid, percent }), { withToken: token });
      dispatch({ type: 'response', uid, body, urlOf: fileUrl });
    } catch (e) {
      dispatch({ type: 'fail', uid, message: (e as Error).message });
    }
  };

  const full = !canAddFile(files.length, number);
  const remove = (uid: string) => dispatch({ type: 'remove', uid });
  const move = (i: number, dir: 'left' | 'right') => {
    try {
      dispatch({ type: 'reset', files: moveImage(files, i, dir) });
    } catch (e) {
      void message.warning((e as Error).message);
    }
  };
  const picker = (
    <Upload
      accept={image ? 'image/*' : undefined}
      multiple={number !== 1}
      showUploadList={false}
      disabled={disabled || full}
      beforeUpload={(f) => {
        void start(f);
        return false;
      }}
    >
      {image ? (
        <div className="j-upload-image-add" style={{ width: 104, height: 104, border: '1px dashed #d9d9d9', borderRadius: 8, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', cursor: 'pointer', background: '#fafafa' }}>
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>{text === UPLOAD_DEFAULT_TEXT ? '上传' : text}</div>
        </div>
      ) : (
        <Button icon={<UploadOutlined />} disabled={disabled || full}>{text}</Button>
      )}
    </Upload>
  );

  if (image)
    return (
      <Space wrap align="start" className="j-upload">
        {files.map((f, i) => (
          <div key={f.uid} className={`j-upload-item j-upload-${f.status}`} style={{ width: 104, height: 104, border: `1px solid ${f.status === 'error' ? '#ff4d4f' : '#d9d9d9'}`, borderRadius: 8, padding: 4, position: 'relative', textAlign: 'center' }}>
            {f.status === 'done' && <Image src={f.url} alt={f.name} width={94} height={70} style={{ objectFit: 'cover' }} />}
            {f.status === 'uploading' && <Progress type="circle" percent={f.percent} size={64} />}
            {f.status === 'error' && <Tooltip title={f.message}><div style={{ color: '#ff4d4f', fontSize: 12, paddingTop: 24 }}>{f.message}</div></Tooltip>}
            {!disabled && (
              <Space size={2} style={{ position: 'absolute', bottom: 2, left: 0, right: 0, justifyContent: 'center' }}>
                <Button size="small" type="text" aria-label="左移" icon={<LeftOutlined />} onClick={() => move(i, 'left')} />
                <Button size="small" type="text" aria-label="删除" icon={<DeleteOutlined />} onClick={() => remove(f.uid)} />
                <Button size="small" type="text" aria-label="右移" icon={<RightOutlined />} onClick={() => move(i, 'right')} />
              </Space>
            )}
          </div>
        ))}
        {!full && !disabled && picker}
      </Space>
    );

  return (
    <div className="j-upload">
      {!full && picker}
      <ul style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
        {files.map((f) => (
          <li key={f.uid} className={`j-upload-item j-upload-${f.status}`} style={{ display: 'flex', alignItems: 'center', gap: 8, color: f.status === 'error' ? '#ff4d4f' : undefined }}>
            {f.status === 'done' ? <a href={f.url} target="_blank" rel="noreferrer">{f.name}</a> : <span>{f.name}</span>}
            {f.status === 'uploading' && <Progress percent={f.percent} size="small" style={{ width: 120, margin: 0 }} />}
            {f.status === 'error' && <span>{f.message}</span>}
            {!disabled && <Button size="small" type="text" aria-label="删除" icon={<DeleteOutlined />} onClick={() => remove(f.uid)} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Image upload: JUpload in image mode. */
export function JImageUpload(props: Omit<JUploadProps, 'image'>) {
  return <JUpload {...props} image />;
}

export default JUpload;
