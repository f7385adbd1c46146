import type { FastifyInstance, FastifyReply } from 'fastify';
import { basename, extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { tokenOf } from '../http/guard.js';
import { issueFileToken } from '../auth/file-token.js';
import { newId, now } from '../util.js';
import { canReadFile, registerFileOwner } from './file-access.js';
import { isValidKey, storageOf, type PendingUpload } from '../storage/index.js';
import { sendStored } from '../storage/http.js';

/** A biz folder: one plain segment (no separators, no dots), JeecgBoot's default is "temp". */
const BIZ = /^[A-Za-z0-9_-]{1,64}$/;
const IMAGE_EXT = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']);
const IMAGE_MIME = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);

/** Bytes of a file's start kept for type sniffing (file-type reads at most this many for the types we allow). */
const SNIFF_BYTES = 4100;

class TooLarge extends Error {}
class OverQuota extends Error {}

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(n % MB === 0 ? 0 : 1);

/** Bytes of stored files a user has uploaded (their `sys_file` rows). */
export async function usedUploadBytes(ctx: ServerContext, username: string): Promise<number> {
  const r = await ctx.db.selectFrom('sys_file').select(sql<string>`coalesce(sum(file_size), 0)`.as('n')).where('create_by', '=', username).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Display name from the client: last path segment, no control or bidi characters, at most 200 chars. */
export function cleanFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = last.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069"<>]/g, '').trim();
  return (cleaned.replace(/^\.+/, '') || 'file').slice(-200);
}

/** Resolves a stored relative path inside the upload dir, or throws when it tries to leave it. */
export function storedPath(ctx: ServerContext, rel: string): string {
  const clean = rel.replace(/,+$/, '');
  if (!clean || clean.includes('\0') || clean.includes('\\') || clean.startsWith('/') || clean.split('/').some((s) => s === '..' || s === '.' || s === ''))
    throw new BizError('非法的文件路径', 400, 400);
  const root = resolve(ctx.cfg.uploadDir);
  const full = resolve(root, clean);
  if (!full.startsWith(root + sep)) throw new BizError('非法的文件路径', 400, 400);
  return full;
}

/** RFC 6266 attachment header with a UTF-8 file name and an ASCII fallback. */
function attachment(reply: FastifyReply, name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  reply.header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`);
}

export async function registerFiles(api: FastifyInstance, ctx: ServerContext) {
  /**
   * Upload (contract §6): multipart `file` + optional `biz`. The file is streamed into the storage's
   * unpublished place (server/storage: size checked while streaming), sniffed from its first bytes,
   * published under <biz>/<server name>, then its metadata row is inserted; any failure removes the
   * file and writes no row, and a process killed meanwhile leaves nothing visible.
   */
  api.post('/sys/common/upload', { config: { auth: 'user' } }, async (req) => {
    if (!req.isMultipart()) throw new BizError('请以multipart/form-data方式上传文件');
    const storage = storageOf(ctx);
    const max = ctx.cfg.upload.maxBytes;
    // The per-user quota (issue 27 rule 9): the stored files this user uploaded, plus this one.
    const quota = ctx.cfg.upload.quotaBytesPerUser;
    const used = quota > 0 ? await usedUploadBytes(ctx, req.user!.username) : 0;
    const room = quota > 0 ? quota - used : Infinity;
    let biz = 'temp';
    let pending: PendingUpload | undefined;
    let key: string | undefined;
    let original = '';
    let size = 0;
    let head = Buffer.alloc(0);
    try {
      for await (const part of req.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'biz' && typeof part.value === 'string' && part.value !== '') biz = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || pending) {
          part.file.resume();
          continue;
        }
        original = cleanFileName(part.filename ?? '');
        // Streamed to the storage's unpublished place (size checked while streaming, the first bytes kept for sniffing).
        const file = part.file;
        const counted = async function* () {
          for await (const c of file as AsyncIterable<Buffer>) {
            size += c.length;
            if (size > max) throw new TooLarge();
            if (size > room) throw new OverQuota();
            if (head.length < SNIFF_BYTES) head = Buffer.concat([head, c.subarray(0, SNIFF_BYTES - head.length)]);
            yield c;
          }
          if (file.truncated) throw new TooLarge();
        };
        pending = await storage.upload(Readable.from(counted()));
      }
      if (!pending) throw new BizError('请选择要上传的文件');
      if (biz.includes('..') || !BIZ.test(biz)) throw new BizError('非法的业务目录(biz)');
      if (size === 0) throw new BizError('不能上传空文件');

      const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
      let ext = extname(original).slice(1).toLowerCase();
      if (!/^[a-z0-9]{1,10}$/.test(ext)) ext = '';
      const isImage = !!sniffed && IMAGE_MIME.has(sniffed.mime);
      if (IMAGE_EXT.has(ext) && !isImage) throw new BizError('文件内容与图片类型不符');
      if (isImage) ext = sniffed.ext;
      const fileType = isImage ? sniffed.mime : (sniffed?.mime ?? 'application/octet-stream');

      const name = `${newId()}${ext ? '.' + ext : ''}`;
      const rel = `${biz}/${name}`;
      await pending.commit(rel);
      key = rel;
      await ctx.db
        .insertInto('sys_file')
        .values({
          id: newId(),
          file_name: original,
          url: rel,
          file_type: fileType,
          file_size: size,
          biz,
          store_type: storage.kind,
          uploader_name: req.user!.realname || req.user!.username,
          tenant_id: req.user!.tenantId,
          create_by: req.user!.username,
          create_time: now(),
        })
        .execute();
      return { ...ok(null, rel), code: 0 };
    } catch (err) {
      // Nothing half-done stays: the unpublished upload is dropped, a published one without its row deleted.
      if (key) await storage.delete(key).catch(() => undefined);
      else if (pending) await pending.abort().catch(() => undefined);
      const e = err as Error & { code?: string };
      if (e instanceof OverQuota)
        throw new BizError(`您的上传空间已满（已用${mb(used)}MB，上限${mb(quota)}MB），请删除不用的文件或联系管理员后再上传`, 413, 413);
      if (e instanceof TooLarge || e.code === 'FST_REQ_FILE_TOO_LARGE')
        throw new BizError(`上传文件大小超过限制（最大${Math.floor(max / 1024 / 1024)}MB）`, 413, 413);
      if (e.code === 'ENOSPC' || e.code === 'EDQUOT') throw new BizError('上传失败：服务器存储空间不足', 507, 507);
      if (e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EIO') throw new BizError('上传失败：服务器无法写入文件', 500);
      throw err;
    }
  });

  /** A file token for `?token=` in image and download URLs (server/auth/file-token.ts); also sent as `X-File-Token` on every signed-in answer. */
  api.get('/sys/common/fileToken', { config: { auth: 'user' } }, async (req) => ok(issueFileToken(tokenOf(req), req.user!.sessionId)));

  // Avatars are shown wherever a user is (lists, chats, the header): any signed-in user reads them.
  registerFileOwner({
    name: 'avatar',
    async resolve(c, _user, file) {
      const hit = await c.db.selectFrom('sys_user').select('id').where('avatar', '=', file.url).limit(1).executeTakeFirst();
      return hit ? true : undefined;
    },
  });

  /**
   * Static files: signed-in users (header, or a file token in ?token= for <img>) who may read the file (`canReadFile`:
   * they see a record that owns it, or uploaded it), always as an attachment. A refused file answers
   * exactly like a missing one.
   */
  api.get<{ Params: { '*': string } }>('/sys/common/static/*', { config: { auth: 'user', fileToken: true } }, async (req, reply) => {
    let rel: string;
    try {
      rel = decodeURIComponent(req.params['*']);
    } catch {
      throw new BizError('非法的文件路径', 400, 400);
    }
    storedPath(ctx, rel);
    const url = rel.replace(/,+$/, '');
    const meta = await ctx.db.selectFrom('sys_file').select(['file_name', 'file_type', 'create_by']).where('url', '=', url).executeTakeFirst();
    const missing = () => new BizError('文件不存在', 404, 404);
    if (!(await canReadFile(ctx, req.user!, { url, createBy: meta?.create_by ? String(meta.create_by) : null }, req))) throw missing();
    const storage = storageOf(ctx);
    const st = isValidKey(url) ? await storage.stat(url) : undefined; // an unpublished upload (.tmp/) is never served
    if (!st) throw missing();
    const type = meta && IMAGE_MIME.has(String(meta.file_type)) ? String(meta.file_type) : 'application/octet-stream';
    attachment(reply, meta?.file_name ? String(meta.file_name) : basename(url));
    reply.header('Content-Type', type);
    reply.header('Cache-Control', 'private, no-cache');
    return sendStored(req, reply, storage, url, st.size);
  });

  const removeFiles = async (ids: string[]) => {
    if (!ids.length) throw new BizError('参数id不能为空');
    const rows = await ctx.db.selectFrom('sys_file').select(['id', 'url']).where('id', 'in', ids).execute();
    if (!rows.length) throw new BizError('未找到对应数据');
    await ctx.db.deleteFrom('sys_file').where('id', 'in', rows.map((r) => r.id as string)).execute();
    for (const r of rows) {
      try {
        await storageOf(ctx).delete(String(r.url));
      } catch {
        /* already gone (or a bad old path): the row is what the list shows */
      }
    }
  };
  api.delete('/sys/files/delete', { config: { auth: 'system:file:delete' } }, async (req) => {
    await removeFiles([String((req.query as { id?: string }).id ?? '')].filter(Boolean));
    return ok(null, '删除成功!');
  });
  api.delete('/sys/files/deleteBatch', { config: { auth: 'system:file:deleteBatch' } }, async (req) => {
    await removeFiles(String((req.query as { ids?: string }).ids ?? '').split(',').filter(Boolean));
    return ok(null, '批量删除成功!');
  });
}
