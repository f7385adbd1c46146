import { App, Button, Divider, Dropdown, Tooltip } from 'antd';
import type { Editor } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import { http } from '@core/http/client';

/** Images larger than this are refused before upload (the file service has its own, larger limit). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The editor's formatting bar: headings, marks, lists, quote, code block, link, table, image, undo/redo. */
export function DocToolbar({ editor, docId }: { editor: Editor; docId: string }) {
  const { message, modal } = App.useApp();
  const st = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      underline: e.isActive('underline'),
      code: e.isActive('code'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      link: e.isActive('link'),
      table: e.isActive('table'),
    }),
  });
  const c = () => editor.chain().focus();
  const b = (key: string, label: string, active: boolean, run: () => void, tip?: string) => (
    <Tooltip title={tip ?? label} key={key}>
      <Button size="small" type={active ? 'primary' : 'text'} onMouseDown={(e) => e.preventDefault()} onClick={run} data-testid={`tb-${key}`}>
        {label}
      </Button>
    </Tooltip>
  );
  const uploadImage = () => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = 'image/png,image/jpeg,image/gif';
    input.onchange = async () => {
      const f = input.files?.[0];
      if (!f) return;
      if (f.size > MAX_IMAGE_BYTES) return void message.warning(`图片不能超过 ${MAX_IMAGE_BYTES / 1024 / 1024}MB`);
      const form = new FormData();
      form.append('biz', 'docs');
      form.append('file', f);
      const r = await http.upload<unknown>('/sys/common/upload', form);
      if (r.success) c().setImage({ src: r.message, alt: f.name }).run();
      else message.warning(r.message);
    };
    input.click();
  };
  const setLink = () => {
    let href = (editor.getAttributes('link').href as string) ?? '';
    modal.confirm({
      title: '链接地址',
      content: <input className="ant-input" defaultValue={href} placeholder="https://" onChange={(e) => (href = e.target.value)} />,
      onOk: () => {
        if (!href) return void c().unsetLink().run();
        if (!/^(https?:\/\/|mailto:)/i.test(href)) return void message.warning('只支持 http(s) 或 mailto 链接');
        c().extendMarkRange('link').setLink({ href }).run();
      },
    });
  };
  void docId;
  return (
    <div className="doc-toolbar" role="toolbar">
      {b('h1', 'H1', st.h1, () => c().toggleHeading({ level: 1 }).run(), '一级标题')}
      {b('h2', 'H2', st.h2, () => c().toggleHeading({ level: 2 }).run(), '二级标题')}
      {b('h3', 'H3', st.h3, () => c().toggleHeading({ level: 3 }).run(), '三级标题')}
      <Divider type="vertical" />
      {b('bold', 'B', st.bold, () => c().toggleBold().run(), '加粗')}
      {b('italic', 'I', st.italic, () => c().toggleItalic().run(), '斜体')}
      {b('underline', 'U', st.underline, () => c().toggleUnderline().run(), '下划线')}
      {b('strike', 'S', st.strike, () => c().toggleStrike().run(), '删除线')}
      {b('code', '<>', st.code, () => c().toggleCode().run(), '行内代码')}
      <Divider type="vertical" />
      {b('bullet', '• 列表', st.bullet, () => c().toggleBulletList().run(), '无序列表')}
      {b('ordered', '1. 列表', st.ordered, () => c().toggleOrderedList().run(), '有序列表')}
      {b('quote', '引用', st.quote, () => c().toggleBlockquote().run())}
      {b('codeBlock', '代码块', st.codeBlock, () => c().toggleCodeBlock().run())}
      {b('link', '链接', st.link, setLink)}
      {b('image', '图片', false, uploadImage)}
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'insert', label: '插入表格（3×3）', onClick: () => c().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
            { key: 'row', label: '下方插入行', disabled: !st.table, onClick: () => c().addRowAfter().run() },
            { key: 'col', label: '右侧插入列', disabled: !st.table, onClick: () => c().addColumnAfter().run() },
            { key: 'delRow', label: '删除行', disabled: !st.table, onClick: () => c().deleteRow().run() },
            { key: 'delCol', label: '删除列', disabled: !st.table, onClick: () => c().deleteColumn().run() },
            { key: 'header', label: '切换表头行', disabled: !st.table, onClick: () => c().toggleHeaderRow().run() },
            { key: 'del', label: '删除表格', danger: true, disabled: !st.table, onClick: () => c().deleteTable().run() },
          ],
        }}
      >
        <Button size="small" type={st.table ? 'primary' : 'text'} data-testid="tb-table">
          表格
        </Button>
      </Dropdown>
      <Divider type="vertical" />
      {b('undo', '撤销', false, () => c().undo().run())}
      {b('redo', '重做', false, () => c().redo().run())}
    </div>
  );
}
