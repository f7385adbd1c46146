import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hostname } from 'node:os';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, ok, page } from '../http/envelope.js';
import { newId, now } from '../util.js';
import { registerJobHandler } from '../sys/jobs/handlers.js';
import { MAX_XML, validateModel } from './engine.js';
import { actOnTask, activeVersionOf, ADMIN_PERM, deployModel, fireDueTimers, isWfAdmin, loadVersion, mayAct, reassign, startInstance, variablesOf, withdraw, type Actor, type TaskAction } from './service.js';
import { checkSubmitted, historyForm, pickableForms, ready, readOnlyForm, startForm, taskForm } from './forms.js';

type Row = Record<string, any>;
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const input = (req: FastifyRequest): Row => ({ ...((req.query ?? {}) as Row), ...((req.body && typeof req.body === 'object' ? req.body : {}) as Row) });
const paging = (q: Row) => ({ pageNo: Math.max(1, Math.floor(Number(q.pageNo) || 1)), pageSize: Math.min(100, Math.max(1, Math.floor(Number(q.pageSize) || 10))) });

const TASK_COLUMNS = [
  't.id', 't.instance_id as instanceId', 't.element_id as elementId', 't.name', 't.kind', 't.multi', 't.assignee_id as assigneeId', 't.status', 't.decision', 't.comment',
  't.attachments', 't.form_key as formKey', 't.create_time as createTime', 't.due_time as dueTime', 't.end_time as endTime', 't.actor_id as actorId',
  'i.title', 'i.model_name as modelName', 'i.applicant_id as applicantId', 'i.status as instanceStatus', 'i.biz_type as bizType', 'i.biz_id as bizId', 'au.realname as applicantName',
  'su.realname as assigneeName',
] as const;
const INSTANCE_COLUMNS = [
  'i.id', 'i.model_id as modelId', 'i.version', 'i.model_name as modelName', 'i.title', 'i.applicant_id as applicantId', 'au.realname as applicantName', 'i.biz_type as bizType',
  'i.biz_id as bizId', 'i.status', 'i.current_nodes as currentNodes', 'i.start_time as startTime', 'i.end_time as endTime', 'i.end_reason as endReason',
] as const;

/** Instances a user may see: the applicant's, those with a task of theirs (assignee, candidate or actor); administrators all. */
function visibleInstances<T extends SelectQueryBuilder<any, any, any>>(q: T, user: Actor): T {
  if (isWfAdmin(user)) return q;
  return q.where((eb: any) =>
    eb.or([
      eb('i.applicant_id', '=', user.id),
      eb.exists(
        eb
          .selectFrom('wf_task as vt')
          .select('vt.id')
          .whereRef('vt.instance_id', '=', 'i.id')
          .where((e2: any) => e2.or([e2('vt.assignee_id', '=', user.id), e2('vt.actor_id', '=', user.id), e2('vt.candidate_ids', 'like', `%,${user.id},%`)])),
      ),
    ]),
  ) as T;
}

async function instanceDetail(db: DB, user: Actor, id: string) {
  const inst = (await visibleInstances(
    db.selectFrom('wf_instance as i').leftJoin('sys_user as au', 'au.id', 'i.applicant_id').select([...INSTANCE_COLUMNS, 'i.version_id as versionId', 'i.variables']).where('i.id', '=', id),
    user,
  ).executeTakeFirst()) as Row | undefined;
  if (!inst) throw new BizError('流程实例不存在或无权查看');
  const version = (await db.selectFrom('wf_model_version').select(['xml', 'meta']).where('id', '=', inst.versionId).executeTakeFirst()) as Row;
  const steps = (await db
    .selectFrom('wf_history as h')
    .leftJoin('sys_user as u', 'u.id', 'h.user_id')
    .select(['h.id', 'h.event', 'h.element_id as elementId', 'h.element_name as elementName', 'h.user_id as userId', 'u.realname as userName', 'h.decision', 'h.comment', 'h.attachments', 'h.form', 'h.time', 'h.duration', 'h.seq'])
    .where('h.instance_id', '=', id)
    .orderBy('h.seq')
    .execute()) as Row[];
  const tasks = (await db
    .selectFrom('wf_task as t')
    .leftJoin('sys_user as u', 'u.id', 't.assignee_id')
    .select(['t.id', 't.name', 't.element_id as elementId', 't.kind', 't.status', 't.assignee_id as assigneeId', 'u.realname as assigneeName', 't.candidate_ids as candidateIds', 't.decision', 't.create_time as createTime', 't.end_time as endTime', 't.due_time as dueTime'])
    .where('t.instance_id', '=', id)
    .orderBy('t.create_time')
    .execute()) as Row[];
  // The taken path for the diagram: ended nodes, taken flows, acted tasks; the open ones are current.
  const done = [...new Set(steps.filter((s) => s.elementId && ['NODE', 'FLOW', 'TASK'].includes(s.event)).map((s) => s.elementId))];
  const current = [...new Set(tasks.filter((t) => t.status === 'OPEN' && t.elementId).map((t) => t.elementId))];
  return {
    ...inst,
    variables: variablesOf(inst),
    xml: version?.xml,
    steps: steps.filter((s) => s.event !== 'FLOW' && s.event !== 'NODE').map((s) => ({ ...s, form: typeof s.form === 'string' ? JSON.parse(s.form) : (s.form ?? undefined), action: s.decision ?? s.event })),
    tasks: tasks.map(({ candidateIds, ...t }) => ({ ...t, candidates: str(candidateIds).split(',').filter(Boolean).length })),
    markers: { done, current },
  };
}

export async function registerWorkflowRoutes(api: FastifyInstance, ctx: ServerContext) {
  const node = `${hostname()}:${process.pid}`;
  // Timers: every process polls; each due timer is claimed once (FOR UPDATE SKIP LOCKED).
  registerJobHandler('workflowTimers', { title: '审批流程定时与超时处理', run: async (c) => `处理到期定时${await fireDueTimers(c, node)}个` });
  let tick: NodeJS.Timeout | undefined;
  let busy = false;
  api.addHook('onReady', async () => {
    tick = setInterval(() => {
      if (busy || !ctx.ready || ctx.draining) return;
      busy = true;
      void fireDueTimers(ctx, node)
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, Number(process.env.WORKFLOW_TIMER_MS) || 5000);
    tick.unref();
  });
  api.addHook('onClose', async () => clearInterval(tick));

  // ------------------------------------------------------------------ models
  api.get('/workflow/model/list', { config: { auth: ['workflow:model:list', 'workflow:processModel:list'] } }, async (req) => {
    const q = req.query as Row;
    const { pageNo, pageSize } = paging(q);
    let base = ctx.db.selectFrom('wf_model as m');
    if (q.name) base = base.where('m.name', 'like', `%${str(q.name).replace(/[%_\\*]/g, '')}%`);
    if (q.status) base = base.where('m.status', '=', str(q.status));
    const [{ n }] = (await base.select((eb) => eb.fn.countAll<string>().as('n')).execute()) as [{ n: string }];
    const rows = await base
      .select(['m.id', 'm.name', 'm.model_key as modelKey', 'm.category', 'm.biz_type as bizType', 'm.form_key as formKey', 'm.description', 'm.latest_version as latestVersion', 'm.status', 'm.create_time as createTime', 'm.update_time as updateTime'])
      .orderBy('m.create_time', 'desc')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute();
    return ok(page(rows, Number(n), pageNo, pageSize));
  });
  api.get('/workflow/model/queryById', { config: { auth: ['workflow:model:list', 'workflow:processModel:list'] } }, async (req) => {
    const r = await ctx.db
      .selectFrom('wf_model')
      .select(['id', 'name', 'model_key as modelKey', 'category', 'biz_type as bizType', 'form_key as formKey', 'description', 'xml', 'latest_version as latestVersion', 'status'])
      .where('id', '=', str(input(req).id))
      .executeTakeFirst();
    if (!r) throw new BizError('模型不存在');
    return ok(r);
  });
  const modelFields = (b: Row) => {
    const name = str(b.name).trim();
    if (!name) throw new BizError('请填写模型名称');
    const key = str(b.modelKey).trim();
    if (!/^[A-Za-z][\w-]{1,63}$/.test(key)) throw new BizError('模型标识须以字母开头，由字母、数字、下划线组成');
    const xml = b.xml === undefined ? undefined : str(b.xml);
    if (xml !== undefined && Buffer.byteLength(xml) > MAX_XML) throw new BizError(`流程定义过大（上限${MAX_XML / 1024}KB）`);
    return { name: name.slice(0, 100), model_key: key, category: str(b.category).slice(0, 50) || null, form_key: str(b.formKey).slice(0, 200) || null, description: str(b.description).slice(0, 500) || null, ...(xml !== undefined ? { xml } : {}) };
  };
  api.post('/workflow/model/add', { config: { auth: 'workflow:model:add' } }, async (req) => {
    const f = modelFields(input(req));
    if (await ctx.db.selectFrom('wf_model').select('id').where('model_key', '=', f.model_key).executeTakeFirst()) throw new BizError('模型标识已存在');
    const id = newId();
    await ctx.db.insertInto('wf_model').values({ id, ...f, status: 'DRAFT', latest_version: 0, create_by: req.user!.username, create_time: now() }).execute();
    return ok({ id }, '添加成功！');
  });
  api.put('/workflow/model/edit', { config: { auth: 'workflow:model:edit' } }, async (req) => {
    const b = input(req);
    const old = await ctx.db.selectFrom('wf_model').select(['id', 'model_key']).where('id', '=', str(b.id)).executeTakeFirst();
    if (!old) throw new BizError('模型不存在');
    const f = modelFields({ modelKey: old.model_key, ...b });
    await ctx.db.updateTable('wf_model').set({ ...f, model_key: old.model_key, update_by: req.user!.username, update_time: now() }).where('id', '=', old.id).execute();
    return ok(null, '保存成功！');
  });
  api.delete('/workflow/model/delete', { config: { auth: 'workflow:model:delete' } }, async (req) => {
    const id = str(input(req).id);
    if (await ctx.db.selectFrom('wf_instance').select('id').where('model_id', '=', id).executeTakeFirst()) throw new BizError('该模型已有流程实例，不能删除，可挂起其版本');
    await ctx.db.deleteFrom('wf_model_version').where('model_id', '=', id).execute();
    await ctx.db.deleteFrom('wf_model').where('id', '=', id).execute();
    return ok(null, '删除成功!');
  });
  api.post('/workflow/model/validate', { config: { auth: ['workflow:model:edit', 'workflow:model:add'] } }, async (req) => {
    const meta = await validateModel(input(req).xml);
    return ok({ tasks: Object.values(meta.tasks) }, '校验通过');
  });
  api.post('/workflow/model/deploy', { config: { auth: 'workflow:model:deploy' } }, async (req) => {
    const b = input(req);
    const r = await deployModel(ctx, req.user!, str(b.id), b.xml === undefined ? undefined : str(b.xml));
    return ok(r, `部署成功，版本 V${r.version}`);
  });
  api.get('/workflow/model/versions', { config: { auth: ['workflow:model:list', 'workflow:processModel:list'] } }, async (req) => {
    const rows = await ctx.db
      .selectFrom('wf_model_version as v')
      .select(['v.id', 'v.model_id as modelId', 'v.version', 'v.name', 'v.status', 'v.deploy_by as deployBy', 'v.deploy_time as deployTime'])
      .select((eb) => eb.selectFrom('wf_instance as i').select(eb.fn.countAll<string>().as('c')).whereRef('i.version_id', '=', 'v.id').as('instances'))
      .where('v.model_id', '=', str(input(req).modelId))
      .orderBy('v.version', 'desc')
      .execute();
    return ok(page(rows, rows.length, 1, Math.max(rows.length, 1)));
  });
  for (const [path, status, text] of [['suspend', 'SUSPENDED', '已挂起'], ['activate', 'ACTIVE', '已激活']] as const)
    api.post(`/workflow/model/version/${path}`, { config: { auth: 'workflow:model:deploy' } }, async (req) => {
      const r = await ctx.db.updateTable('wf_model_version').set({ status }).where('id', '=', str(input(req).id)).executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw new BizError('流程版本不存在');
      return ok(null, text);
    });

  // ------------------------------------------------------------------ apply
  api.get('/workflow/process/list', { config: { auth: 'user' } }, async () => {
    const rows = await ctx.db
      .selectFrom('wf_model as m')
      .innerJoin('wf_model_version as v', (j) => j.onRef('v.model_id', '=', 'm.id').onRef('v.version', '=', 'm.latest_version'))
      .select(['m.id', 'm.name', 'm.model_key as modelKey', 'm.category', 'm.description', 'm.form_key as formKey', 'v.id as versionId', 'v.version', 'v.deploy_time as deployTime'])
      .where('v.status', '=', 'ACTIVE')
      .where((eb) => eb.or([eb('m.biz_type', 'is', null), eb('m.biz_type', '=', '')]))
      .orderBy('m.name')
      .execute();
    return ok(page(rows, rows.length, 1, Math.max(rows.length, 1)));
  });
  /** A process others may start here: an active version of a model that is not a business record's. */
  const applicableVersion = async (b: Row) => {
    const version = await activeVersionOf(ctx.db, { versionId: b.versionId ? str(b.versionId) : undefined, modelKey: b.modelKey ? str(b.modelKey) : undefined });
    const model = await ctx.db.selectFrom('wf_model').select('biz_type').where('id', '=', version.model_id).executeTakeFirst();
    if (model?.biz_type) throw new BizError('业务记录的审批请从其业务页面发起');
    return version;
  };
  /** The start form of a process: its fields (the page its formKey names, else the default), to fill in 发起申请. */
  api.get('/workflow/process/form', { config: { auth: 'user' } }, async (req) => {
    const version = await applicableVersion(input(req));
    const form = await startForm(ctx, version.meta);
    return ok({ title: form.title, fields: form.fields, values: {} });
  });
  api.post('/workflow/instance/start', { config: { auth: 'user' } }, async (req) => {
    const b = input(req);
    if (b.bizType) throw new BizError('业务记录的审批请从其业务页面发起');
    const version = await applicableVersion(b);
    // The start form's values: `form` (the 发起 dialog), `variables`, or the body's own fields (older clients);
    // checked against the form's fields — anything the form does not name is dropped.
    const reserved = ['id', 'versionId', 'modelKey', 'modelId', 'bizType', 'bizId', 'form', 'variables'];
    const submitted = (b.form && typeof b.form === 'object' ? b.form : b.variables && typeof b.variables === 'object' ? b.variables : Object.fromEntries(Object.entries(b).filter(([k]) => !reserved.includes(k)))) as Row;
    const form = await ready(ctx, await startForm(ctx, version.meta));
    const values = checkSubmitted(form, { ...(b.title !== undefined ? { title: b.title } : {}), ...submitted });
    const { title, ...variables } = values;
    const r = await startInstance(ctx, req.user!, { versionId: version.id, title: str(title ?? b.title), variables, form: historyForm(form, values) });
    return ok(r, '申请已提交');
  });
  /** The form pages a model's start and task forms may name (the modeler's picker). */
  api.get('/workflow/forms', { config: { auth: ['workflow:model:edit', 'workflow:model:add'] } }, async (req) => ok(await pickableForms(ctx, req.user!)));
  api.post('/workflow/instance/withdraw', { config: { auth: 'user' } }, async (req) => {
    const b = input(req);
    return ok(await withdraw(ctx, req.user!, str(b.id), str(b.reason), false), '已撤回');
  });

  // ------------------------------------------------------------------ tasks
  const taskQuery = () =>
    ctx.db.selectFrom('wf_task as t').innerJoin('wf_instance as i', 'i.id', 't.instance_id').leftJoin('sys_user as au', 'au.id', 'i.applicant_id').leftJoin('sys_user as su', 'su.id', 't.assignee_id');
  const filters = <T extends SelectQueryBuilder<any, any, any>>(q: T, p: Row): T => {
    let out: any = q;
    if (p.title) out = out.where('i.title', 'like', `%${str(p.title).replace(/[%_\\*]/g, '')}%`);
    if (p.modelId) out = out.where('i.model_id', '=', str(p.modelId));
    return out as T;
  };
  const listTasks = async (req: FastifyRequest, scope: (q: any) => any, order: 't.create_time' | 't.end_time') => {
    const q = req.query as Row;
    const { pageNo, pageSize } = paging(q);
    const base = filters(scope(taskQuery()), q);
    const [{ n }] = (await base.select((eb: any) => eb.fn.countAll().as('n')).execute()) as [{ n: string }];
    const rows = await base.select([...TASK_COLUMNS]).orderBy(order, 'desc').orderBy('t.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(rows, Number(n), pageNo, pageSize));
  };
  /**
   * 我的待办 from wf_task_user (one row per open task and user who may act on it: the assignee, else each
   * candidate; rebuilt with every change of the instance's tasks): an index range on (user, arrival time)
   * pages the list and counts it without reading other users' tasks.
   */
  const todoCount = async (user: Actor) => {
    const [{ n }] = (await ctx.db.selectFrom('wf_task_user as c').select((eb) => eb.fn.countAll<string>().as('n')).where('c.user_id', '=', user.id).execute()) as [{ n: string }];
    return Number(n);
  };
  api.get('/workflow/task/todo', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const { pageNo, pageSize } = paging(q);
    const user = req.user!;
    const details = (b: any) => b.innerJoin('wf_task as t', 't.id', 'c.task_id').innerJoin('wf_instance as i', 'i.id', 't.instance_id');
    if (q.title || q.modelId) {
      const base = filters(details(ctx.db.selectFrom('wf_task_user as c')).where('c.user_id', '=', user.id).where('t.status', '=', 'OPEN'), q);
      const [{ n }] = (await base.select((eb: any) => eb.fn.countAll().as('n')).execute()) as [{ n: string }];
      const rows = await base.leftJoin('sys_user as au', 'au.id', 'i.applicant_id').leftJoin('sys_user as su', 'su.id', 't.assignee_id').select([...TASK_COLUMNS])
        .orderBy('c.create_time', 'desc').orderBy('c.task_id', 'desc').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
      return ok(page(rows, Number(n), pageNo, pageSize));
    }
    // The page's task ids first (a derived table with its own LIMIT: an index range, whatever the planner's
    // statistics say — PGlite has no autovacuum to refresh them), then their details by primary key.
    const ids = ctx.db
      .selectFrom('wf_task_user')
      .select(['task_id', 'create_time'])
      .where('user_id', '=', user.id)
      .orderBy('create_time', 'desc')
      .orderBy('task_id', 'desc')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .as('c');
    const [n, rows] = await Promise.all([
      todoCount(user),
      details(ctx.db.selectFrom(ids))
        .leftJoin('sys_user as au', 'au.id', 'i.applicant_id')
        .leftJoin('sys_user as su', 'su.id', 't.assignee_id')
        .select([...TASK_COLUMNS])
        .orderBy('c.create_time', 'desc')
        .orderBy('c.task_id', 'desc')
        .execute(),
    ]);
    return ok(page(rows, n, pageNo, pageSize));
  });
  api.get('/workflow/task/todoCount', { config: { auth: 'user' } }, async (req) => ok({ count: await todoCount(req.user!) }));
  api.get('/workflow/task/done', { config: { auth: 'user' } }, (req) => listTasks(req, (q) => q.where('t.actor_id', '=', req.user!.id).where('t.status', '=', 'DONE'), 't.end_time'));
  api.get('/workflow/task/queryById', { config: { auth: 'user' } }, async (req) => {
    const id = str(input(req).id);
    const task = (await taskQuery().select([...TASK_COLUMNS, 't.candidate_ids as candidateIds']).where('t.id', '=', id).executeTakeFirst()) as Row | undefined;
    if (!task) throw new BizError('任务不存在');
    const detail = await instanceDetail(ctx.db, req.user!, task.instanceId);
    const { candidateIds, ...rest } = task;
    return ok({ ...rest, canAct: task.status === 'OPEN' && mayAct({ assignee_id: task.assigneeId, candidate_ids: candidateIds }, req.user!), form: detail.variables, instance: detail });
  });
  /**
   * A task's form filled with the instance's data, for the one who may act on it (assignee, candidates) and
   * administrators: the fields of the page its formKey names (修改并重新提交: the start form; none: the start form read-only;
   * `view=1`: all read-only).
   */
  api.get('/workflow/task/form', { config: { auth: 'user' } }, async (req) => {
    const user = req.user!;
    const task = (await ctx.db.selectFrom('wf_task').select(['id', 'instance_id', 'kind', 'form_key', 'assignee_id', 'candidate_ids', 'name']).where('id', '=', str(input(req).id)).executeTakeFirst()) as Row | undefined;
    if (!task || !(mayAct(task, user) || isWfAdmin(user))) throw new BizError('任务不存在或无权查看');
    const inst = (await ctx.db.selectFrom('wf_instance').select(['title', 'variables', 'version_id']).where('id', '=', task.instance_id).executeTakeFirstOrThrow()) as Row;
    const { meta } = await loadVersion(ctx.db, str(inst.version_id));
    const q = input(req);
    const own = await taskForm(ctx, meta, { kind: str(task.kind), form_key: task.form_key as string | null });
    // `view=1`: every field read-only (e.g. 驳回 shows what is being rejected)
    const form = q.view === '1' || q.view === 1 ? readOnlyForm(own) : own;
    const data: Row = { ...variablesOf(inst), title: inst.title };
    const values = Object.fromEntries(form.fields.filter((f) => data[f.name] !== undefined).map((f) => [f.name, data[f.name]]));
    return ok({ title: form.title, fields: form.fields, values });
  });
  for (const action of ['approve', 'reject', 'transfer', 'addSign', 'comment', 'resubmit'] as const)
    api.post(`/workflow/task/${action}`, { config: { auth: 'user' } }, async (req) => {
      const b = input(req);
      const a: TaskAction = { action, comment: str(b.comment), attachments: str(b.attachments), target: str(b.target) || undefined, userId: str(b.userId) || undefined, form: b.form && typeof b.form === 'object' ? b.form : undefined, variables: b.variables && typeof b.variables === 'object' ? b.variables : undefined };
      const r = await actOnTask(ctx, req.user!, str(b.id ?? b.taskId), a);
      return ok(r, { approve: '已同意', reject: '已驳回', transfer: '已转办', addSign: '已加签', comment: '已添加意见', resubmit: '已重新提交' }[action]);
    });

  // ------------------------------------------------------------------ history
  api.get('/workflow/instance/list', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Row;
    const { pageNo, pageSize } = paging(q);
    let base = visibleInstances(ctx.db.selectFrom('wf_instance as i').leftJoin('sys_user as au', 'au.id', 'i.applicant_id'), req.user!);
    if (q.modelId) base = base.where('i.model_id', '=', str(q.modelId));
    if (q.status) base = base.where('i.status', '=', str(q.status));
    if (q.applicantName) base = base.where('au.realname', 'like', `%${str(q.applicantName).replace(/[%_\\*]/g, '')}%`);
    if (q.title) base = base.where('i.title', 'like', `%${str(q.title).replace(/[%_\\*]/g, '')}%`);
    if (q.startTime_begin) base = base.where('i.start_time', '>=', `${str(q.startTime_begin).slice(0, 10)} 00:00:00`);
    if (q.startTime_end) base = base.where('i.start_time', '<=', `${str(q.startTime_end).slice(0, 10)} 23:59:59`);
    if (q.mine === '1') base = base.where('i.applicant_id', '=', req.user!.id);
    const [{ n }] = (await base.select((eb) => eb.fn.countAll<string>().as('n')).execute()) as [{ n: string }];
    const rows = await base.select([...INSTANCE_COLUMNS]).orderBy('i.start_time', 'desc').orderBy('i.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    return ok(page(rows, Number(n), pageNo, pageSize));
  });
  api.get('/workflow/instance/queryById', { config: { auth: 'user' } }, async (req) => ok(await instanceDetail(ctx.db, req.user!, str(input(req).id))));
  /** A business record's approval: its latest instance (status, current step), for the record's screen. */
  api.get('/workflow/instance/byBusiness', { config: { auth: 'user' } }, async (req) => {
    const b = input(req);
    const r = await visibleInstances(ctx.db.selectFrom('wf_instance as i').leftJoin('sys_user as au', 'au.id', 'i.applicant_id').select([...INSTANCE_COLUMNS]), req.user!)
      .where('i.biz_type', '=', str(b.bizType))
      .where('i.biz_id', '=', str(b.bizId))
      .orderBy('i.start_time', 'desc')
      .executeTakeFirst();
    return ok(r ?? null);
  });

  // ------------------------------------------------------------------ administration
  api.get('/workflow/admin/tasks', { config: { auth: ADMIN_PERM } }, (req) => listTasks(req, (q) => q.where('t.status', '=', 'OPEN'), 't.create_time'));
  api.post('/workflow/admin/reassign', { config: { auth: 'workflow:task:reassign' } }, async (req) => {
    const b = input(req);
    return ok(await reassign(ctx, req.user!, str(b.id), str(b.userId)), '已改派');
  });
  api.post('/workflow/admin/terminate', { config: { auth: 'workflow:task:terminate' } }, async (req) => {
    const b = input(req);
    return ok(await withdraw(ctx, req.user!, str(b.instanceId ?? b.id), str(b.reason), true), '流程已终止');
  });
  void sql;
}
