import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import type { SessionUser } from '../auth/session.js';
import { BizError } from '../http/envelope.js';
import { fmt, newId, now } from '../util.js';
import { notifyUsers } from '../sys/notify.js';
import { evaluate } from '../../shared/expr.js';
import { durationMs, runStep, validateModel, type ModelMeta, type StepInput, type StepResult } from './engine.js';
import { bizHandler } from './business.js';
import { checkSubmitted, historyForm, missingForms, ready, taskForm, type ReadyForm } from './forms.js';

/**
 * Instances and tasks of the approval workflow. Every change of an instance runs in one transaction
 * that locks the instance row (FOR UPDATE), runs one engine step (engine.ts) from the stored state and
 * writes back the state (rev + 1), the waiting tasks (upserted by execution id), the timers and the
 * history. Pushes (websocket) run after commit.
 */
export type Actor = Pick<SessionUser, 'id' | 'username' | 'realname' | 'roleCodes' | 'perms'>;
export const SYSTEM: Actor = { id: 'system', username: 'system', realname: '系统', roleCodes: [], perms: new Set() };
export const ADMIN_PERM = 'workflow:task:list';
export const isWfAdmin = (u: Actor) => u.roleCodes.includes('admin') || u.perms.has(ADMIN_PERM);

type Row = Record<string, any>;
export type Push = () => Promise<void>;
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export interface VersionRow {
  id: string;
  model_id: string;
  version: number;
  name: string;
  xml: string;
  meta: ModelMeta;
  status: string;
}

const versions = new Map<string, VersionRow>();
/** Versions are immutable except their status: cache the parsed definition. */
export async function loadVersion(db: DB, id: string): Promise<VersionRow> {
  const hit = versions.get(id);
  const row = (await db.selectFrom('wf_model_version').select(hit ? ['id', 'status'] : ['id', 'model_id', 'version', 'name', 'xml', 'meta', 'status']).where('id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!row) throw new BizError('流程版本不存在');
  if (hit) return { ...hit, status: row.status };
  const v = { ...(row as VersionRow), meta: typeof row.meta === 'string' ? JSON.parse(row.meta) : row.meta };
  versions.set(id, v);
  return v;
}

// ---------------------------------------------------------------------------------------------- people

async function usersWithRole(db: DB, role: string, orgCode?: string): Promise<string[]> {
  let q = db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
    .select('u.id')
    .where('r.role_code', '=', role)
    .where('u.del_flag', '=', '0')
    .where('u.status', '=', 1);
  if (orgCode !== undefined)
    q = q.where((eb) => eb.exists(eb.selectFrom('sys_user_depart as ud').innerJoin('sys_depart as d', 'd.id', 'ud.dep_id').select('ud.id').whereRef('ud.user_id', '=', 'u.id').where('d.org_code', '=', orgCode)));
  return (await q.orderBy('u.username').execute()).map((r) => str(r.id));
}

async function userIdsOf(db: DB, values: unknown): Promise<string[]> {
  const list = (Array.isArray(values) ? values : str(values).split(',')).map((v) => str(v).trim()).filter(Boolean);
  if (!list.length) return [];
  const rows = await db.selectFrom('sys_user').select(['id', 'username']).where((eb) => eb.or([eb('id', 'in', list), eb('username', 'in', list)])).where('del_flag', '=', '0').execute();
  return list.map((v) => rows.find((r) => r.id === v || r.username === v)?.id).filter(Boolean).map(str);
}

/** Resolves every user task's assignee rule for this instance (before a step: the countersign collections). */
export async function resolveAssignees(db: DB, meta: ModelMeta, inst: { applicant_id: string; applicant_org: string; variables: Row }, only?: (id: string) => boolean): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of Object.values(meta.tasks)) {
    if (only && !only(t.id)) continue;
    const a = t.assignee;
    let ids: string[] = [];
    if (a === 'applicant') ids = [inst.applicant_id];
    else if (a === 'leader' || a === 'secretary') ids = await usersWithRole(db, a, inst.applicant_org);
    else if (a.startsWith('role:')) ids = await usersWithRole(db, a.slice(5));
    else if (a.startsWith('user:')) ids = await userIdsOf(db, a.slice(5));
    else if (a.startsWith('expr:')) {
      let v: unknown;
      try {
        v = evaluate(a.slice(5), { ...inst.variables, applicantId: inst.applicant_id });
      } catch {
        v = undefined;
      }
      ids = await userIdsOf(db, v);
    }
    out[t.id] = [...new Set(ids)];
  }
  return out;
}

// -------------------------------------------------------------------------------------------- notices

async function notice(ctx: ServerContext, db: DB, to: string[], title: string, content: string, taskId: string | null, instanceId: string, sender: string): Promise<Push> {
  const users = [...new Set(to.filter((u) => u && u !== 'system'))];
  if (!users.length) return async () => undefined;
  const id = newId();
  const t = now();
  const openPage = taskId ? `/workflow/todo?taskId=${taskId}` : `/workflow/history?id=${instanceId}`;
  await db
    .insertInto('sys_announcement')
    .values({
      id, titile: title.slice(0, 100), msg_content: content, msg_abstract: content.slice(0, 200), sender, priority: 'M', msg_category: '2', msg_type: 'USER',
      send_status: '1', send_time: t, start_time: t, del_flag: '0', user_ids: users.join(',') + ',', bus_type: 'wf_task', bus_id: taskId ?? instanceId,
      open_type: 'url', open_page: openPage, tenant_id: 0, create_by: sender, create_time: t,
    })
    .execute();
  await db.insertInto('sys_announcement_send').values(users.map((u) => ({ id: newId(), annt_id: id, user_id: u, read_flag: '0' }))).execute();
  return async () => notifyUsers(ctx, users, { cmd: 'user', msgId: id, msgTxt: title }).catch(() => undefined);
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// -------------------------------------------------------------------------------------------- history

interface HistoryEntry { event: string; elementId?: string; elementName?: string; userId?: string; taskId?: string; decision?: string; comment?: string; attachments?: string; duration?: number; form?: Record<string, string> }
interface Pending {
  history: Array<{ instanceId: string; h: HistoryEntry; time: string }>;
  /** Instances whose tasks changed: their to-do candidates (wf_task_user) are rebuilt at the end. */
  touched: Set<string>;
}
/** Per transaction: history rows and touched instances, written once at its end (flush). */
const pending = new WeakMap<object, Pending>();
const pendingOf = (db: DB): Pending => {
  let p = pending.get(db);
  if (!p) pending.set(db, (p = { history: [], touched: new Set() }));
  return p;
};

/** Queues a history row (written by flush, in the same transaction, in order). */
function history(db: DB, instanceId: string, h: HistoryEntry) {
  const p = pendingOf(db);
  p.history.push({ instanceId, h, time: now() });
  p.touched.add(instanceId);
}
/** Marks an instance whose tasks change in this transaction. */
const touch = (db: DB, instanceId: string) => void pendingOf(db).touched.add(instanceId);

/**
 * Ends a transaction's workflow writes: the queued history in one insert (sequence numbers after the
 * instance's last), and the to-do candidates of every touched instance rebuilt from its open tasks
 * (wf_task_user: one row per user who may act — the assignee, else each candidate — keyed for the to-do list).
 */
async function flush(db: DB): Promise<string[]> {
  const p = pending.get(db);
  if (!p) return [];
  pending.delete(db);
  if (p.history.length) {
    const ids = [...new Set(p.history.map((x) => x.instanceId))];
    const last = new Map(
      ((await db.selectFrom('wf_history').select(['instance_id', (eb) => eb.fn.max('seq').as('seq')]).where('instance_id', 'in', ids).groupBy('instance_id').execute()) as Row[]).map((r) => [
        str(r.instance_id),
        Number(r.seq ?? 0),
      ]),
    );
    await db
      .insertInto('wf_history')
      .values(
        p.history.map(({ instanceId, h, time }) => {
          const seq = (last.get(instanceId) ?? 0) + 1;
          last.set(instanceId, seq);
          return {
            id: newId(), instance_id: instanceId, task_id: h.taskId ?? null, element_id: h.elementId ?? null, element_name: h.elementName?.slice(0, 200) ?? null, event: h.event,
            user_id: h.userId ?? null, decision: h.decision ?? null, comment: h.comment?.slice(0, 1000) ?? null, attachments: h.attachments?.slice(0, 2000) ?? null, form: h.form ? JSON.stringify(h.form) : null, time, duration: h.duration ?? null, seq,
          };
        }),
      )
      .execute();
  }
  if (!p.touched.size) return [];
  const ids = [...p.touched];
  const before = (await db.deleteFrom('wf_task_user').where('instance_id', 'in', ids).returning(['id', 'user_id']).execute()) as Row[];
  const after = (
    await sql<Row>`insert into wf_task_user (id, task_id, instance_id, user_id, create_time)
      select md5(t.id || '|' || u.uid), t.id, t.instance_id, u.uid, t.create_time
      from wf_task t cross join lateral unnest(case when t.assignee_id is not null then array[t.assignee_id]
        else string_to_array(trim(both ',' from coalesce(t.candidate_ids, '')), ',') end) as u(uid)
      where t.instance_id in (${sql.join(ids)}) and t.status = 'OPEN' and u.uid <> ''
      on conflict do nothing returning id, user_id`.execute(db)
  ).rows;
  // Users whose to-do list changed (a row gone or new): their header count is refreshed by a push.
  const was = new Set(before.map((r) => str(r.id)));
  const is = new Set(after.map((r) => str(r.id)));
  return [...new Set([...before.filter((r) => !is.has(str(r.id))), ...after.filter((r) => !was.has(str(r.id)))].map((r) => str(r.user_id)))];
}

/** A push telling users their to-do list changed (the header's 我的待办 count refetches). */
const todoPush = (ctx: ServerContext, users: string[]): Push => async () => {
  if (users.length) await notifyUsers(ctx, users, { cmd: 'todo' }).catch(() => undefined);
};

// ------------------------------------------------------------------------------------------ the step

interface StepCtx {
  ctx: ServerContext;
  trx: DB;
  inst: Row;
  version: VersionRow;
  actor: Actor;
  pushes: Push[];
}

/** An instance's data (`wf_instance.variables`, JSON text on some drivers). */
export const variablesOf = (inst: Row): Row => (typeof inst.variables === 'string' ? JSON.parse(inst.variables) : (inst.variables ?? {}));

async function stepInput(s: StepCtx, fresh = false): Promise<StepInput> {
  const variables = variablesOf(s.inst);
  // Countersign collections are needed during the step; other tasks' assignees are resolved when they wait (persist).
  const assignees = await resolveAssignees(s.trx, s.version.meta, { applicant_id: s.inst.applicant_id, applicant_org: s.inst.applicant_org, variables }, (id) => !!s.version.meta.tasks[id]?.countersign);
  const state = fresh || !s.inst.state ? undefined : typeof s.inst.state === 'string' ? JSON.parse(s.inst.state) : s.inst.state;
  return { xml: s.version.xml, meta: s.version.meta, state, variables, assignees };
}

/** Writes a step's outcome: state, tasks (new ones notified), tasks no longer waiting cancelled, timers, history, completion. */
async function persist(s: StepCtx, res: StepResult, input: StepInput) {
  const { trx, inst, version } = s;
  const meta = version.meta;
  const t = now();
  for (const e of res.ended) {
    if (meta.tasks[e.elementId]) continue; // user tasks are logged when acted on
    const name = meta.names[e.elementId];
    if (!name) continue;
    history(trx, inst.id, { event: 'NODE', elementId: e.elementId, elementName: name });
  }
  for (const f of res.flows) history(trx, inst.id, { event: 'FLOW', elementId: f });
  const open = (await trx.selectFrom('wf_task').select(['id', 'execution_id', 'signal_id', 'kind']).where('instance_id', '=', inst.id).where('status', '=', 'OPEN').execute()) as Row[];
  const waitingIds = new Set(res.waiting.map((w) => w.executionId));
  const known = new Set(open.map((o) => str(o.signal_id)));
  const fresh = res.waiting.filter((w) => !known.has(w.executionId) && meta.tasks[w.elementId] && !w.assignee);
  if (fresh.length) {
    const need = new Set(fresh.map((w) => w.elementId));
    Object.assign(input.assignees, await resolveAssignees(trx, meta, { applicant_id: inst.applicant_id, applicant_org: inst.applicant_org, variables: input.variables }, (id) => need.has(id) && !input.assignees[id]));
  }
  // Tasks whose execution no longer waits (a countersign decided early, a boundary timer fired): cancelled.
  const gone = open.filter((o) => o.kind !== 'RESUBMIT' && !waitingIds.has(str(o.signal_id)));
  if (gone.length) await trx.updateTable('wf_task').set({ status: 'CANCELLED', end_time: t }).where('id', 'in', gone.map((g) => g.id)).execute();
  const insertedIds: string[] = [];
  for (const w of res.waiting) {
    const tm = meta.tasks[w.elementId];
    if (!tm || known.has(w.executionId)) continue;
    const users = w.assignee ? [w.assignee] : (input.assignees[w.elementId] ?? []);
    if (!users.length) throw new BizError(`未找到“${tm.name}”的处理人，请联系管理员检查流程配置`);
    const id = newId();
    const due = tm.dueTime ? fmt(new Date(Date.now() + durationMs(tm.dueTime))) : null;
    const inserted = await trx
      .insertInto('wf_task')
      .values({
        id, instance_id: inst.id, execution_id: w.executionId, signal_id: w.executionId, element_id: w.elementId, name: tm.name, kind: 'TASK', multi: tm.countersign ?? null,
        assignee_id: users.length === 1 ? users[0] : null, candidate_ids: users.length > 1 ? `,${users.join(',')},` : null, form_key: tm.formKey ?? null,
        status: 'OPEN', round: inst.round ?? 1, superseded: false, create_time: t, due_time: due,
      })
      .onConflict((oc) => oc.columns(['instance_id', 'execution_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    insertedIds.push(id);
    if (due) await upsertTimer(trx, { instanceId: inst.id, executionId: w.executionId, kind: 'DUE', elementId: w.elementId, taskId: id, action: tm.onTimeout ?? 'notify', dueAt: due });
    s.pushes.push(
      await notice(s.ctx, trx, users, `待办：${str(inst.title)} — ${tm.name}`, `<p>${esc(str(inst.model_name))}：${esc(str(inst.title))}，请办理“${esc(tm.name)}”。</p>`, id, inst.id, s.actor.username),
    );
  }
  // Engine timers: the active ones are (re)stored, the rest of this instance's engine timers are void.
  const activeTimers = new Set(res.timers.map((x) => x.executionId));
  for (const x of res.timers) await upsertTimer(trx, { instanceId: inst.id, executionId: x.executionId, kind: 'ENGINE', elementId: x.elementId, dueAt: fmt(x.dueAt) });
  const waitingTimers = (await trx.selectFrom('wf_timer').select(['id', 'execution_id', 'kind', 'task_id']).where('instance_id', '=', inst.id).where('status', '=', 'WAITING').execute()) as Row[];
  const goneIds = new Set(gone.map((g) => str(g.id)));
  const openTaskIds = new Set([...open.map((o) => str(o.id)).filter((id) => !goneIds.has(id)), ...insertedIds]);
  const voidTimers = waitingTimers.filter((x) => (x.kind === 'ENGINE' ? !activeTimers.has(x.execution_id) : !openTaskIds.has(x.task_id)));
  if (voidTimers.length) await trx.updateTable('wf_timer').set({ status: 'CANCELLED' }).where('id', 'in', voidTimers.map((x) => x.id)).execute();

  const current = [...new Set(res.waiting.map((w) => meta.tasks[w.elementId]?.name).filter(Boolean))].join('、');
  const done = res.completed;
  const upd = await trx
    .updateTable('wf_instance')
    .set({ state: JSON.stringify(res.state), rev: sql`rev + 1`, current_nodes: done ? null : current.slice(0, 500), ...(done ? { status: 'COMPLETED', end_time: t } : {}) })
    .where('id', '=', inst.id)
    .where('rev', '=', inst.rev)
    .executeTakeFirst();
  if (Number(upd.numUpdatedRows) !== 1) throw new BizError('流程状态已变化，请刷新后重试');
  inst.rev = Number(inst.rev) + 1;
  if (done) {
    history(trx, inst.id, { event: 'END', elementName: '流程结束', decision: 'approve' });
    await bizHandler(inst.biz_type)?.onEnd?.(s.ctx, trx, inst, 'APPROVED', s.actor);
    s.pushes.push(await notice(s.ctx, trx, [inst.applicant_id], `审批通过：${str(inst.title)}`, `<p>您的申请“${esc(str(inst.title))}”已审批通过。</p>`, null, inst.id, s.actor.username));
  }
}

async function upsertTimer(trx: DB, x: { instanceId: string; executionId: string; kind: string; elementId: string; taskId?: string; action?: string; dueAt: string }) {
  await trx
    .insertInto('wf_timer')
    .values({ id: newId(), instance_id: x.instanceId, execution_id: x.executionId, kind: x.kind, element_id: x.elementId, task_id: x.taskId ?? null, action: x.action ?? null, due_at: x.dueAt, status: 'WAITING' })
    .onConflict((oc) => oc.columns(['instance_id', 'execution_id', 'kind']).doUpdateSet({ due_at: x.dueAt }).where('wf_timer.status', '=', 'WAITING'))
    .execute();
}

async function lockInstance(trx: DB, id: string): Promise<Row> {
  const inst = (await trx.selectFrom('wf_instance').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) as Row | undefined;
  if (!inst) throw new BizError('流程实例不存在');
  touch(trx, id);
  return inst;
}

async function withPushes<T>(ctx: ServerContext, fn: (trx: DB, pushes: Push[]) => Promise<T>): Promise<T> {
  const pushes: Push[] = [];
  const out = await ctx.db.transaction().execute(async (trx) => {
    const r = await fn(trx, pushes);
    pushes.push(todoPush(ctx, await flush(trx)));
    return r;
  });
  for (const p of pushes) await p();
  return out;
}

// ------------------------------------------------------------------------------------------ starting

export interface StartInput {
  versionId?: string;
  modelKey?: string;
  title?: string;
  variables?: Row;
  bizType?: string;
  bizId?: string;
  /** The department the business record belongs to, for the `leader` / `secretary` rules (default: the applicant's). */
  orgCode?: string;
  /** The start form's values as `label → text`, for the history's 发起 step. */
  form?: Record<string, string>;
}

/** The newest active (deployed, not suspended) version of a model, by key or id; undefined when there is none. */
export async function activeVersionId(db: DB, model: { modelKey?: string; modelId?: string }): Promise<string | undefined> {
  let q = db.selectFrom('wf_model_version as v').innerJoin('wf_model as m', 'm.id', 'v.model_id').select('v.id').where('v.status', '=', 'ACTIVE');
  if (model.modelKey) q = q.where('m.model_key', '=', model.modelKey);
  else if (model.modelId) q = q.where('m.id', '=', model.modelId);
  else throw new BizError('请选择流程');
  const r = await q.orderBy('v.version', 'desc').executeTakeFirst();
  return r ? str(r.id) : undefined;
}

export async function activeVersionOf(db: DB, input: { versionId?: string; modelKey?: string; modelId?: string }): Promise<VersionRow> {
  let id = input.versionId;
  if (!id) {
    id = await activeVersionId(db, input);
    if (!id) throw new BizError('该流程没有已部署的可用版本');
  }
  const v = await loadVersion(db, id);
  if (v.status !== 'ACTIVE') throw new BizError('该流程版本已挂起，不能发起');
  return v;
}

const MAX_VARIABLES = 64 * 1024;
function cleanVariables(v: unknown): Row {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new BizError('表单数据格式有误');
  const text = JSON.stringify(v);
  if (text.length > MAX_VARIABLES) throw new BizError('表单数据过大');
  return JSON.parse(text, (k, val) => (k === '__proto__' || k === 'constructor' || k === 'prototype' ? undefined : val));
}

/**
 * Starts an instance. With `db` it runs inside the caller's transaction: its pushes (notices, to-do counts) go
 * to `pushes` for the caller to send after commit (dropped when not given).
 */
export async function startInstance(ctx: ServerContext, user: Actor & { orgCode: string }, input: StartInput, db?: DB, pushes: Push[] = []): Promise<Row> {
  const run = async (trx: DB, pushes: Push[]) => {
    const version = await activeVersionOf(trx, input);
    const variables = cleanVariables(input.variables);
    if (input.bizType && input.bizId) {
      const running = await trx.selectFrom('wf_instance').select('id').where('biz_type', '=', input.bizType).where('biz_id', '=', input.bizId).where('status', 'in', ['RUNNING', 'RETURNED']).executeTakeFirst();
      if (running) throw new BizError('该记录已有进行中的审批');
    }
    const id = newId();
    const t = now();
    const title = str(input.title).trim().slice(0, 200) || `${version.name}（${user.realname}）`;
    const inst: Row = {
      id, model_id: version.model_id, version_id: version.id, version: version.version, model_name: version.name, title, applicant_id: user.id, applicant_org: input.orgCode || user.orgCode,
      biz_type: input.bizType ?? null, biz_id: input.bizId ?? null, status: 'RUNNING', variables: JSON.stringify(variables), state: null, rev: 0, round: 1, start_time: t,
    };
    await trx.insertInto('wf_instance').values(inst).execute();
    inst.variables = variables;
    history(trx, id, { event: 'START', elementName: '发起申请', userId: user.id, form: input.form });
    const s: StepCtx = { ctx, trx, inst, version, actor: user, pushes };
    const input2 = await stepInput(s, true);
    const res = await runStep(input2, undefined, true);
    await persist(s, res, input2);
    return { id, title, status: res.completed ? 'COMPLETED' : 'RUNNING' };
  };
  if (db)
    return run(db, pushes).then(async (r) => {
      pushes.push(todoPush(ctx, await flush(db)));
      return r;
    });
  return withPushes(ctx, run);
}

// ------------------------------------------------------------------------------------------ task actions

export interface TaskAction {
  action: 'approve' | 'reject' | 'transfer' | 'addSign' | 'comment' | 'resubmit';
  comment?: string;
  attachments?: string;
  /** reject: 'applicant' (default) or 'previous'. */
  target?: string;
  /** transfer / addSign: the user. */
  userId?: string;
  /** resubmit: the corrected start form; approve: the task form's values (checked against the form's fields). */
  form?: Row;
  /** Older clients' name of `form` for resubmit. */
  variables?: Row;
}

export const mayAct = (task: Row, user: Actor) => task.assignee_id === user.id || (!task.assignee_id && str(task.candidate_ids).includes(`,${user.id},`));

/** Completes a task once: locks the task, then the instance; a task already done answers its stored outcome. */
export async function actOnTask(ctx: ServerContext, user: Actor, taskId: string, a: TaskAction): Promise<{ status: string; already?: boolean }> {
  const comment = str(a.comment).trim().slice(0, 1000);
  const attachments = str(a.attachments).trim().slice(0, 2000);
  // The task's form, read before the transaction (its page and dictionaries come through the server's connection).
  let taskFormDef: ReadyForm | undefined;
  if (a.action === 'approve' || (a.action === 'resubmit' && (a.form ?? a.variables) !== undefined)) {
    const t = (await ctx.db.selectFrom('wf_task as t').innerJoin('wf_instance as i', 'i.id', 't.instance_id').select(['t.kind', 't.form_key', 'i.version_id']).where('t.id', '=', taskId).executeTakeFirst()) as Row | undefined;
    if (t) taskFormDef = await ready(ctx, await taskForm(ctx, (await loadVersion(ctx.db, str(t.version_id))).meta, t));
  }
  return withPushes(ctx, async (trx, pushes) => {
    const task = (await trx.selectFrom('wf_task').selectAll().where('id', '=', taskId).forUpdate().executeTakeFirst()) as Row | undefined;
    if (!task) throw new BizError('任务不存在');
    const admin = user.id === SYSTEM.id;
    if (!admin && !mayAct(task, user)) throw new BizError('您不是该任务的处理人，不能办理');
    if (task.status !== 'OPEN') {
      if (task.actor_id === user.id && ['approve', 'reject', 'resubmit'].includes(a.action)) return { status: str(task.decision), already: true };
      throw new BizError('该任务已办理或已取消');
    }
    const inst = await lockInstance(trx, task.instance_id);
    if (!['RUNNING', 'RETURNED'].includes(inst.status)) throw new BizError('流程已结束');
    const version = await loadVersion(trx, inst.version_id);
    const s: StepCtx = { ctx, trx, inst, version, actor: user, pushes };
    const t = now();
    const duration = Date.now() - dayjs(task.create_time).valueOf();
    const finish = (decision: string) =>
      trx.updateTable('wf_task').set({ status: 'DONE', decision, comment: comment || null, attachments: attachments || null, actor_id: user.id, assignee_id: task.assignee_id ?? user.id, end_time: t }).where('id', '=', task.id).execute();
    const log = (event: string, decision?: string, extra: Row = {}) =>
      history(trx, inst.id, { event, elementId: task.element_id, elementName: task.name, userId: user.id, taskId: task.id, decision, comment, attachments, duration, ...extra });

    switch (a.action) {
      case 'comment': {
        if (!comment && !attachments) throw new BizError('请填写意见或上传附件');
        await log('COMMENT');
        return { status: 'OPEN' };
      }
      case 'transfer':
      case 'addSign': {
        const to = str(a.userId);
        const target = to ? await trx.selectFrom('sys_user').select(['id', 'realname']).where('id', '=', to).where('del_flag', '=', '0').executeTakeFirst() : undefined;
        if (!target) throw new BizError(a.action === 'transfer' ? '请选择转办给谁' : '请选择加签人');
        if (target.id === user.id) throw new BizError('不能选择自己');
        if (a.action === 'transfer') {
          await trx.updateTable('wf_task').set({ assignee_id: target.id, candidate_ids: null }).where('id', '=', task.id).execute();
          await log('TRANSFER', undefined, { comment: `转办给${str(target.realname)}${comment ? `：${comment}` : ''}` });
        } else {
          if (task.kind === 'RESUBMIT') throw new BizError('重新提交不能加签');
          const id = newId();
          await trx
            .insertInto('wf_task')
            .values({
              id, instance_id: inst.id, execution_id: `${task.execution_id}#${id.slice(0, 8)}`, signal_id: task.signal_id, element_id: task.element_id, name: `${task.name}（加签）`,
              kind: 'ADDSIGN', assignee_id: target.id, form_key: task.form_key, status: 'OPEN', round: task.round, superseded: false, create_time: t,
            })
            .execute();
          await log('ADDSIGN', undefined, { comment: `加签${str(target.realname)}${comment ? `：${comment}` : ''}` });
          pushes.push(await notice(ctx, trx, [target.id], `待办（加签）：${str(inst.title)} — ${task.name}`, `<p>${esc(user.realname)}请您共同审批“${esc(str(inst.title))}”。</p>`, id, inst.id, user.username));
          return { status: 'OPEN' };
        }
        pushes.push(await notice(ctx, trx, [target.id], `待办（转办）：${str(inst.title)} — ${task.name}`, `<p>${esc(user.realname)}将“${esc(str(task.name))}”转给您办理。</p>`, task.id, inst.id, user.username));
        return { status: 'OPEN' };
      }
      case 'resubmit': {
        if (task.kind !== 'RESUBMIT') throw new BizError('只有退回的申请可以重新提交');
        // The corrected start form over the current data (checked like a start); nothing sent: the application as it was.
        const submitted = a.form ?? a.variables;
        const form = submitted === undefined ? undefined : taskFormDef;
        const changed = form ? checkSubmitted(form, { ...variablesOf(inst), title: inst.title, ...cleanVariables(submitted) }) : {};
        await finish('resubmit');
        const { title: newTitle, ...rest } = changed;
        const variables = { ...variablesOf(inst), ...rest };
        inst.variables = variables;
        inst.round = Number(inst.round) + 1;
        if (typeof newTitle === 'string' && newTitle.trim()) inst.title = newTitle.trim().slice(0, 200);
        await trx.updateTable('wf_instance').set({ status: 'RUNNING', variables: JSON.stringify(variables), title: inst.title, round: inst.round, end_reason: null }).where('id', '=', inst.id).execute();
        await log('RESUBMIT', 'resubmit', { form: form ? historyForm(form, changed) : undefined });
        await bizHandler(inst.biz_type)?.onEnd?.(ctx, trx, inst, 'PENDING', user);
        const input = await stepInput(s, true);
        await persist(s, await runStep(input, undefined, true), input);
        return { status: 'RUNNING' };
      }
      case 'approve':
      case 'reject': {
        if (task.kind === 'RESUBMIT') throw new BizError('请重新提交或撤回申请');
        if (a.action === 'reject' && !comment) throw new BizError('请填写驳回原因');
        // Approve: the task form's editable values join the instance's data (gateway conditions see them).
        let form: Record<string, string> | undefined;
        if (a.action === 'approve' && taskFormDef) {
          const values = checkSubmitted(taskFormDef, cleanVariables(a.form), variablesOf(inst));
          if (Object.keys(values).length) {
            inst.variables = { ...variablesOf(inst), ...values };
            await trx.updateTable('wf_instance').set({ variables: JSON.stringify(inst.variables) }).where('id', '=', inst.id).execute();
            form = historyForm(taskFormDef, values);
          }
        }
        await finish(a.action);
        await log('TASK', a.action, { form });
        if (task.kind === 'ADDSIGN' || (await hasOpenSiblings(trx, task))) {
          // An added signer's vote: a reject returns the application; an approve waits for the others of the group.
          if (a.action === 'reject') return reject(s, task, a.target, comment);
          if (await hasOpenSiblings(trx, task)) return { status: 'OPEN' };
          const main = (await trx.selectFrom('wf_task').selectAll().where('instance_id', '=', inst.id).where('execution_id', '=', task.signal_id).executeTakeFirst()) as Row;
          return signalEngine(s, main, 'approve');
        }
        if (a.action === 'reject' && !task.multi) return reject(s, task, a.target, comment);
        return signalEngine(s, task, a.action);
      }
      default:
        throw new BizError('不支持的操作');
    }
  });
}

/** Added signers of the same task still open (the engine is signalled once the whole group approved). */
async function hasOpenSiblings(trx: DB, task: Row): Promise<boolean> {
  const r = await trx.selectFrom('wf_task').select('id').where('instance_id', '=', task.instance_id).where('signal_id', '=', task.signal_id).where('status', '=', 'OPEN').where('id', '!=', task.id).executeTakeFirst();
  return !!r;
}

async function signalEngine(s: StepCtx, task: Row, decision: string) {
  const input = await stepInput(s);
  const res = await runStep(input, { elementId: task.element_id, executionId: task.signal_id, output: { decision } }, true);
  // A countersign decided against: the application goes back to the applicant.
  if (task.multi) {
    const parent = str(task.signal_id).replace(/_\d+$/, '');
    const loopEnded = !res.waiting.some((w) => w.executionId.startsWith(`${parent}_`));
    if (loopEnded) {
      const votes = (await s.trx.selectFrom('wf_task').select('decision').where('instance_id', '=', s.inst.id).where('signal_id', 'like', `${parent}\\_%`).where('kind', '=', 'TASK').where('status', '=', 'DONE').execute()) as Row[];
      const approved = votes.filter((v) => v.decision === 'approve').length;
      const total = Math.max(votes.length, (await s.trx.selectFrom('wf_task').select('id').where('instance_id', '=', s.inst.id).where('signal_id', 'like', `${parent}\\_%`).where('kind', '=', 'TASK').execute()).length);
      const mode = str(task.multi);
      const passed = mode === 'all' ? approved === total : mode === 'any' ? approved > 0 : approved * 100 >= total * Number(mode.replace('%', ''));
      if (!passed) return reject(s, task, 'applicant', '会签未通过');
    }
  }
  await persist(s, res, input);
  return { status: s.inst.status === 'RUNNING' && res.completed ? 'COMPLETED' : 'RUNNING' };
}

/** Rejects: back to the applicant (who may resubmit) or to the previous step (replaying the approvals before it). */
async function reject(s: StepCtx, task: Row, target: string | undefined, comment: string) {
  const { trx, inst } = s;
  const t = now();
  if (target === 'previous') {
    const done = (await trx
      .selectFrom('wf_task')
      .select(['id', 'element_id', 'decision'])
      .where('instance_id', '=', inst.id)
      .where('round', '=', inst.round)
      .where('kind', '=', 'TASK')
      .where('status', '=', 'DONE')
      .where('superseded', '=', false)
      .where('decision', '=', 'approve')
      .orderBy('end_time')
      .orderBy('id')
      .execute()) as Row[];
    const prev = [...done].reverse().find((d) => d.element_id !== task.element_id);
    if (prev) {
      const dropFrom = done.findIndex((d) => d.element_id === prev.element_id);
      const keep = done.slice(0, dropFrom);
      const dropped = done.slice(dropFrom).filter((d) => d.element_id !== task.element_id || true);
      await trx.updateTable('wf_task').set({ superseded: true }).where('id', 'in', [...dropped.map((d) => d.id), task.id]).execute();
      await trx.updateTable('wf_task').set({ status: 'CANCELLED', end_time: t }).where('instance_id', '=', inst.id).where('status', '=', 'OPEN').execute();
      const replay: Record<string, Row[]> = {};
      for (const k of keep) (replay[k.element_id] ??= []).push({ decision: 'approve' });
      history(trx, inst.id, { event: 'BACK', elementId: task.element_id, elementName: `退回至“${s.version.meta.tasks[prev.element_id]?.name ?? prev.element_id}”`, userId: s.actor.id });
      const input = { ...(await stepInput(s, true)), replay };
      const res = await runStep(input, undefined, true);
      await persist(s, res, input);
      return { status: 'RUNNING' };
    }
  }
  // To the applicant: the run is discarded; the applicant gets a task to correct and resubmit (or withdraw).
  await trx.updateTable('wf_task').set({ status: 'CANCELLED', end_time: t }).where('instance_id', '=', inst.id).where('status', '=', 'OPEN').execute();
  await trx.updateTable('wf_timer').set({ status: 'CANCELLED' }).where('instance_id', '=', inst.id).where('status', '=', 'WAITING').execute();
  const id = newId();
  await trx
    .insertInto('wf_task')
    .values({
      id, instance_id: inst.id, execution_id: `resubmit-${inst.round}-${id.slice(0, 8)}`, signal_id: null, element_id: null, name: '修改并重新提交', kind: 'RESUBMIT',
      assignee_id: inst.applicant_id, status: 'OPEN', round: inst.round, superseded: false, create_time: t,
    })
    .execute();
  await trx.updateTable('wf_instance').set({ status: 'RETURNED', state: null, rev: sql`rev + 1`, current_nodes: '退回申请人' }).where('id', '=', inst.id).execute();
  history(trx, inst.id, { event: 'RETURN', elementName: '退回申请人', userId: s.actor.id, comment });
  await bizHandler(inst.biz_type)?.onEnd?.(s.ctx, trx, inst, 'REJECTED', s.actor, comment);
  s.pushes.push(await notice(s.ctx, trx, [inst.applicant_id], `申请被退回：${str(inst.title)}`, `<p>退回原因：${esc(comment)}</p>`, id, inst.id, s.actor.username));
  return { status: 'RETURNED' };
}

// ------------------------------------------------------------------------------------------ administration

export async function withdraw(ctx: ServerContext, user: Actor, instanceId: string, reason: string, admin: boolean) {
  return withPushes(ctx, async (trx, pushes) => {
    const inst = await lockInstance(trx, instanceId);
    if (!admin && inst.applicant_id !== user.id) throw new BizError('只能撤回自己的申请');
    if (!['RUNNING', 'RETURNED'].includes(inst.status)) throw new BizError('流程已结束');
    const text = reason.trim().slice(0, 500);
    if (admin && !text) throw new BizError('请填写终止原因');
    const t = now();
    const status = admin ? 'TERMINATED' : 'WITHDRAWN';
    const open = (await trx.selectFrom('wf_task').select('assignee_id').where('instance_id', '=', inst.id).where('status', '=', 'OPEN').execute()) as Row[];
    await trx.updateTable('wf_task').set({ status: 'CANCELLED', end_time: t }).where('instance_id', '=', inst.id).where('status', '=', 'OPEN').execute();
    await trx.updateTable('wf_timer').set({ status: 'CANCELLED' }).where('instance_id', '=', inst.id).where('status', '=', 'WAITING').execute();
    await trx.updateTable('wf_instance').set({ status, end_time: t, end_reason: text || null, current_nodes: null, rev: sql`rev + 1` }).where('id', '=', inst.id).execute();
    history(trx, inst.id, { event: admin ? 'TERMINATE' : 'WITHDRAW', elementName: admin ? '终止流程' : '撤回申请', userId: user.id, comment: text });
    await bizHandler(inst.biz_type)?.onEnd?.(ctx, trx, inst, 'CANCELLED', user, text);
    if (admin)
      pushes.push(await notice(ctx, trx, [inst.applicant_id, ...open.map((o) => str(o.assignee_id))], `流程已终止：${str(inst.title)}`, `<p>终止原因：${esc(text)}</p>`, null, inst.id, user.username));
    return { status };
  });
}

export async function reassign(ctx: ServerContext, user: Actor, taskId: string, to: string) {
  return withPushes(ctx, async (trx, pushes) => {
    const task = (await trx.selectFrom('wf_task').selectAll().where('id', '=', taskId).forUpdate().executeTakeFirst()) as Row | undefined;
    if (!task || task.status !== 'OPEN') throw new BizError('只能改派未办理的任务');
    const target = await trx.selectFrom('sys_user').select(['id', 'realname']).where('id', '=', str(to)).where('del_flag', '=', '0').executeTakeFirst();
    if (!target) throw new BizError('请选择改派给谁');
    await trx.updateTable('wf_task').set({ assignee_id: target.id, candidate_ids: null }).where('id', '=', task.id).execute();
    history(trx, task.instance_id, { event: 'REASSIGN', elementId: task.element_id, elementName: task.name, userId: user.id, taskId: task.id, comment: `改派给${str(target.realname)}` });
    const inst = (await trx.selectFrom('wf_instance').select(['title']).where('id', '=', task.instance_id).executeTakeFirst()) as Row;
    pushes.push(await notice(ctx, trx, [target.id], `待办（改派）：${str(inst.title)} — ${task.name}`, `<p>管理员将“${esc(str(task.name))}”改派给您办理。</p>`, task.id, task.instance_id, user.username));
    return { ok: true };
  });
}

// ------------------------------------------------------------------------------------------ timers

/**
 * Fires due timers: each is claimed with FOR UPDATE SKIP LOCKED and marked fired in the same transaction
 * as its effect, so a timer fires once however many processes poll. Returns how many fired.
 */
export async function fireDueTimers(ctx: ServerContext, node: string, limit = 20): Promise<number> {
  let fired = 0;
  for (let i = 0; i < limit; i++) {
    const one = await withPushes(ctx, async (trx, pushes) => {
      const timer = (await trx
        .selectFrom('wf_timer')
        .selectAll()
        .where('status', '=', 'WAITING')
        .where('due_at', '<=', now())
        .orderBy('due_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst()) as Row | undefined;
      if (!timer) return false;
      await trx.updateTable('wf_timer').set({ status: 'FIRED', fired_at: now(), fired_by: node.slice(0, 100) }).where('id', '=', timer.id).execute();
      const inst = await lockInstance(trx, timer.instance_id);
      if (inst.status !== 'RUNNING') return true;
      const version = await loadVersion(trx, inst.version_id);
      const s: StepCtx = { ctx, trx, inst, version, actor: SYSTEM, pushes };
      if (timer.kind === 'ENGINE') {
        history(trx, inst.id, { event: 'TIMER', elementId: timer.element_id, elementName: version.meta.names[timer.element_id] ?? '定时' });
        const input = await stepInput(s);
        await persist(s, await runStep(input, undefined, true), input);
        return true;
      }
      // A task's due time: escalate as the model says.
      const task = (await trx.selectFrom('wf_task').selectAll().where('id', '=', timer.task_id).executeTakeFirst()) as Row | undefined;
      if (!task || task.status !== 'OPEN') return true;
      history(trx, inst.id, { event: 'OVERDUE', elementId: task.element_id, elementName: task.name, taskId: task.id, comment: `超时处理：${ESCALATE_TEXT[str(timer.action)] ?? '提醒'}` });
      if (timer.action === 'approve' || timer.action === 'reject') {
        const decision = str(timer.action);
        await trx.updateTable('wf_task').set({ status: 'DONE', decision, comment: '超时自动处理', actor_id: 'system', end_time: now() }).where('id', '=', task.id).execute();
        if (decision === 'reject' && !task.multi) await reject(s, task, 'applicant', '超时自动驳回');
        else await signalEngine(s, task, decision);
        return true;
      }
      const leaders = task.assignee_id ? await leadersOf(trx, str(task.assignee_id)) : [];
      pushes.push(
        await notice(ctx, trx, [...leaders, ...(task.assignee_id ? [task.assignee_id] : [])], `审批超时：${str(inst.title)} — ${task.name}`, `<p>任务“${esc(str(task.name))}”已超过办理期限。</p>`, task.id, inst.id, 'system'),
      );
      return true;
    });
    if (!one) break;
    fired++;
  }
  return fired;
}
const ESCALATE_TEXT: Record<string, string> = { notify: '提醒处理人的上级', approve: '自动通过', reject: '自动驳回' };

async function leadersOf(db: DB, userId: string): Promise<string[]> {
  const u = await db.selectFrom('sys_user').select('org_code').where('id', '=', userId).executeTakeFirst();
  if (!u?.org_code) return [];
  return (await usersWithRole(db, 'leader', str(u.org_code))).filter((id) => id !== userId);
}

// ------------------------------------------------------------------------------------------ models

export async function deployModel(ctx: ServerContext, user: Actor, modelId: string, xmlIn?: string) {
  // The model's forms must be form pages (checked before the transaction: pages are read through the server's connection).
  const stored = xmlIn === undefined ? await ctx.db.selectFrom('wf_model').select('xml').where('id', '=', modelId).executeTakeFirst() : undefined;
  if (xmlIn === undefined && !stored) throw new BizError('模型不存在');
  const given = xmlIn ?? str(stored?.xml);
  const missing = await missingForms(ctx, await validateModel(given));
  if (missing) throw new BizError(`部署失败：${missing}`);
  const run = async (trx: DB) => {
    const model = (await trx.selectFrom('wf_model').selectAll().where('id', '=', modelId).forUpdate().executeTakeFirst()) as Row | undefined;
    if (!model) throw new BizError('模型不存在');
    const xml = xmlIn ?? str(model.xml);
    const meta = await validateModel(xml);
    const version = Number(model.latest_version ?? 0) + 1;
    const id = newId();
    await trx
      .insertInto('wf_model_version')
      .values({ id, model_id: model.id, version, name: model.name, process_id: meta.processId, xml, meta: JSON.stringify(meta), status: 'ACTIVE', deploy_by: user.username, deploy_time: now() })
      .execute();
    await trx.updateTable('wf_model').set({ latest_version: version, status: 'DEPLOYED', xml, update_time: now(), update_by: user.username }).where('id', '=', model.id).execute();
    return { id, version };
  };
  return ctx.db.isTransaction ? run(ctx.db) : ctx.db.transaction().execute(run);
}
