import { useMemo, useRef } from 'react';
import ReactQuill from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';
import { message } from 'antd';
import { http } from '@core/http/client';
import { storedFileUrl, UPLOAD_URL } from '../upload/JUpload';

export const EDITOR_HEIGHT = 300;

export interface JEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  height?: number;
  disabled?: boolean;
  placeholder?: string;
}

/** Rich-text editor (height 300); images upload with biz=jeditor&jeditor=1. */
export function JEditor({ value, onChange, height = EDITOR_HEIGHT, disabled, placeholder = '请输入内容' }: JEditorProps) {
  const ref = useRef<ReactQuill>(null);
  const modules = useMemo(
    () => ({
      toolbar: {
        container: [[{ header: [1, 2, 3, false] }], ['bold', 'italic', 'underline', 'strike'], [{ color: [] }, { background: [] }], [{ list: 'ordered' }, { list: 'bullet' }], [{ align: [] }], ['link', 'image', 'blockquote', 'code-block'], ['clean']],
        handlers: {
          image: () => {
            const input = document.createElement('input');
            input.type = 'file';
            input.accept = 'image/*';
            input.onchange = async () => {
              const f = input.files?.[0];
              if (!f) return;
              if (!f.type.startsWith('image/')) return void message.warning('请上传图片');
              const form = new FormData();
              form.append('file', f);
              form.append('biz', 'jeditor');
              form.append('jeditor', '1');
              const r = await http.upload(UPLOAD_URL, form);
              if (!r.success) return void message.error(r.message || '上传失败');
              const q = ref.current?.getEditor();
              const at = q?.getSelection(true)?.index ?? q?.getLength() ?? 0;
              q?.insertEmbed(at, 'image', storedFileUrl(r.message), 'user');
            };
            input.click();
          },
        },
      },
    }),
    [],
  );
  return (
    <div className="j-editor" style={{ height: height + 42 }}>
      <ReactQuill ref={ref} theme="snow" value={value ?? ''} readOnly={disabled} placeholder={placeholder} modules={modules} onChange={(html) => onChange?.(html)} style={{ height }} />
    </div>
  );
}

export default JEditor;
