import type { FastifyInstance } from 'fastify';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { logAction } from '../domain/improvement.js';
import { registerBizHandler } from './business.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { startInstance, variablesOf } from './service.js';

/**
 * 整改延期申请: the responsible person of an issued improvement task asks for a later deadline; the
 * issuer approves (seeded model `imp_extension`); on approval the task's deadline changes and its log
 * says why (action EXTEND, comment with the old and new deadline and the reason).
 */
const OPEN = ['ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'REJECTED'];
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

registerBizHandler('imp_extension', {
  async onEnd(_ctx, trx, inst, outcome, actor) {
    if (outcome !== 'APPROVED') return;
    const v = variablesOf(inst);
    const task = await trx.selectFrom('imp_task').select(['id', 'status', 'deadline']).where('id', '=', str(inst.biz_id)).executeTakeFirst();
    if (!task) return;
    await trx.updateTable('imp_task').set({ deadline: str(v.newDeadline), update_time: dayjs().format('YYYY-MM-DD HH:mm:ss') }).where('id', '=', task.id).execute();
    await logAction(trx, { kind: 'task', id: str(task.id) }, 'EXTEND', str(task.status), str(task.status), actor as never, `整改期限由${str(task.deadline).slice(0, 10)}延期至${str(v.newDeadline)}（延期申请已批准）：${str(v.reason)}`);
  },
});

export async function registerImprovementWorkflow(api: FastifyInstance, ctx: ServerContext) {
  // Each task row says where its latest extension request is (extensionStatus: the instance's status), so
  // 申请延期 shows only to the responsible person of an open task with a deadline and no request running,
  // and 延期审批 only where a request exists.
  defineEntityHooks('imp_task', {
    async decorateRows(h, rows) {
      const ids = rows.map((r) => str(r.id)).filter(Boolean);
      if (!ids.length) return rows;
      const found = await h.db
        .selectFrom('wf_instance')
        .select(['biz_id', 'status', 'start_time'])
        .where('biz_type', '=', 'imp_extension')
        .where('biz_id', 'in', ids)
        .orderBy('start_time')
        .execute();
      const latest = new Map(found.map((f) => [str(f.biz_id), str(f.status)]));
      for (const r of rows) r.extensionStatus = latest.get(str(r.id)) ?? null;
      return rows;
    },
  }, 'workflow');

  api.post('/workflow/biz/impExtension', { config: { auth: 'user' } }, async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const task = await ctx.db.selectFrom('imp_task').select(['id', 'title', 'status', 'deadline', 'resp_person_id', 'issuer_id']).where('id', '=', str(b.taskId)).executeTakeFirst();
    if (!task) throw new BizError('整改任务不存在');
    if (task.resp_person_id !== req.user!.id) throw new BizError('只有整改责任人可以申请延期');
    if (!OPEN.includes(str(task.status))) throw new BizError('该整改任务当前状态不能申请延期');
    if (!task.deadline) throw new BizError('该整改任务没有整改期限，无需申请延期');
    const running = await ctx.db.selectFrom('wf_instance').select('id').where('biz_type', '=', 'imp_extension').where('biz_id', '=', str(task.id)).where('status', 'in', ['RUNNING', 'RETURNED']).executeTakeFirst();
    if (running) throw new BizError('该整改任务已有进行中的延期申请，请等待审批结果');
    const newDeadline = str(b.newDeadline).slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDeadline) || newDeadline <= str(task.deadline).slice(0, 10)) throw new BizError('新的期限须晚于当前期限');
    const reason = str(b.reason).trim().slice(0, 500);
    if (!reason) throw new BizError('请填写延期原因');
    const r = await startInstance(ctx, req.user!, {
      modelKey: 'imp_extension', bizType: 'imp_extension', bizId: str(task.id), title: `整改延期：${str(task.title)}（至${newDeadline}）`,
      variables: { issuerId: task.issuer_id, taskTitle: task.title, deadline: str(task.deadline).slice(0, 10), newDeadline, reason },
    });
    return ok(r, '延期申请已提交');
  });
}
