import type { AnyExtension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { Table, TableRow, TableCell, TableHeader } from '@tiptap/extension-table';
import Image from '@tiptap/extension-image';

/**
 * The online documents' ProseMirror schema, one definition for the editor (widgets/document) and the
 * server (restore, import, export): headings, lists, quotes, code blocks, links, tables, images.
 * Undo/redo comes from the collaboration extension (Y.UndoManager), so StarterKit's is off.
 * Nodes a schema does not know are dropped when content is parsed: pasted and imported HTML keeps only these.
 */
export function docExtensions(extra: AnyExtension[] = []): AnyExtension[] {
  return [
    StarterKit.configure({ undoRedo: false, link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] } }),
    Table.configure({ resizable: false }),
    TableRow,
    TableHeader,
    TableCell,
    Image.configure({ inline: false, allowBase64: false }),
    ...extra,
  ];
}

/** The Y.XmlFragment the editor binds to (TipTap Collaboration's default `field`). */
export const DOC_FIELD = 'default';
