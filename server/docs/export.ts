import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import type { ServerContext } from '../context.js';
import { storedPath } from '../sys/files.js';
import type { PmNode } from '../../shared/doc-text.js';

/**
 * Export of a document's ProseMirror JSON to .docx (docx 9, CJK text in SimSun through `eastAsia`)
 * and PDF (pdfmake 0.3 server-side with the Noto Sans SC font of @embedpdf/fonts-sc; no URL or
 * file access from the document definition — images are read here and passed as data).
 */
const FONT = { ascii: 'Calibri', hAnsi: 'Calibri', eastAsia: 'SimSun' };
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];
const MAX_IMAGE_WIDTH = 560;

interface Img {
  data: Buffer;
  type: 'png' | 'jpg' | 'gif' | 'bmp';
  width: number;
  height: number;
}

/** Reads a stored image of the document (a path of the file service; anything else is skipped). */
async function loadImage(ctx: ServerContext, src: unknown): Promise<Img | null> {
  if (typeof src !== 'string' || !src || /^[a-z]+:/i.test(src) || src.includes('..')) return null;
  const rel = src.replace(/^.*\/sys\/common\/static\//, '').split('?')[0]!;
  try {
    const data = await readFile(storedPath(ctx, rel));
    const size = imageSize(data);
    if (!size) return null;
    const scale = Math.min(1, MAX_IMAGE_WIDTH / size.width);
    return { data, type: size.type, width: Math.round(size.width * scale), height: Math.round(size.height * scale) };
  } catch {
    return null;
  }
}

/** Width and height of a PNG, JPEG or GIF from its header. */
export function imageSize(b: Buffer): { width: number; height: number; type: Img['type'] } | null {
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), type: 'png' };
  if (b.length > 10 && b.toString('ascii', 0, 3) === 'GIF') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8), type: 'gif' };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7), type: 'jpg' };
      i += 2 + len;
    }
  }
  return null;
}

type Marks = NonNullable<PmNode['marks']>;
const has = (marks: Marks | undefined, t: string) => !!marks?.some((m) => m.type === t);

function runs(nodes: PmNode[] | undefined, extra: { bold?: boolean } = {}): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const n of nodes ?? []) {
    if (n.type === 'hardBreak') {
      out.push(new TextRun({ text: '', break: 1 }));
      continue;
    }
    if (n.type !== 'text') continue;
    const run = new TextRun({
      text: n.text ?? '',
      font: has(n.marks, 'code') ? { ascii: 'Consolas', hAnsi: 'Consolas', eastAsia: 'SimSun' } : FONT,
      bold: extra.bold || has(n.marks, 'bold'),
      italics: has(n.marks, 'italic'),
      strike: has(n.marks, 'strike'),
      underline: has(n.marks, 'underline') ? {} : undefined,
    });
    const link = n.marks?.find((m) => m.type === 'link')?.attrs?.href;
    out.push(typeof link === 'string' && /^(https?|mailto):/i.test(link) ? new ExternalHyperlink({ link, children: [run] }) : run);
  }
  return out;
}

async function blocks(ctx: ServerContext, nodes: PmNode[] | undefined, list?: { ordered: boolean; level: number }): Promise<Array<Paragraph | Table>> {
  const out: Array<Paragraph | Table> = [];
  for (const n of nodes ?? []) {
    switch (n.type) {
      case 'heading':
        out.push(new Paragraph({ heading: HEADINGS[Math.min(6, Number(n.attrs?.level) || 1) - 1], children: runs(n.content) }));
        break;
      case 'paragraph':
        out.push(
          new Paragraph({
            children: runs(n.content),
            ...(list ? (list.ordered ? { numbering: { reference: 'ordered', level: list.level } } : { bullet: { level: list.level } }) : {}),
          }),
        );
        break;
      case 'codeBlock':
        for (const line of (n.content ?? []).map((c) => c.text ?? '').join('').split('\n'))
          out.push(new Paragraph({ children: [new TextRun({ text: line, font: { ascii: 'Consolas', hAnsi: 'Consolas', eastAsia: 'SimSun' }, size: 20 })], shading: { fill: 'F5F5F5' } }));
        break;
      case 'blockquote':
        out.push(...(await blocks(ctx, n.content)).map((b) => b));
        break;
      case 'bulletList':
      case 'orderedList':
        for (const item of n.content ?? [])
          out.push(...(await blocks(ctx, item.content, { ordered: n.type === 'orderedList', level: Math.min(8, (list?.level ?? -1) + 1) })));
        break;
      case 'horizontalRule':
        out.push(new Paragraph({ border: { bottom: { style: 'single', size: 6, color: '999999', space: 1 } }, children: [] }));
        break;
      case 'image': {
        const img = await loadImage(ctx, n.attrs?.src);
        if (img) out.push(new Paragraph({ alignment: AlignmentType.CENTER, children: [new ImageRun({ type: img.type, data: img.data, transformation: { width: img.width, height: img.height } })] }));
        break;
      }
      case 'table': {
        const rows: TableRow[] = [];
        for (const r of n.content ?? []) {
          const cells: TableCell[] = [];
          for (const c of r.content ?? []) {
            const inner = await blocks(ctx, c.content);
            const header = c.type === 'tableHeader';
            cells.push(
              new TableCell({
                columnSpan: Number(c.attrs?.colspan) > 1 ? Number(c.attrs?.colspan) : undefined,
                rowSpan: Number(c.attrs?.rowspan) > 1 ? Number(c.attrs?.rowspan) : undefined,
                shading: header ? { fill: 'EEEEEE' } : undefined,
                children: inner.length ? inner.map((p) => (header && p instanceof Paragraph ? p : p)) : [new Paragraph('')],
              }),
            );
          }
          rows.push(new TableRow({ children: cells, tableHeader: r === n.content?.[0] && r.content?.[0]?.type === 'tableHeader' }));
        }
        if (rows.length) out.push(new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } }));
        break;
      }
      default:
        if (n.content) out.push(...(await blocks(ctx, n.content, list)));
    }
  }
  return out;
}

export async function exportDocx(ctx: ServerContext, title: string, json: PmNode): Promise<Buffer> {
  const doc = new Document({
    title,
    creator: '督导听课',
    styles: { default: { document: { run: { font: FONT, size: 22 } } } },
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: Array.from({ length: 9 }, (_, level) => ({ level, format: 'decimal' as const, text: `%${level + 1}.`, alignment: AlignmentType.START, style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } } })),
        },
      ],
    },
    sections: [{ children: await blocks(ctx, json.content) }],
  });
  return Packer.toBuffer(doc);
}

// ---- PDF ----

const require = createRequire(import.meta.url);
let pdfReady: Promise<any> | undefined;

async function pdfMake(): Promise<any> {
  pdfReady ??= (async () => {
    const mod = (await import('pdfmake')) as any;
    const pm = mod.default ?? mod;
    const dir = join(dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts');
    const regular = join(dir, 'NotoSansHans-Regular.otf');
    const bold = join(dir, 'NotoSansHans-Bold.otf');
    pm.setFonts({ CJK: { normal: regular, bold, italics: regular, bolditalics: bold } });
    pm.setUrlAccessPolicy(() => false);
    // Only the two font files may be read; images come as data URLs built here.
    pm.setLocalAccessPolicy((p: string) => p === regular || p === bold);
    return pm;
  })();
  return pdfReady;
}

function pdfText(nodes: PmNode[] | undefined): unknown[] {
  return (nodes ?? []).map((n) =>
    n.type === 'hardBreak'
      ? '\n'
      : { text: n.text ?? '', bold: has(n.marks, 'bold'), italics: has(n.marks, 'italic'), decoration: has(n.marks, 'underline') ? 'underline' : has(n.marks, 'strike') ? 'lineThrough' : undefined },
  );
}

async function pdfBlocks(ctx: ServerContext, nodes: PmNode[] | undefined): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const n of nodes ?? []) {
    switch (n.type) {
      case 'heading': {
        const level = Math.min(6, Number(n.attrs?.level) || 1);
        out.push({ text: pdfText(n.content), fontSize: [20, 16, 14, 13, 12, 12][level - 1], bold: true, margin: [0, 8, 0, 4] });
        break;
      }
      case 'paragraph':
        out.push({ text: pdfText(n.content), margin: [0, 2, 0, 2] });
        break;
      case 'codeBlock':
        out.push({ text: (n.content ?? []).map((c) => c.text ?? '').join(''), fontSize: 9, background: '#f5f5f5', margin: [0, 2, 0, 2] });
        break;
      case 'bulletList':
        out.push({ ul: await Promise.all((n.content ?? []).map(async (i) => ({ stack: await pdfBlocks(ctx, i.content) }))) });
        break;
      case 'orderedList':
        out.push({ ol: await Promise.all((n.content ?? []).map(async (i) => ({ stack: await pdfBlocks(ctx, i.content) }))) });
        break;
      case 'image': {
        const img = await loadImage(ctx, n.attrs?.src);
        if (img && img.type !== 'gif' && img.type !== 'bmp') out.push({ image: `data:image/${img.type === 'jpg' ? 'jpeg' : 'png'};base64,${img.data.toString('base64')}`, width: Math.min(img.width, 500), alignment: 'center' });
        break;
      }
      case 'table': {
        const body: unknown[][] = [];
        for (const r of n.content ?? []) body.push(await Promise.all((r.content ?? []).map(async (c) => ({ stack: await pdfBlocks(ctx, c.content), fillColor: c.type === 'tableHeader' ? '#eeeeee' : undefined }))));
        const cols = Math.max(1, ...body.map((r) => r.length));
        for (const r of body) while (r.length < cols) r.push('');
        if (body.length) out.push({ table: { headerRows: n.content?.[0]?.content?.[0]?.type === 'tableHeader' ? 1 : 0, widths: Array(cols).fill('*'), body }, margin: [0, 4, 0, 4] });
        break;
      }
      case 'horizontalRule':
        out.push({ canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5 }] });
        break;
      default:
        if (n.content) out.push(...(await pdfBlocks(ctx, n.content)));
    }
  }
  return out;
}

export async function exportPdf(ctx: ServerContext, title: string, json: PmNode): Promise<Buffer> {
  const pm = await pdfMake();
  const dd = { info: { title }, content: await pdfBlocks(ctx, json.content), defaultStyle: { font: 'CJK', fontSize: 11, lineHeight: 1.3 } };
  const buf = await pm.createPdf(dd).getBuffer();
  return Buffer.from(buf);
}
