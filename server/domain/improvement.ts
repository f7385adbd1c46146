import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import type { DB } from '../db/index.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { deleteRows, getRow, hookContext, inTransaction, listRows, saveRow } from '../crud/engine.js';
import { BizError, Forbidden, ok } from '../http/envelope.js';
import { allows } from '../http/guard.js';
import { newId, now } from '../util.js';
import { notifyDomain, targetOf as noticeTarget } from './notify.js';
import { noticeHtml } from '../sys/notice-text.js';
import { nextNo } from './numbering.js';
import { IMP_ACTION_TEXT, IMP_STATUS_TEXT, IMP_TRANSITIONS, isOverdue, nextStatus, SUBTASK_FINISHED, type ImpAction, type ImpStatus } from '../../shared/rules.js';
import { scopeOf, subtree } from './scope.js';
import { improvementFromAuditItem } from './audit.js';
import { currentTerm } from './base.js';
import { entityFileOwner, mentions, registerFileOwner, seesAnyRow } from '../sys/file-access.js';

/**
 * Improvement tasks and subtasks (DESIGN §4): one state machine for both, every transition logged
 * and notified; the issuing side and the handling side each take only their own actions.
 */
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
type Kind = 'task' | 'subtask';
const TABLE: Record<Kind, string> = { task: 'imp_task', subtask: 'imp_subtask' };

interface Target {
  kind: Kind;
  row: Row;
  issuerId: string;
  handlerId: string;
  handlerOrgCode: string;
}

function targetOf(kind: Kind, row: Row): Target {
  return kind === 'task'
    ? { kind, row, issuerId: str(row.issuerId), handlerId: str(row.respPersonId), handlerOrgCode: str(row.respOrgCode) }
    : { kind, row, issuerId: str(row.issuerId), handlerId: str(row.assigneeId), handlerOrgCode: str(row.assigneeOrgCode) };
}

const isIssuer = (t: Target, u: SessionUser) => t.issuerId === u.id || scopeOf(u) === 'all';
const isHandler = (t: Target, u: SessionUser) =>
  t.handlerId ? t.handlerId === u.id : !!t.handlerOrgCode && !!u.orgCode && u.orgCode.startsWith(t.handlerOrgCode);

export async function logAction(db: DB, t: { kind: Kind; id: string }, action: string, from: string | null, to: string | null, u: SessionUser, comment?: string, attachments?: string) {
  await db
    .insertInto('imp_action_log')
    .values({
      id: newId(), target_type: t.kind, target_id: t.id, action, from_status: from, to_status: to, operator_id: u.id, operator_name: u.realname,
      comment: comment || null, attachments: attachments || null, action_time: now(),
      seq: sql`(select coalesce(max(seq), 0) + 1 from imp_action_log where target_id = ${t.id})`,
    })
    .execute();
}

async function orgOfDepart(db: DB, departId: unknown): Promise<string | null> {
  if (!departId) return null;
  const d = await db.selectFrom('sys_depart').select('org_code').where('id', '=', str(departId)).executeTakeFirst();
  if (!d) throw new BizError('所选部门不存在');
  return String(d.org_code);
}

async function userOrg(db: DB, userId: unknown): Promise<string | null> {
  if (!userId) return null;
  const u = await db.selectFrom('sys_user').select('org_code').where('id', '=', str(userId)).executeTakeFirst();
  if (!u) throw new BizError('所选人员不存在');
  return (u.org_code as string | null) ?? null;
}

/** A lecture record raises one improvement task (a cancelled one does not count). */
async function refuseSecondTask(db: DB, recordId: string) {
  const open = await db.selectFrom('imp_task').select('task_no').where('source_id', '=', recordId).where('status', '<>', 'CANCELLED').executeTakeFirst();
  if (open) throw new BizError(`该听课记录已发起整改任务（${str(open.task_no)}），不能重复发起`);
}

function visibleTasks(u: SessionUser, alias = 't') {
  const c = (col: string) => sql.ref(`${alias}.${col}`);
  const s = scopeOf(u);
  if (s === 'all') return sql<SqlBool>`true`;
  // Scoped like lecture records: outside the university roles, one's own issued tasks count only
  // within one's department subtree (a college leader sees and changes only their college's tasks).
  const parts = [
    sql<SqlBool>`(${c('issuer_id')} = ${u.id} and ${c('resp_org_code')} like ${subtree(u.orgCode)})`,
    sql<SqlBool>`(${c('status')} <> 'DRAFT' and (${c('resp_person_id')} = ${u.id} or (${c('resp_person_id')} is null and ${u.orgCode} like (${c('resp_org_code')} || '%'))))`,
    sql<SqlBool>`exists (select 1 from imp_subtask st where st.task_id = ${c('id')} and st.status <> 'DRAFT' and st.assignee_id = ${u.id})`,
  ];
  if (s === 'depart') parts.push(sql<SqlBool>`(${c('status')} <> 'DRAFT' and ${c('resp_org_code')} like ${subtree(u.orgCode)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

function decorate(rows: Row[]): Row[] {
  for (const r of rows) {
    r.overdue = isOverdue(str(r.status), (r.deadline as string | null) ?? null);
    r.statusText = IMP_STATUS_TEXT[r.status as ImpStatus] ?? r.status;
  }
  return rows;
}

export function registerImprovementHooks() {
  defineEntityHooks('imp_task', {
    async beforeSave(h, row, mode, old) {
      if (mode === 'edit') {
        if (old!.status !== 'DRAFT') throw new BizError('已下发的整改任务不能修改');
        if (old!.issuerId !== h.user.id && scopeOf(h.user) !== 'all') throw new BizError('只能修改自己创建的整改任务');
      } else {
        Object.assign(row, { issuerId: h.user.id, status: 'DRAFT', taskNo: await nextNo(h.db, `ZG${dayjs().format('YYYY')}`, 5) });
        if (row.sourceId && row.source === 'AUDIT') {
          const item = await h.db.selectFrom('audit_item').select('id').where('id', '=', str(row.sourceId)).executeTakeFirst();
          if (!item) throw new BizError('来源审核要点不存在');
          row.termId = (await currentTerm(h.db))?.id ?? null;
        } else if (row.sourceId) {
          // Lock the record: two saves of the same 发起整改 form cannot both pass the duplicate check.
          await sql`select 1 from sup_lecture_record where id = ${str(row.sourceId)} for update`.execute(h.db);
          const rec = await h.db.selectFrom('sup_lecture_record').select(['term_id', 'status']).where('id', '=', str(row.sourceId)).executeTakeFirst();
          if (!rec || rec.status === 'DRAFT') throw new BizError('来源听课记录不存在或未提交');
          await refuseSecondTask(h.db, str(row.sourceId));
          row.termId = rec.term_id;
        }
      }
      const merged = { ...(old ?? {}), ...row };
      if (!merged.respPersonId && !merged.respDepartId) throw new BizError('请指定责任部门或责任人');
      row.respOrgCode = (await orgOfDepart(h.db, merged.respDepartId)) ?? (await userOrg(h.db, merged.respPersonId));
      if (scopeOf(h.user) !== 'all' && !str(row.respOrgCode).startsWith(h.user.orgCode || '\u0000'))
        throw new BizError('只能向本部门及下级部门（或其人员）下达整改任务');
      if (mode === 'add' && merged.deadline && str(merged.deadline) < dayjs().format('YYYY-MM-DD')) throw new BizError('整改期限不能早于今天');
    },
    async afterSave(h, row, mode) {
      if (mode === 'add') await logAction(h.db, { kind: 'task', id: str(row.id) }, 'CREATE', null, 'DRAFT', h.user);
    },
    beforeDelete(h, rows) {
      for (const r of rows) if (r.status !== 'DRAFT') throw new BizError('只能删除待下发的整改任务');
    },
    decorateRows: (_h, rows) => decorate(rows),
    listScope: (h, qb) => qb.where(visibleTasks(h.user)),
  });
  defineEntityHooks('imp_subtask', {
    async beforeSave(h, row, mode, old) {
      const taskId = str(mode === 'edit' ? old!.taskId : row.taskId);
      const task = await getRow(hookContext(h.ctx, h.req, 'imp_task', h.db), taskId, h.db);
      if (!task) throw new BizError('整改任务不存在');
      const t = targetOf('task', task);
      if (!isHandler(t, h.user) && !isIssuer(t, h.user)) throw new BizError('只有任务责任人或下发人可以分解子任务');
      if (mode === 'edit') {
        if (old!.status !== 'DRAFT') throw new BizError('已下发的子任务不能修改');
        row.taskId = old!.taskId;
      } else {
        if (!['ACCEPTED', 'IN_PROGRESS', 'REJECTED'].includes(str(task.status))) throw new BizError('整改任务签收后才能分解子任务');
        Object.assign(row, { issuerId: h.user.id, status: 'DRAFT' });
      }
      const merged = { ...(old ?? {}), ...row };
      if (!merged.assigneeId && !merged.assigneeDepartId) throw new BizError('请指定子任务负责人或负责部门');
      row.assigneeOrgCode = (await orgOfDepart(h.db, merged.assigneeDepartId)) ?? (await userOrg(h.db, merged.assigneeId));
      const inOrg = (org: string) => !!org && str(row.assigneeOrgCode).startsWith(org);
      if (scopeOf(h.user) !== 'all' && !inOrg(h.user.orgCode) && !inOrg(t.handlerOrgCode))
        throw new BizError('子任务只能分派给整改任务责任部门的人员或下级部门');
      if (merged.deadline && task.deadline && str(merged.deadline) > str(task.deadline)) throw new BizError('子任务期限不能晚于整改任务期限');
    },
    async afterSave(h, row, mode) {
      if (mode !== 'add') return;
      await logAction(h.db, { kind: 'subtask', id: str(row.id) }, 'CREATE', null, 'DRAFT', h.user);
      const task = await h.db.selectFrom('imp_task').select(['status']).where('id', '=', str(row.taskId)).executeTakeFirstOrThrow();
      await logAction(h.db, { kind: 'task', id: str(row.taskId) }, 'SPLIT', str(task.status), task.status === 'ACCEPTED' ? 'IN_PROGRESS' : str(task.status), h.user, `分解子任务：${str(row.title)}`);
      if (task.status === 'ACCEPTED') await h.db.updateTable('imp_task').set({ status: 'IN_PROGRESS' }).where('id', '=', str(row.taskId)).execute();
    },
    beforeDelete(h, rows) {
      for (const r of rows) if (r.status !== 'DRAFT' || r.issuerId !== h.user.id) throw new BizError('只能删除自己创建的待下发子任务');
    },
    async decorateRows(h, rows) {
      // The parent task's title (the rows are already scoped; the parent is visible through them).
      const ids = [...new Set(rows.map((r) => str(r.taskId)).filter(Boolean))];
      const titles = ids.length ? new Map((await h.db.selectFrom('imp_task').select(['id', 'title']).where('id', 'in', ids).execute()).map((t) => [String(t.id), String(t.title)])) : new Map<string, string>();
      for (const r of rows) r.taskId_dictText = titles.get(str(r.taskId)) ?? '';
      return decorate(rows);
    },
    listScope: (h, qb) =>
      qb.where((eb) =>
        eb.or([
          sql<SqlBool>`t.issuer_id = ${h.user.id}`,
          sql<SqlBool>`(t.status <> 'DRAFT' and (t.assignee_id = ${h.user.id} or (t.assignee_id is null and ${h.user.orgCode} like (t.assignee_org_code || '%'))))`,
          sql<SqlBool>`exists (select 1 from imp_task p where p.id = t.task_id and ${visibleTasks(h.user, 'p')})`,
        ]),
      ),
  });
}

/** The button permission (`improvement:<kind>:<button>`, seeded per role) each transition requires. */
export const ACTION_BUTTON: Record<Kind, Record<ImpAction, string>> = {
  task: { ISSUE: 'issue', ACCEPT: 'submitVerify', FEEDBACK: 'submitVerify', SUBMIT: 'submitVerify', REJECT: 'verify', VERIFY: 'verify', CLOSE: 'verify', CANCEL: 'cancel' },
  subtask: { ISSUE: 'add', ACCEPT: 'submit', FEEDBACK: 'submit', SUBMIT: 'submit', REJECT: 'verify', VERIFY: 'verify', CLOSE: 'verify', CANCEL: 'cancel' },
};

/** Applies one transition with its role check, log and notification; returns the updated row. */
export async function transition(ctx: ServerContext, req: FastifyRequest, kind: Kind, input: Row): Promise<Row> {
  const u = req.user!;
  const action = str(input.action).toUpperCase() as ImpAction;
  const comment = str(input.comment).trim();
  const attachments = str(input.attachments).trim();
  if (comment.length > 2000) throw new BizError('意见最多2000个字符');
  if (!IMP_TRANSITIONS[action]) throw new BizError(`不支持的操作：${str(input.action) || '（空）'}`);
  if (action === 'REJECT' && !comment) throw new BizError('退回时请填写退回原因');
  const push: Array<() => Promise<void>> = [];
  const saved = await inTransaction(ctx.db, async (trx) => {
    const entity = TABLE[kind];
    const row = await getRow(hookContext(ctx, req, entity, trx), input.id, trx);
    if (!row) throw new BizError(kind === 'task' ? '未找到对应整改任务' : '未找到对应子任务');
    // Row lock: two people acting at once cannot both move the same status.
    await sql`select 1 from ${sql.table(entity)} where id = ${str(row.id)} for update`.execute(trx);
    const cur = await trx.selectFrom(entity).select('status').where('id', '=', str(row.id)).executeTakeFirstOrThrow();
    const from = str(cur.status) as ImpStatus;
    const next = nextStatus(from, action);
    if ('error' in next) throw new BizError(next.error);
    const t = targetOf(kind, row);
    const side = IMP_TRANSITIONS[action].side;
    if (side === 'issuer' && !isIssuer(t, u)) throw new BizError(`只有${kind === 'task' ? '下发人或质量管理部门' : '分派人'}可以${IMP_ACTION_TEXT[action]}`);
    if (side === 'handler' && !isHandler(t, u)) throw new BizError(`只有${kind === 'task' ? '责任人' : '子任务负责人'}可以${IMP_ACTION_TEXT[action]}`);
    // Each transition needs its own button permission, not only the list permission.
    if (!u.perms.has(`improvement:${kind}:${ACTION_BUTTON[kind][action]}`)) throw Forbidden();
    const set: Record<string, unknown> = { status: next.to, update_by: u.username, update_time: now() };
    if (kind === 'task' && action === 'ISSUE') Object.assign(set, { issue_time: now() });
    if (action === 'FEEDBACK' || action === 'SUBMIT') {
      if (input.feedback !== undefined || input.result !== undefined) set[kind === 'task' ? 'feedback' : 'result'] = str(input.feedback ?? input.result) || null;
      if (attachments) set.attachments = attachments;
      if (kind === 'task' && input.progress !== undefined) {
        const p = Number(input.progress);
        if (!Number.isInteger(p) || p < 0 || p > 100) throw new BizError('进度应为0到100的整数');
        set.progress = p;
      }
    }
    if (kind === 'task' && action === 'SUBMIT') {
      const open = await trx.selectFrom('imp_subtask').select(['title', 'status']).where('task_id', '=', str(row.id)).where('status', 'not in', SUBTASK_FINISHED).execute();
      if (open.length) throw new BizError(`还有 ${open.length} 个子任务未验收（如“${str(open[0]!.title)}”），不能提交验收`);
      set.progress = 100;
    }
    if (action === 'VERIFY' || action === 'REJECT') {
      set.verify_opinion = comment || null;
      if (kind === 'task') Object.assign(set, { verifier_id: u.id, verify_time: now() });
      if (kind === 'task' && input.verifyRecordId) {
        const rec = await trx.selectFrom('sup_lecture_record').select(['teacher_id', 'status']).where('id', '=', str(input.verifyRecordId)).executeTakeFirst();
        if (!rec || rec.status === 'DRAFT') throw new BizError('复查听课记录不存在或未提交');
        set.verify_record_id = str(input.verifyRecordId);
      }
    }
    await trx.updateTable(entity).set(set).where('id', '=', str(row.id)).where('status', '=', from).execute();
    await logAction(trx, { kind, id: str(row.id) }, action, from, next.to, u, comment, attachments);
    if (kind === 'subtask' && action === 'ACCEPT') {
      // Work on a subtask means the parent is being worked on.
      const p = await trx.selectFrom('imp_task').select('status').where('id', '=', str(row.taskId)).executeTakeFirst();
      if (p?.status === 'ACCEPTED') await trx.updateTable('imp_task').set({ status: 'IN_PROGRESS' }).where('id', '=', str(row.taskId)).execute();
    }
    const to = side === 'issuer' ? [t.handlerId] : [t.issuerId];
    if (!t.handlerId && side === 'issuer' && t.handlerOrgCode) {
      const leaders = await trx.selectFrom('sys_user').select('id').where('org_code', '=', t.handlerOrgCode).where('del_flag', '=', 0).limit(50).execute();
      to.push(...leaders.map((l) => String(l.id)));
    }
    push.push(
      await notifyDomain(ctx, trx, to.filter((x) => x && x !== u.id), {
        title: `${kind === 'task' ? '整改任务' : '整改子任务'}“${str(row.title)}”${IMP_ACTION_TEXT[action]}：${IMP_STATUS_TEXT[next.to]}`,
        content: noticeHtml`${u.realname} ${IMP_ACTION_TEXT[action]}了${kind === 'task' ? '整改任务' : '子任务'}“${str(row.title)}”` + (comment ? noticeHtml`，意见：${comment}` : ''),
        busType: kind === 'task' ? 'imp_task' : 'imp_subtask', busId: str(row.id), sender: u.username,
        // A person named responsible for a task works on it in 我的整改任务.
        ...(kind === 'task' && side === 'issuer' && t.handlerId ? { openPage: noticeTarget('imp_task', str(row.id), '/improvement/myTask') } : {}),
      }),
    );
    return (await getRow(hookContext(ctx, req, entity, trx), str(row.id), trx))!;
  });
  for (const p of push) await p();
  return saved;
}

/** Evidence files: those of a task or subtask, and those sent with a transition (the action log), readable by who sees that task or subtask. */
function registerImprovementFiles() {
  registerFileOwner(entityFileOwner('improvement-task', 'imp_task', ['attachments']));
  registerFileOwner(entityFileOwner('improvement-subtask', 'imp_subtask', ['attachments']));
  registerFileOwner({
    name: 'improvement-log',
    async resolve(ctx, user, file, req) {
      const logs = await ctx.db.selectFrom('imp_action_log as t').select(['t.target_type', 't.target_id']).where(mentions('t.attachments', file.url)).limit(100).execute();
      if (!logs.length) return undefined;
      for (const kind of ['task', 'subtask'] as const)
        if (await seesAnyRow(ctx, user, req, TABLE[kind], logs.filter((l) => l.target_type === kind).map((l) => str(l.target_id)))) return true;
      return false;
    },
  });
}

export async function registerImprovement(api: FastifyInstance, ctx: ServerContext) {
  registerImprovementHooks();
  registerImprovementFiles();
  const q = (req: FastifyRequest) => (req.query ?? {}) as Row;
  const body = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? req.body : {}) as Row;
  for (const kind of ['task', 'subtask'] as Kind[]) {
    const E = TABLE[kind];
    const P = `improvement:${kind}`;
    const h = (req: FastifyRequest) => hookContext(ctx, req, E);
    const base = `/improvement/${kind}`;
    api.get(`${base}/list`, { config: { auth: `${P}:list` } }, async (req) => ok(await listRows(h(req), q(req))));
    api.get(`${base}/queryById`, { config: { auth: [`${P}:queryById`, `${P}:list`] } }, async (req) => {
      const r = await getRow(h(req), q(req).id);
      if (!r) throw new BizError('未找到对应数据');
      if (kind === 'task') r.subtasks = (await listRows(hookContext(ctx, req, 'imp_subtask'), { taskId: str(r.id), pageSize: 200 })).records;
      const logs = await ctx.db
        .selectFrom('imp_action_log')
        .select(['id', 'action', 'from_status as fromStatus', 'to_status as toStatus', 'operator_name as operatorName', 'comment', 'attachments', 'action_time as actionTime'])
        .where('target_id', '=', str(r.id))
        .orderBy('seq')
        .orderBy('action_time')
        .execute();
      r.logs = logs;
      // Uploaded files are stored under generated names: the names they were uploaded with, for the detail.
      const urls = [...new Set([r.attachments, ...logs.map((l) => l.attachments)].flatMap((v) => str(v).split(',')).filter(Boolean))];
      const named = urls.length ? await ctx.db.selectFrom('sys_file').select(['url', 'file_name']).where('url', 'in', urls).execute() : [];
      r.fileNames = Object.fromEntries(named.map((f) => [String(f.url), String(f.file_name)]));
      return ok(r);
    });
    api.post(`${base}/add`, { config: { auth: `${P}:add` } }, async (req) => ok(await saveRow(h(req), body(req), 'add'), '添加成功！'));
    for (const m of ['put', 'post'] as const)
      api[m](`${base}/edit`, { config: { auth: `${P}:edit` } }, async (req) => ok(await saveRow(h(req), body(req), 'edit'), '编辑成功！'));
    api.delete(`${base}/delete`, { config: { auth: `${P}:delete` } }, async (req) => {
      await deleteRows(h(req), [str(q(req).id)]);
      return ok(null, '删除成功!');
    });
    api.delete(`${base}/deleteBatch`, { config: { auth: `${P}:deleteBatch` } }, async (req) => {
      await deleteRows(h(req), str(q(req).ids).split(','));
      return ok(null, '批量删除成功!');
    });
    api.post(`${base}/transition`, { config: { auth: `${P}:list` } }, async (req) => {
      // The action may come in the query (a screen's row button posts the row as the body).
      const b = body(req);
      const action = b.action ?? q(req).action;
      return ok(await transition(ctx, req, kind, { ...b, action, comment: b.comment ?? q(req).comment }), '操作成功！');
    });
  }

  /** 我的整改任务: the tasks one is named responsible for (within what one may see). */
  api.get('/improvement/task/mine', { config: { auth: 'improvement:task:list' } }, async (req) =>
    ok(await listRows(hookContext(ctx, req, 'imp_task'), { ...q(req), respPersonId: req.user!.id })),
  );

  /** Pre-filled values for a subtask split from a task (the 分解 link of the task screen). */
  api.get('/improvement/subtask/prefill', { config: { auth: 'improvement:subtask:add' } }, async (req) => {
    const task = await getRow(hookContext(ctx, req, 'imp_task'), q(req).taskId);
    if (!task) throw new BizError('未找到对应整改任务');
    if (!['ACCEPTED', 'IN_PROGRESS', 'REJECTED'].includes(str(task.status))) throw new BizError('整改任务签收后才能分解子任务');
    return ok({ taskId: task.id, taskId_dictText: task.title, deadline: task.deadline ?? null, measures: str(task.requirement) });
  });

  /**
   * Pre-filled values for a task raised from a flagged lecture record (one click in the record screen,
   * `recordId`) or from an audit item whose self-check found a problem (`auditItemId`).
   */
  api.get('/improvement/task/prefill', { config: { auth: 'improvement:task:add' } }, async (req) => {
    if (q(req).auditItemId) {
      if (!allows(req.user!, 'audit:item:list')) throw Forbidden(); // the item's text is the audit screens' data
      const item = await getRow(hookContext(ctx, req, 'audit_item'), str(q(req).auditItemId));
      if (!item) throw new BizError('未找到对应审核要点');
      return ok(await improvementFromAuditItem(item, ctx.db));
    }
    const rec = await getRow(hookContext(ctx, req, 'sup_lecture_record'), q(req).recordId);
    if (!rec) throw new BizError('未找到对应听课记录');
    await refuseSecondTask(ctx.db, str(rec.id));
    // The teacher's college is responsible (its secretary or leader accepts and splits the work);
    // the college is the second level of the department tree (orgCode of 6 characters).
    const org = await ctx.db.selectFrom('sys_user').select('org_code').where('id', '=', str(rec.teacherId)).executeTakeFirst();
    const code = str(org?.org_code);
    const college = await ctx.db
      .selectFrom('sys_depart')
      .select('id')
      .where('org_code', 'in', [code.slice(0, 6), code].filter(Boolean))
      .orderBy(sql`length(org_code)`)
      .executeTakeFirst();
    return ok({
      title: `${str(rec.teacherName)}《${str(rec.courseName)}》听课问题整改`,
      source: 'LECTURE', sourceId: rec.id, termId: rec.termId, category: 'METHOD', severity: 'NORMAL',
      description: str(rec.problems) || '听课发现的问题', requirement: str(rec.suggestions) || '',
      // The observed teacher is responsible, within their college.
      respPersonId: str(rec.teacherId) || null, respPersonId_dictText: str(rec.teacherName) || undefined, respDepartId: college?.id ?? null, deadline: dayjs().add(30, 'day').format('YYYY-MM-DD'),
    });
  });
}
