import { useRef } from 'react';
import MDEditor, { type ICommand, type TextAreaTextApi } from '@uiw/react-md-editor';
import * as cn from '@uiw/react-md-editor/commands-cn';
import '@uiw/react-md-editor/markdown-editor.css';
import { message } from 'antd';
import { http } from '@core/http/client';
import { storedFileUrl, UPLOAD_URL } from '../upload/JUpload';

export const MD_MIN_HEIGHT = 200;
export const MD_DEFAULT_HEIGHT = 300;

const indent: ICommand = {
  name: 'indent',
  keyCommand: 'indent',
  buttonProps: { 'aria-label': '缩进', title: '缩进' },
  icon: <span style={{ fontSize: 12 }}>⇥</span>,
  execute: (state, api) => {
    const text = state.selectedText || '';
    api.replaceSelection(text.split('\n').map((l) => `    ${l}`).join('\n'));
  },
};

export interface JMarkdownEditorProps {
  value?: string;
  onChange?: (v: string) => void;
  height?: number;
  bizPath?: string;
  disabled?: boolean;
}

/** Markdown editor (zh-CN toolbar of SPEC §9); the image button uploads and inserts at the cursor. */
export function JMarkdownEditor({ value, onChange, height = MD_DEFAULT_HEIGHT, bizPath = 'temp', disabled }: JMarkdownEditorProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const apiRef = useRef<TextAreaTextApi | null>(null);
  const image: ICommand = {
    name: 'image-upload',
    keyCommand: 'image-upload',
    buttonProps: { 'aria-label': '上传图片', title: '上传图片' },
    icon: cn.image.icon,
    execute: (_state, api) => {
      apiRef.current = api;
      fileInput.current?.click();
    },
  };
  const upload = async (file: File) => {
    if (!file.type.startsWith('image/')) return void message.warning('请上传图片');
    const form = new FormData();
    form.append('file', file);
    form.append('biz', bizPath);
    const r = await http.upload(UPLOAD_URL, form);
    if (!r.success) return void message.error(r.message || '上传失败');
    apiRef.current?.replaceSelection(`![${file.name}](${storedFileUrl(r.message)})`);
  };
  return (
    <div data-color-mode="light" className="j-markdown">
      <MDEditor
        value={value ?? ''}
        onChange={(v) => onChange?.(v ?? '')}
        height={Math.max(MD_MIN_HEIGHT, height)}
        minHeight={MD_MIN_HEIGHT}
        preview={disabled ? 'preview' : 'live'}
        textareaProps={{ placeholder: '请输入内容', disabled }}
        commands={[cn.title, cn.bold, cn.italic, cn.strikethrough, cn.hr, cn.quote, cn.divider, cn.unorderedListCommand, cn.orderedListCommand, cn.checkedListCommand, indent, cn.divider, cn.table, cn.link, cn.code, cn.codeBlock, image]}
        extraCommands={[cn.codeEdit, cn.codeLive, cn.codePreview, cn.fullscreen]}
      />
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void upload(f);
        }}
      />
    </div>
  );
}

export default JMarkdownEditor;
