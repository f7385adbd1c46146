import { EditorContent, useEditor } from '@tiptap/react';
import { docExtensions } from '@shared/doc-schema';
import type { PmNode } from '@shared/doc-text';

/** A document's ProseMirror JSON shown read-only (a version's content). */
export function ReadOnlyDoc({ json }: { json: PmNode }) {
  const editor = useEditor({ extensions: docExtensions(), content: json as never, editable: false, editorProps: { attributes: { class: 'doc-editor-content doc-version' } } }, [json]);
  return <EditorContent editor={editor} />;
}
