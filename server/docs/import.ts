import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import mammoth from 'mammoth';
import { Window } from 'happy-dom';
import { DOMParser as PMDOMParser } from '@tiptap/pm/model';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { BizError } from '../http/envelope.js';
import { newId, now } from '../util.js';
import type { PmNode } from '../../shared/doc-text.js';
import { docSchema } from './tables.js';
import { imageSize } from './export.js';

/** Elements removed before parsing (their text would otherwise survive as paragraphs). */
const DROP = 'script,style,iframe,object,embed,template,noscript,svg,math,form,input,button,textarea,select,link,meta,base';
const MAX_IMAGES = 200;

/**
 * Sanitises HTML into the document schema: scripts and active elements are removed, `on*` attributes and
 * non-http(s)/mailto links dropped, then ProseMirror's DOMParser keeps only the nodes and marks the
 * schema knows (happy-dom provides the DOM on the server). Also used for pasted HTML on import paths.
 */
export function htmlToDocJson(html: string): PmNode {
  const window = new Window();
  try {
    const document = window.document;
    const body = document.createElement('div');
    body.innerHTML = html;
    for (const el of [...body.querySelectorAll(DROP)]) el.remove();
    for (const el of [...body.querySelectorAll('*')]) {
      for (const a of [...el.attributes]) if (/^on/i.test(a.name) || a.name === 'style') el.removeAttribute(a.name);
      if (el.tagName === 'A' && !/^(https?:|mailto:)/i.test(el.getAttribute('href') ?? '')) el.removeAttribute('href');
      if (el.tagName === 'IMG' && !/^docs\/[\w.-]+$/.test(el.getAttribute('src') ?? '')) el.remove();
    }
    const node = PMDOMParser.fromSchema(docSchema()).parse(body as unknown as Node);
    return node.toJSON() as PmNode;
  } finally {
    void window.happyDOM.close();
  }
}

/** A .docx to document JSON: mammoth's HTML (images stored through the file service's storage, size-limited), sanitised. */
export async function importDocx(ctx: ServerContext, user: SessionUser, buffer: Buffer): Promise<PmNode> {
  let images = 0;
  const root = resolve(ctx.cfg.uploadDir);
  const convertImage = mammoth.images.imgElement(async (image) => {
    if (++images > MAX_IMAGES) return { src: '' };
    const data = Buffer.from(await image.readAsBase64String(), 'base64');
    const size = imageSize(data);
    if (!size || data.length > ctx.cfg.upload.maxBytes) return { src: '' };
    const name = `${newId()}.${size.type}`;
    await mkdir(join(root, 'docs'), { recursive: true });
    await writeFile(join(root, 'docs', name), data);
    await ctx.db
      .insertInto('sys_file')
      .values({ id: newId(), file_name: name, url: `docs/${name}`, file_type: `image/${size.type === 'jpg' ? 'jpeg' : size.type}`, file_size: data.length, biz: 'docs', store_type: 'local', uploader_name: user.realname || user.username, tenant_id: user.tenantId, create_by: user.username, create_time: now() })
      .execute();
    return { src: `docs/${name}` };
  });
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer }, { convertImage })).value;
  } catch {
    throw new BizError('无法读取该 .docx 文件，请确认文件未损坏');
  }
  return htmlToDocJson(html);
}
