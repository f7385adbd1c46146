import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { BizError, Forbidden } from '../http/envelope.js';
import { seesEverything } from '../sys/permission-tree.js';
import { seesAnyRow } from '../sys/file-access.js';

/**
 * Who may do what with a document (issue 29). Levels, weakest first: read < comment < edit < owner.
 * - the owner and the administrators: owner (share, finalise, reopen, trash, restore);
 * - a share to the user, one of their departments or one of their roles: its level (the strongest wins);
 * - a document attached as evidence to a record the user can read (审核要点, 整改任务, 听课记录): read;
 * - templates: read (anyone may start a document from one).
 * A finalised (定稿) document is read-only for everyone; a document in the trash is only its owner's.
 */
export type Level = 'read' | 'comment' | 'edit' | 'owner';
const RANK: Record<Level, number> = { read: 1, comment: 2, edit: 3, owner: 4 };
export const atLeast = (have: Level | null, need: Level) => !!have && RANK[have] >= RANK[need];

export interface DocRow {
  id: string;
  title: string;
  folder_id: string | null;
  owner_id: string;
  owner_name: string | null;
  tenant_id: number;
  status: string;
  finalized_by: string | null;
  finalized_at: string | null;
  is_template: boolean;
  deleted_at: string | null;
  create_time: string;
  update_time: string | null;
  update_by: string | null;
}

export const DOC_COLUMNS = ['id', 'title', 'folder_id', 'owner_id', 'owner_name', 'tenant_id', 'status', 'finalized_by', 'finalized_at', 'is_template', 'deleted_at', 'create_time', 'update_time', 'update_by'] as const;

/** Evidence hosts: link type → the entity whose row scope decides who reads the document. */
export const HOSTS: Record<string, { entity: string; title: string }> = {
  audit_item: { entity: 'audit_item', title: '审核要点' },
  imp_task: { entity: 'imp_task', title: '整改任务' },
  lecture_record: { entity: 'sup_lecture_record', title: '听课记录' },
};

export async function loadDoc(ctx: ServerContext, id: unknown): Promise<DocRow> {
  if (typeof id !== 'string' || !/^\w{1,32}$/.test(id)) throw new BizError('文档不存在');
  const d = (await ctx.db.selectFrom('doc_document').select([...DOC_COLUMNS]).where('id', '=', id).executeTakeFirst()) as DocRow | undefined;
  if (!d) throw new BizError('文档不存在');
  return d;
}

/** The user's level on the document, or null (no access). */
export async function levelOf(ctx: ServerContext, user: SessionUser, doc: DocRow, req: FastifyRequest): Promise<Level | null> {
  if (seesEverything(user)) return 'owner';
  if (doc.is_template) return 'read';
  if (doc.tenant_id !== user.tenantId) return null;
  if (doc.owner_id === user.id) return 'owner';
  if (doc.deleted_at) return null;
  const shares = await ctx.db
    .selectFrom('doc_share')
    .select(['target_type', 'target_id', 'level'])
    .where('doc_id', '=', doc.id)
    .execute();
  let best: Level | null = null;
  for (const s of shares) {
    const t = String(s.target_id);
    const hit =
      (s.target_type === 'user' && t === user.id) ||
      (s.target_type === 'depart' && user.departIds.includes(t)) ||
      (s.target_type === 'role' && user.roleCodes.includes(t));
    const l = s.level as Level;
    if (hit && RANK[l] && (!best || RANK[l] > RANK[best])) best = l;
  }
  if (best) return best;
  const links = await ctx.db.selectFrom('doc_link').select(['host_type', 'host_id']).where('doc_id', '=', doc.id).limit(50).execute();
  for (const l of links) {
    const host = HOSTS[String(l.host_type)];
    if (host && (await seesAnyRow(ctx, user, req, host.entity, [String(l.host_id)]).catch(() => false))) return 'read';
  }
  return null;
}

/** Whether the document may be changed now (not finalised, not in the trash, not a template unless admin). */
export const writable = (doc: DocRow, level: Level | null, user: SessionUser) =>
  atLeast(level, 'edit') && doc.status !== 'FINAL' && !doc.deleted_at && (!doc.is_template || seesEverything(user));

/** Loads the document and requires a level; throws the Chinese refusal otherwise. */
export async function requireDoc(ctx: ServerContext, req: FastifyRequest, id: unknown, need: Level) {
  const doc = await loadDoc(ctx, id);
  const level = await levelOf(ctx, req.user!, doc, req);
  if (!level) throw Forbidden('无权访问该文档');
  if (!atLeast(level, need)) throw Forbidden(need === 'owner' ? '只有文档所有者或管理员可以执行此操作' : need === 'edit' ? '您没有编辑该文档的权限' : '您没有评论该文档的权限');
  return { doc, level };
}
