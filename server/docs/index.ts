import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import type { ServerContext } from '../context.js';
import { BizError, Forbidden, ok, page } from '../http/envelope.js';
import { tokenOf } from '../http/guard.js';
import { seesEverything } from '../sys/permission-tree.js';
import { registerFileOwner, seesAnyRow } from '../sys/file-access.js';
import { newId, now } from '../util.js';
import { DOC_FIELD } from '../../shared/doc-schema.js';
import { docPlainText, lineDiff, type PmNode } from '../../shared/doc-text.js';
import { atLeast, DOC_COLUMNS, HOSTS, levelOf, loadDoc, requireDoc, writable, type DocRow, type Level } from './access.js';
import { Collab, collabOf, setCollab } from './collab.js';
import { jsonToState } from './tables.js';
import { exportDocx, exportPdf } from './export.js';
import { importDocx } from './import.js';

/** Every document route needs the 在线文档 screen; what a user may do with one document is decided by its shares (access.ts). */
const AUTH = { auth: 'document:online:list' };
const LEVELS = new Set(['read', 'comment', 'edit']);
const TARGETS = new Set(['user', 'depart', 'role']);

type Q = Record<string, string | undefined>;
const str = (v: unknown, max = 200) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

function view(d: DocRow, level?: Level | null) {
  return {
    id: d.id,
    title: d.title,
    folderId: d.folder_id,
    ownerId: d.owner_id,
    ownerName: d.owner_name,
    status: d.status,
    status_dictText: d.status === 'FINAL' ? '已定稿' : '草稿',
    finalizedBy: d.finalized_by,
    finalizedAt: d.finalized_at,
    isTemplate: d.is_template,
    deletedAt: d.deleted_at,
    createTime: d.create_time,
    updateTime: d.update_time ?? d.create_time,
    updateBy: d.update_by,
    ...(level !== undefined ? { level, level_dictText: level ? LEVEL_TEXT[level] : '' } : {}),
  };
}
/** The template a new evidence document of each host type starts from (server/docs/tables.ts TEMPLATES). */
const HOST_TEMPLATES: Record<string, string> = {
  imp_task: 'doctpl00000000000000000000imprv',
  audit_item: 'doctpl00000000000000000000audit',
  lecture_record: 'doctpl0000000000000000000000lect',
};
const LEVEL_TEXT: Record<Level, string> = { read: '可阅读', comment: '可评论', edit: '可编辑', owner: '所有者' };

export async function registerDocs(api: FastifyInstance, ctx: ServerContext) {
  const collab = new Collab(ctx);
  setCollab(ctx, collab);
  api.addHook('onReady', async () => collab.start());
  api.addHook('onClose', async () => collab.stop());

  /** Images of a document are readable by its readers (file service, issue 27 rule 9). */
  registerFileOwner({
    name: 'doc_document',
    async resolve(c, user, file, req) {
      const docs = await c.db.selectFrom('doc_document').select([...DOC_COLUMNS]).where(sql<boolean>`strpos(images, ${file.url}) > 0`).limit(20).execute();
      if (!docs.length) return undefined;
      for (const d of docs) if (await levelOf(c, user, d as DocRow, req)) return true;
      return false;
    },
  });

  // ---- the socket ----
  // The session token travels in Sec-WebSocket-Protocol (checked by the guard at the handshake, never in the URL);
  // the sync protocol's own token is checked again per document in onAuthenticate, with the document's shares.
  api.get('/docs/collab', { websocket: true, config: AUTH }, (socket, req) => collab.handle(socket, req, tokenOf(req)));

  // ---- folders ----
  api.get('/docs/folder/tree', { config: AUTH }, async (req) => {
    const rows = await ctx.db.selectFrom('doc_folder').select(['id', 'name', 'parent_id']).where('owner_id', '=', req.user!.id).orderBy('name').execute();
    const byParent = new Map<string, typeof rows>();
    for (const r of rows) {
      const k = String(r.parent_id ?? '');
      byParent.set(k, [...(byParent.get(k) ?? []), r]);
    }
    const build = (pid: string, depth: number): unknown[] =>
      depth > 10 ? [] : (byParent.get(pid) ?? []).map((r) => ({ key: r.id, title: r.name, children: build(String(r.id), depth + 1) }));
    return ok(build('', 0));
  });
  api.post<{ Body: { name?: string; parentId?: string } }>('/docs/folder/add', { config: AUTH }, async (req) => {
    const name = str(req.body?.name, 100);
    if (!name) throw new BizError('请输入文件夹名称');
    const parentId = str(req.body?.parentId, 32) || null;
    if (parentId && !(await ctx.db.selectFrom('doc_folder').select('id').where('id', '=', parentId).where('owner_id', '=', req.user!.id).executeTakeFirst()))
      throw new BizError('上级文件夹不存在');
    const id = newId();
    await ctx.db.insertInto('doc_folder').values({ id, name, parent_id: parentId, owner_id: req.user!.id, tenant_id: req.user!.tenantId, create_time: now() }).execute();
    return ok({ id }, '添加成功！');
  });
  api.delete<{ Querystring: Q }>('/docs/folder/delete', { config: AUTH }, async (req) => {
    const id = str(req.query.id, 32);
    const f = await ctx.db.selectFrom('doc_folder').select('id').where('id', '=', id).where('owner_id', '=', req.user!.id).executeTakeFirst();
    if (!f) throw new BizError('文件夹不存在');
    const inUse = await ctx.db.selectFrom('doc_document').select('id').where('folder_id', '=', id).where('deleted_at', 'is', null).limit(1).executeTakeFirst();
    const sub = await ctx.db.selectFrom('doc_folder').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst();
    if (inUse || sub) throw new BizError('文件夹不为空，不能删除');
    await ctx.db.deleteFrom('doc_folder').where('id', '=', id).execute();
    return ok(null, '删除成功!');
  });

  // ---- documents ----
  /** scope: mine (default) | shared | recent | trash | templates; keyword: title or content; folderId. */
  const list = async (req: FastifyRequest<{ Querystring: Q; Params: { scope?: string } }>) => {
    const u = req.user!;
    const scope = req.params.scope ?? req.query.scope ?? 'mine';
    if (!['mine', 'shared', 'recent', 'trash', 'templates'].includes(scope)) throw new BizError('参数不正确');
    const pageNo = Math.max(1, Number(req.query.pageNo) || 1);
    const pageSize = Math.min(100, Math.max(1, Number(req.query.pageSize) || 10));
    const keyword = str(req.query.keyword ?? req.query.title, 100).replace(/^\*|\*$/g, '');
    let q = ctx.db.selectFrom('doc_document as d');
    if (scope === 'templates') q = q.where('d.is_template', '=', true).where('d.deleted_at', 'is', null);
    else {
      q = q.where('d.is_template', '=', false).where('d.tenant_id', '=', u.tenantId);
      if (scope === 'trash') q = q.where('d.deleted_at', 'is not', null).where('d.owner_id', '=', u.id);
      else {
        q = q.where('d.deleted_at', 'is', null);
        const shared = (eb: any) =>
          eb.exists(
            eb
              .selectFrom('doc_share as s')
              .select('s.id')
              .whereRef('s.doc_id', '=', 'd.id')
              .where((e: any) =>
                e.or([
                  e.and([e('s.target_type', '=', 'user'), e('s.target_id', '=', u.id)]),
                  ...(u.departIds.length ? [e.and([e('s.target_type', '=', 'depart'), e('s.target_id', 'in', u.departIds)])] : []),
                  ...(u.roleCodes.length ? [e.and([e('s.target_type', '=', 'role'), e('s.target_id', 'in', u.roleCodes)])] : []),
                ]),
              ),
          );
        if (scope === 'shared') q = q.where((eb) => eb.and([eb('d.owner_id', '<>', u.id), shared(eb)]));
        else if (scope === 'recent')
          q = q
            .innerJoin('doc_recent as r', (j) => j.onRef('r.doc_id', '=', 'd.id').on('r.user_id', '=', u.id))
            .where((eb) => eb.or([eb('d.owner_id', '=', u.id), shared(eb)]));
        else {
          q = q.where('d.owner_id', '=', u.id);
          if (req.query.folderId) q = q.where('d.folder_id', '=', str(req.query.folderId, 32));
        }
      }
    }
    if (keyword) {
      const like = `%${keyword.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      q = q.where((eb) => eb.or([eb('d.title', 'ilike', like), eb('d.plain_text', 'ilike', like)]));
    }
    const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    const order = scope === 'recent' ? 'r.opened_at' : scope === 'trash' ? 'd.deleted_at' : 'd.update_time';
    const rows = (await q
      .select(DOC_COLUMNS.map((c) => `d.${c}` as const))
      .select(sql<string>`substr(d.plain_text, 1, 200)`.as('snippet'))
      .orderBy(sql.ref(order), 'desc')
      .orderBy('d.create_time', 'desc')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute()) as Array<DocRow & { snippet: string }>;
    return ok(page(rows.map((r) => ({ ...view(r), snippet: r.snippet })), total, pageNo, pageSize));
  };
  api.get<{ Querystring: Q; Params: { scope?: string } }>('/docs/document/list', { config: AUTH }, list);
  /** The library's tabs: /docs/document/list/mine | shared | recent | trash | templates. */
  api.get<{ Querystring: Q; Params: { scope?: string } }>('/docs/document/list/:scope', { config: AUTH }, list);

  api.get<{ Querystring: Q }>('/docs/document/queryById', { config: AUTH }, async (req) => {
    const { doc, level } = await requireDoc(ctx, req, req.query.id, 'read');
    const links = await ctx.db.selectFrom('doc_link').select(['id', 'host_type', 'host_id']).where('doc_id', '=', doc.id).execute();
    return ok({ ...view(doc, level), writable: writable(doc, level, req.user!), canComment: atLeast(level, 'comment') && !doc.deleted_at, links: links.map((l) => ({ id: l.id, hostType: l.host_type, hostId: l.host_id, hostTitle: HOSTS[String(l.host_type)]?.title })) });
  });

  /** New document: blank, from a template (`templateId`), and optionally attached as evidence (`hostType`, `hostId`). */
  api.post<{ Body: { title?: string; folderId?: string; templateId?: string; hostType?: string; hostId?: string } }>('/docs/document/add', { config: AUTH }, async (req) => {
    const u = req.user!;
    const b = req.body ?? {};
    let state: Uint8Array | null = null;
    let text = '';
    let title = str(b.title, 200);
    // Evidence: 新建佐证文档 on a record starts from that record type's template.
    if (b.templateId === 'host') b.templateId = HOST_TEMPLATES[String(b.hostType)];
    if (b.templateId) {
      const { doc } = await requireDoc(ctx, req, b.templateId, 'read');
      const d = await collabOf(ctx).currentDoc(doc.id);
      state = Y.encodeStateAsUpdate(d);
      text = docPlainText(yXmlFragmentToProsemirrorJSON(d.getXmlFragment(DOC_FIELD)) as PmNode);
      d.destroy();
      title ||= doc.title;
    }
    if (!title) throw new BizError('请输入文档标题');
    const folderId = str(b.folderId, 32) || null;
    if (folderId && !(await ctx.db.selectFrom('doc_folder').select('id').where('id', '=', folderId).where('owner_id', '=', u.id).executeTakeFirst())) throw new BizError('文件夹不存在');
    if (b.hostType) await checkHost(ctx, req, b.hostType, b.hostId);
    const id = newId();
    await ctx.db
      .insertInto('doc_document')
      .values({ id, title, folder_id: folderId, owner_id: u.id, owner_name: u.realname || u.username, tenant_id: u.tenantId, state: state ? Buffer.from(state) : null, plain_text: text, create_time: now(), update_time: now(), update_by: u.realname })
      .execute();
    if (b.hostType) await ctx.db.insertInto('doc_link').values({ id: newId(), doc_id: id, host_type: b.hostType, host_id: b.hostId, create_by: u.username, create_time: now() }).execute();
    return ok({ id }, '添加成功！');
  });

  api.put<{ Body: { id?: string; title?: string; folderId?: string } }>('/docs/document/edit', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.body?.id, 'owner');
    const title = str(req.body?.title, 200);
    if (!title) throw new BizError('请输入文档标题');
    const folderId = str(req.body?.folderId, 32) || null;
    if (folderId && !(await ctx.db.selectFrom('doc_folder').select('id').where('id', '=', folderId).where('owner_id', '=', doc.owner_id).executeTakeFirst())) throw new BizError('文件夹不存在');
    await ctx.db.updateTable('doc_document').set({ title, folder_id: folderId }).where('id', '=', doc.id).execute();
    return ok(null, '编辑成功!');
  });

  /** To the trash (the owner): open connections of others are closed. */
  api.delete<{ Querystring: Q }>('/docs/document/delete', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.id, 'owner');
    if (doc.is_template && !seesEverything(req.user!)) throw Forbidden();
    await ctx.db.updateTable('doc_document').set({ deleted_at: now(), deleted_by: req.user!.username }).where('id', '=', doc.id).execute();
    await collabOf(ctx).accessChanged(doc.id);
    return ok(null, '已移入回收站');
  });
  api.post<{ Body: { id?: string } }>('/docs/document/restore', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.body?.id, 'owner');
    if (!doc.deleted_at) throw new BizError('文档不在回收站中');
    await ctx.db.updateTable('doc_document').set({ deleted_at: null, deleted_by: null }).where('id', '=', doc.id).execute();
    return ok(null, '已还原');
  });
  /** Deletes a document in the trash for good, with its log, versions, shares, comments and links. */
  api.delete<{ Querystring: Q }>('/docs/document/purge', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.id, 'owner');
    if (!doc.deleted_at) throw new BizError('请先将文档移入回收站');
    await ctx.db.transaction().execute(async (trx) => {
      for (const [t, c] of [['collab_update', 'doc'], ['doc_version', 'doc_id'], ['doc_share', 'doc_id'], ['doc_comment', 'doc_id'], ['doc_link', 'doc_id'], ['doc_recent', 'doc_id']] as const)
        await trx.deleteFrom(t).where(c, '=', doc.id).execute();
      await trx.deleteFrom('doc_document').where('id', '=', doc.id).execute();
    });
    return ok(null, '已彻底删除');
  });

  /** 定稿: read-only for everyone, who and when recorded. */
  api.post<{ Body: { id?: string } }>('/docs/document/finalize', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.body?.id, 'edit');
    if (doc.deleted_at) throw new BizError('文档已在回收站中');
    if (doc.status === 'FINAL') throw new BizError('文档已定稿');
    await ctx.db.updateTable('doc_document').set({ status: 'FINAL', finalized_by: req.user!.realname || req.user!.username, finalized_at: now() }).where('id', '=', doc.id).execute();
    await collabOf(ctx).accessChanged(doc.id);
    return ok(null, '已定稿');
  });
  /** Only the owner or an administrator reopens a finalised document. */
  api.post<{ Body: { id?: string } }>('/docs/document/reopen', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.body?.id, 'owner');
    if (doc.status !== 'FINAL') throw new BizError('文档未定稿');
    await ctx.db.updateTable('doc_document').set({ status: 'DRAFT', finalized_by: null, finalized_at: null }).where('id', '=', doc.id).execute();
    await collabOf(ctx).accessChanged(doc.id);
    return ok(null, '已重新打开编辑');
  });

  /** The current content as ProseMirror JSON and plain text (readers). */
  api.get<{ Querystring: Q }>('/docs/document/content', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.id, 'read');
    const json = await collabOf(ctx).currentJson(doc.id);
    return ok({ json, text: docPlainText(json) });
  });

  // ---- shares ----
  api.get<{ Querystring: Q }>('/docs/share/list', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.docId, 'read');
    const rows = await ctx.db.selectFrom('doc_share').select(['id', 'target_type', 'target_id', 'target_name', 'level', 'create_time']).where('doc_id', '=', doc.id).orderBy('create_time').execute();
    const TYPE: Record<string, string> = { user: '人员', depart: '部门', role: '角色' };
    const recs = rows.map((r) => ({ id: r.id, targetType: r.target_type, targetType_dictText: TYPE[String(r.target_type)], targetId: r.target_id, targetName: r.target_name, level: r.level, level_dictText: LEVEL_TEXT[r.level as Level], createTime: r.create_time }));
    return ok(page(recs, recs.length, 1, Math.max(10, recs.length)));
  });
  api.post<{ Body: { docId?: string; targetType?: string; targetId?: string; userIds?: string; departIds?: string; roleCode?: string; level?: string } }>('/docs/share/add', { config: AUTH }, async (req) => {
    const b = req.body ?? {};
    // The share form names its picker fields by type (userIds / departIds / roleCode); API callers send targetId.
    b.targetId ??= b.targetType === 'user' ? b.userIds : b.targetType === 'depart' ? b.departIds : b.roleCode;
    const { doc } = await requireDoc(ctx, req, b.docId, 'owner');
    if (!TARGETS.has(String(b.targetType))) throw new BizError('请选择分享对象类型');
    if (!LEVELS.has(String(b.level))) throw new BizError('请选择权限');
    // A picker may send several ids at once (comma list).
    const ids = String(b.targetId ?? '').split(',').map((s) => s.trim()).filter(Boolean).slice(0, 200);
    if (!ids.length) throw new BizError('请选择分享对象');
    for (const targetId of ids) {
      const target = await resolveTarget(ctx, String(b.targetType), targetId);
      if (!target) throw new BizError('分享对象不存在');
      await sql`insert into doc_share (id, doc_id, target_type, target_id, target_name, level, create_by, create_time)
        values (${newId()}, ${doc.id}, ${b.targetType}, ${target.id}, ${target.name}, ${b.level}, ${req.user!.username}, ${now()})
        on conflict (doc_id, target_type, target_id) do update set level = excluded.level`.execute(ctx.db);
    }
    await collabOf(ctx).accessChanged(doc.id);
    return ok(null, '分享成功');
  });
  api.delete<{ Querystring: Q }>('/docs/share/delete', { config: AUTH }, async (req) => {
    const s = await ctx.db.selectFrom('doc_share').select(['id', 'doc_id']).where('id', '=', str(req.query.id, 32)).executeTakeFirst();
    if (!s) throw new BizError('分享不存在');
    await requireDoc(ctx, req, s.doc_id, 'owner');
    await ctx.db.deleteFrom('doc_share').where('id', '=', s.id).execute();
    await collabOf(ctx).accessChanged(String(s.doc_id));
    return ok(null, '已取消分享');
  });

  // ---- versions ----
  api.get<{ Querystring: Q }>('/docs/version/list', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.docId, 'read');
    const rows = await ctx.db.selectFrom('doc_version').select(['id', 'name', 'kind', 'create_by_name', 'create_time']).where('doc_id', '=', doc.id).orderBy('create_time', 'desc').orderBy('id', 'desc').limit(200).execute();
    const KIND: Record<string, string> = { auto: '自动', named: '命名', restore: '还原' };
    return ok(rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, kind_dictText: KIND[String(r.kind)], createBy: r.create_by_name, createTime: r.create_time })));
  });
  api.post<{ Body: { docId?: string; name?: string } }>('/docs/version/add', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.body?.docId, 'edit');
    const name = str(req.body?.name, 100);
    if (!name) throw new BizError('请输入版本名称');
    const d = await collabOf(ctx).currentDoc(doc.id);
    const text = docPlainText(yXmlFragmentToProsemirrorJSON(d.getXmlFragment(DOC_FIELD)) as PmNode);
    const id = newId();
    await ctx.db.insertInto('doc_version').values({ id, doc_id: doc.id, name, kind: 'named', state: Buffer.from(Y.encodeStateAsUpdate(d)), plain_text: text, create_by: req.user!.username, create_by_name: req.user!.realname, create_time: now() }).execute();
    d.destroy();
    return ok({ id }, '版本已保存');
  });
  /** A version's content (JSON for a read-only view) and its line diff against the current text. */
  api.get<{ Querystring: Q }>('/docs/version/view', { config: AUTH }, async (req) => {
    const v = await ctx.db.selectFrom('doc_version').select(['id', 'doc_id', 'name', 'state', 'create_time', 'create_by_name']).where('id', '=', str(req.query.id, 32)).executeTakeFirst();
    if (!v) throw new BizError('版本不存在');
    const { doc } = await requireDoc(ctx, req, v.doc_id, 'read');
    const json = versionJson(v.state as Uint8Array);
    const current = await collabOf(ctx).currentJson(doc.id);
    return ok({ id: v.id, name: v.name, createTime: v.create_time, createBy: v.create_by_name, json, text: docPlainText(json), diff: lineDiff(docPlainText(json), docPlainText(current)) });
  });
  /** Restore: the version's content becomes the current content as a new edit (kept as a 还原 version). */
  api.post<{ Body: { id?: string } }>('/docs/version/restore', { config: AUTH }, async (req) => {
    const v = await ctx.db.selectFrom('doc_version').select(['id', 'doc_id', 'name', 'state', 'create_time']).where('id', '=', str(req.body?.id, 32)).executeTakeFirst();
    if (!v) throw new BizError('版本不存在');
    const { doc, level } = await requireDoc(ctx, req, v.doc_id, 'edit');
    if (!writable(doc, level, req.user!)) throw new BizError('文档已定稿，不能还原版本');
    const json = versionJson(v.state as Uint8Array);
    await collabOf(ctx).replaceContent(doc.id, json);
    const d = await collabOf(ctx).currentDoc(doc.id);
    await ctx.db.insertInto('doc_version').values({ id: newId(), doc_id: doc.id, name: `还原自：${v.name ?? v.create_time}`.slice(0, 100), kind: 'restore', state: Buffer.from(Y.encodeStateAsUpdate(d)), plain_text: docPlainText(json), create_by: req.user!.username, create_by_name: req.user!.realname, create_time: now() }).execute();
    d.destroy();
    return ok(null, '已还原为新版本');
  });

  // ---- comments (stored server-side; anchored by Yjs relative positions the editor sends) ----
  api.get<{ Querystring: Q }>('/docs/comment/list', { config: AUTH }, async (req) => {
    const { doc } = await requireDoc(ctx, req, req.query.docId, 'read');
    const rows = await ctx.db.selectFrom('doc_comment').selectAll().where('doc_id', '=', doc.id).orderBy('create_time').orderBy(sql`parent_id is not null`).orderBy('id').execute();
    return ok(rows.map((r) => ({ id: r.id, parentId: r.parent_id, quote: r.quote, anchor: r.anchor, content: r.content, resolved: r.resolved, resolvedBy: r.resolved_by, createBy: r.create_by, createByName: r.create_by_name, createTime: r.create_time })));
  });
  api.post<{ Body: { docId?: string; parentId?: string; quote?: string; anchor?: string; content?: string } }>('/docs/comment/add', { config: AUTH }, async (req) => {
    const b = req.body ?? {};
    const { doc } = await requireDoc(ctx, req, b.docId, 'comment');
    if (doc.deleted_at) throw new BizError('文档已在回收站中');
    const content = str(b.content, 2000);
    if (!content) throw new BizError('请输入评论内容');
    let parentId: string | null = null;
    if (b.parentId) {
      const p = await ctx.db.selectFrom('doc_comment').select(['id', 'parent_id']).where('id', '=', str(b.parentId, 32)).where('doc_id', '=', doc.id).executeTakeFirst();
      if (!p) throw new BizError('评论不存在');
      parentId = String(p.parent_id ?? p.id);
    } else if (!str(b.quote, 1000)) throw new BizError('请先选择要评论的文字');
    const id = newId();
    await ctx.db.insertInto('doc_comment').values({ id, doc_id: doc.id, parent_id: parentId, quote: parentId ? null : str(b.quote, 1000), anchor: parentId ? null : str(b.anchor, 2000) || null, content, create_by: req.user!.id, create_by_name: req.user!.realname || req.user!.username, create_time: now() }).execute();
    return ok({ id }, '评论成功');
  });
  api.post<{ Body: { id?: string; resolved?: boolean } }>('/docs/comment/resolve', { config: AUTH }, async (req) => {
    const c = await ctx.db.selectFrom('doc_comment').select(['id', 'doc_id', 'parent_id']).where('id', '=', str(req.body?.id, 32)).executeTakeFirst();
    if (!c || c.parent_id) throw new BizError('评论不存在');
    await requireDoc(ctx, req, c.doc_id, 'comment');
    const resolved = req.body?.resolved !== false;
    await ctx.db.updateTable('doc_comment').set({ resolved, resolved_by: resolved ? req.user!.realname : null }).where('id', '=', c.id).execute();
    return ok(null, resolved ? '已解决' : '已重新打开');
  });

  // ---- evidence links ----
  /** Documents attached to a record (审核要点 / 整改任务 / 听课记录): readers of the record see them. */
  api.get<{ Querystring: Q }>('/docs/link/list', { config: { auth: 'user' } }, async (req) => {
    await checkHost(ctx, req, req.query.hostType, req.query.hostId);
    const rows = await ctx.db
      .selectFrom('doc_link as l')
      .innerJoin('doc_document as d', 'd.id', 'l.doc_id')
      .select(['l.id', 'l.doc_id', 'd.title', 'd.status', 'd.owner_name', 'd.update_time', 'l.create_time'])
      .where('l.host_type', '=', String(req.query.hostType))
      .where('l.host_id', '=', String(req.query.hostId))
      .where('d.deleted_at', 'is', null)
      .orderBy('l.create_time')
      .execute();
    const recs = rows.map((r) => ({ id: r.id, docId: r.doc_id, title: r.title, status: r.status, status_dictText: r.status === 'FINAL' ? '已定稿' : '草稿', ownerName: r.owner_name, updateTime: r.update_time, createTime: r.create_time }));
    return ok(page(recs, recs.length, 1, Math.max(10, recs.length)));
  });
  api.post<{ Body: { docId?: string; hostType?: string; hostId?: string } }>('/docs/link/add', { config: AUTH }, async (req) => {
    const b = req.body ?? {};
    await checkHost(ctx, req, b.hostType, b.hostId);
    const { doc } = await requireDoc(ctx, req, b.docId, 'edit');
    await sql`insert into doc_link (id, doc_id, host_type, host_id, create_by, create_time) values (${newId()}, ${doc.id}, ${b.hostType}, ${b.hostId}, ${req.user!.username}, ${now()})
      on conflict (doc_id, host_type, host_id) do nothing`.execute(ctx.db);
    return ok(null, '已关联');
  });
  api.delete<{ Querystring: Q }>('/docs/link/delete', { config: AUTH }, async (req) => {
    const l = await ctx.db.selectFrom('doc_link').select(['id', 'doc_id']).where('id', '=', str(req.query.id, 32)).executeTakeFirst();
    if (!l) throw new BizError('关联不存在');
    await requireDoc(ctx, req, l.doc_id, 'edit');
    await ctx.db.deleteFrom('doc_link').where('id', '=', l.id).execute();
    await collabOf(ctx).accessChanged(String(l.doc_id));
    return ok(null, '已取消关联');
  });

  // ---- export / import ----
  api.get<{ Querystring: Q }>('/docs/document/export', { config: { ...AUTH, fileToken: true } }, async (req, reply) => {
    const { doc } = await requireDoc(ctx, req, req.query.id, 'read');
    const json = await collabOf(ctx).currentJson(doc.id);
    const pdf = req.query.format === 'pdf';
    const buf = pdf ? await exportPdf(ctx, doc.title, json) : await exportDocx(ctx, doc.title, json);
    const name = encodeURIComponent(`${doc.title}.${pdf ? 'pdf' : 'docx'}`);
    return reply
      .header('content-type', pdf ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
      .send(buf);
  });
  /** A .docx becomes a new document (mammoth → sanitised HTML → the document schema → Y state). */
  api.post('/docs/document/import', { config: AUTH }, async (req) => {
    if (!req.isMultipart()) throw new BizError('请上传 .docx 文件');
    let buf: Buffer | undefined;
    let name = '';
    let folderId: string | null = null;
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'folderId' && typeof part.value === 'string') folderId = part.value.slice(0, 32) || null;
        continue;
      }
      if (buf) {
        part.file.resume();
        continue;
      }
      name = part.filename ?? '';
      buf = await part.toBuffer();
    }
    if (!buf || !/\.docx$/i.test(name)) throw new BizError('请上传 .docx 文件');
    if (buf.length > ctx.cfg.import.maxBytes) throw new BizError('文件过大');
    const json = await importDocx(ctx, req.user!, buf);
    const u = req.user!;
    if (folderId && !(await ctx.db.selectFrom('doc_folder').select('id').where('id', '=', folderId).where('owner_id', '=', u.id).executeTakeFirst())) folderId = null;
    const id = newId();
    await ctx.db
      .insertInto('doc_document')
      .values({ id, title: name.replace(/\.docx$/i, '').slice(0, 200) || '导入的文档', folder_id: folderId, owner_id: u.id, owner_name: u.realname || u.username, tenant_id: u.tenantId, state: Buffer.from(jsonToState(json)), plain_text: docPlainText(json), create_time: now(), update_time: now(), update_by: u.realname })
      .execute();
    return ok({ id }, '导入成功');
  });
}

function versionJson(state: Uint8Array): PmNode {
  const d = new Y.Doc();
  Y.applyUpdate(d, state instanceof Uint8Array ? state : new Uint8Array(state));
  const json = yXmlFragmentToProsemirrorJSON(d.getXmlFragment(DOC_FIELD)) as PmNode;
  d.destroy();
  return json;
}

/** The host record exists and the user may read it (its entity's read permission and row scope). */
async function checkHost(ctx: ServerContext, req: FastifyRequest, hostType: unknown, hostId: unknown) {
  const host = HOSTS[String(hostType)];
  if (!host || typeof hostId !== 'string' || !/^\w{1,32}$/.test(hostId)) throw new BizError('关联的记录不存在');
  if (!(await seesAnyRow(ctx, req.user!, req, host.entity, [hostId]))) throw Forbidden('无权访问关联的记录');
}

/** A share target by id (a user also by username, a role by code or id): the stored key and its display name. */
async function resolveTarget(ctx: ServerContext, type: string, key: string): Promise<{ id: string; name: string } | null> {
  if (type === 'user') {
    const u = await ctx.db.selectFrom('sys_user').select(['id', 'realname']).where((eb) => eb.or([eb('id', '=', key), eb('username', '=', key)])).where('del_flag', '=', 0).executeTakeFirst();
    return u ? { id: String(u.id), name: String(u.realname) } : null;
  }
  if (type === 'depart') {
    const d = await ctx.db.selectFrom('sys_depart').select(['id', 'depart_name']).where('id', '=', key).executeTakeFirst();
    return d ? { id: String(d.id), name: String(d.depart_name) } : null;
  }
  const r = await ctx.db.selectFrom('sys_role').select(['role_code', 'role_name']).where((eb) => eb.or([eb('role_code', '=', key), eb('id', '=', key)])).executeTakeFirst();
  return r ? { id: String(r.role_code), name: String(r.role_name) } : null;
}

export { loadDoc };
