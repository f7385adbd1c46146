import type { FastifyInstance, FastifyRequest } from 'fastify';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import type { SessionUser } from '../auth/session.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { getRow, hookContext, inTransaction } from '../crud/engine.js';
import { BizError, ok } from '../http/envelope.js';
import { allows } from '../http/guard.js';
import { now } from '../util.js';
import { notifyDomain } from './notify.js';
import { noticeHtml } from '../sys/notice-text.js';
import { nextNo } from './numbering.js';
import { entityFileOwner, registerFileOwner } from '../sys/file-access.js';
import { parseWeeks } from '../../shared/rules.js';

/**
 * 实验室管理 (reference/domain.md §7.5): the lab catalogue, its services, contracts, teaching plans,
 * service orders (numbered, priced on the server), reservations (checked against the lab's capacity
 * and the other bookings of the same sections, approved or rejected by a lab manager) and use records.
 */
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const APPROVE = 'lab:reservation:approve';
const STATUS_TEXT: Record<string, string> = { PENDING: '待审核', APPROVED: '已通过', REJECTED: '已驳回', CANCELLED: '已取消' };

async function openLab(db: DB, id: string) {
  const lab = await db.selectFrom('lab_lab').select(['id', 'name', 'capacity', 'open_status']).where('id', '=', id).executeTakeFirst();
  if (!lab) throw new BizError('实验室不存在');
  if (lab.open_status !== 'OPEN') throw new BizError(`实验室“${str(lab.name)}”已停用`);
  return lab;
}

/** Refuses a booking whose sections overlap another pending or approved booking of the lab that day. */
async function checkFree(db: DB, r: Row, statuses = ['PENDING', 'APPROVED']) {
  const clash = await db
    .selectFrom('lab_reservation as r')
    .leftJoin('sys_user as u', 'u.id', 'r.applicant_id')
    .select(['r.start_section', 'r.end_section', 'r.status', 'u.realname'])
    .where('r.lab_id', '=', str(r.labId))
    .where('r.use_date', '=', str(r.useDate))
    .where('r.status', 'in', statuses)
    .where('r.id', '!=', str(r.id))
    .where('r.start_section', '<=', Number(r.endSection))
    .where('r.end_section', '>=', Number(r.startSection))
    .executeTakeFirst();
  if (clash) throw new BizError(`该时段已有预约：第${clash.start_section}-${clash.end_section}节（${str(clash.realname)}，${STATUS_TEXT[str(clash.status)] ?? str(clash.status)}）`);
}

const mayManage = (user: SessionUser) => allows(user, APPROVE);

export function registerLabHooks() {
  defineEntityHooks('lab_contract', {
    beforeSave(_h, row, mode, old) {
      // While 合同审批 runs, the contract is the process's: its status follows the instance (server/workflow/contract.ts).
      if (mode === 'edit' && str(old?.status) === 'PENDING') throw new BizError('合同正在审批中，不能修改；如需修改请先撤回审批');
      if (str(row.status) === 'PENDING' && str(old?.status) !== 'PENDING') throw new BizError('“审批中”由提交审批设置，不能直接选择');
      const m = { ...(old ?? {}), ...row };
      if (m.validFrom && m.validTo && str(m.validTo) < str(m.validFrom)) throw new BizError('截止日期不能早于生效日期');
    },
    beforeDelete(_h, rows) {
      if (rows.some((r) => str(r.status) === 'PENDING')) throw new BizError('合同正在审批中，不能删除；如需删除请先撤回审批');
    },
  });
  defineEntityHooks('lab_plan', {
    async beforeSave(h, row, _mode, old) {
      const m = { ...(old ?? {}), ...row };
      if (str(m.weeks).trim() && !parseWeeks(str(m.weeks))) throw new BizError('上课周次格式不正确，例如 1-8,10-16 或 1-15(单)');
      const lab = await openLab(h.db, str(m.labId));
      if (m.stdCount && lab.capacity && Number(m.stdCount) > Number(lab.capacity)) throw new BizError(`学生人数超过实验室容纳人数（${lab.capacity}人），请分组安排`);
    },
  });
  defineEntityHooks('lab_order', {
    async beforeSave(h, row, mode, old) {
      if (mode === 'edit' && ['SETTLED', 'CANCELLED'].includes(str(old!.status))) throw new BizError('已结算或已取消的订单不能修改');
      if (mode === 'add') Object.assign(row, { orderNo: await nextNo(h.db, `SY${dayjs().format('YYYY')}`, 5), applicantId: row.applicantId || h.user.id });
      const m = { ...(old ?? {}), ...row };
      const service = await h.db.selectFrom('lab_service').select(['name', 'charge_mode', 'price_inner', 'price_outer', 'status']).where('id', '=', str(m.serviceId)).executeTakeFirst();
      if (!service) throw new BizError('服务项目不存在');
      if (mode === 'add' && service.status !== 'OPEN') throw new BizError(`服务“${str(service.name)}”已停用`);
      const contract = m.contractId ? await h.db.selectFrom('lab_contract').select(['party_type', 'status']).where('id', '=', str(m.contractId)).executeTakeFirst() : undefined;
      if (m.contractId && !contract) throw new BizError('合同不存在');
      if (mode === 'add' && contract && contract.status !== 'ACTIVE') throw new BizError('所选合同未生效');
      // Priced on the server: the outside price under an outside party's contract, else the campus price.
      const price = service.charge_mode === 'FREE' ? 0 : Number((contract?.party_type === 'OUTER' ? service.price_outer : service.price_inner) ?? 0);
      row.amount = Math.round(price * Number(m.sampleCount) * 100) / 100;
    },
  });
  defineEntityHooks('lab_reservation', {
    async beforeSave(h, row, mode, old) {
      if (mode === 'edit') {
        if (old!.applicantId !== h.user.id && !mayManage(h.user)) throw new BizError('只能修改自己的预约');
        if (old!.status !== 'PENDING') throw new BizError('只能修改待审核的预约');
      } else Object.assign(row, { applicantId: h.user.id, status: 'PENDING' });
      const m = { ...(old ?? {}), ...row };
      if (Number(m.startSection) > Number(m.endSection)) throw new BizError('开始节次不能大于结束节次');
      if (str(m.useDate) < dayjs().format('YYYY-MM-DD')) throw new BizError('不能预约今天之前的日期');
      const lab = await openLab(h.db, str(m.labId));
      if (lab.capacity && Number(m.attendance) > Number(lab.capacity)) throw new BizError(`人数超过实验室容纳人数（${lab.capacity}人）`);
      await checkFree(h.db, m);
    },
    beforeDelete(h, rows) {
      for (const r of rows)
        if (!mayManage(h.user) && (r.applicantId !== h.user.id || r.status !== 'PENDING')) throw new BizError('只能删除自己待审核的预约');
    },
  });
  defineEntityHooks('lab_use_record', {
    beforeSave(_h, row, _mode, old) {
      const m = { ...(old ?? {}), ...row };
      if (str(m.startTime) >= str(m.endTime)) throw new BizError('结束时间应晚于开始时间');
    },
  });
}

export async function registerLab(api: FastifyInstance, ctx: ServerContext) {
  registerLabHooks();
  registerFileOwner(entityFileOwner('lab-contract', 'lab_contract', ['attachments']));
  const input = (req: FastifyRequest) => ({ ...((req.query ?? {}) as Row), ...((req.body && typeof req.body === 'object' ? req.body : {}) as Row) });
  const booking = async (req: FastifyRequest) => {
    const r = await getRow(hookContext(ctx, req, 'lab_reservation'), str(input(req).id));
    if (!r) throw new BizError('未找到对应预约');
    return r;
  };
  /** Sets a booking's status and tells its applicant. */
  const decide = async (req: FastifyRequest, r: Row, status: string, opinion: string) => {
    const push = await inTransaction(ctx.db, async (trx) => {
      await trx
        .updateTable('lab_reservation')
        .set({ status, ...(status === 'CANCELLED' ? {} : { approver_id: req.user!.id, approve_opinion: opinion || null }), update_by: req.user!.username, update_time: now() })
        .where('id', '=', str(r.id))
        .execute();
      if (str(r.applicantId) === req.user!.id) return async () => undefined;
      const lab = await trx.selectFrom('lab_lab').select('name').where('id', '=', str(r.labId)).executeTakeFirst();
      return notifyDomain(ctx, trx, [str(r.applicantId)], {
        title: `实验室预约${STATUS_TEXT[status]}：${str(lab?.name)} ${str(r.useDate)} 第${r.startSection}-${r.endSection}节`,
        content: opinion ? noticeHtml`审核意见：${opinion}` : noticeHtml`您的实验室预约${STATUS_TEXT[status]}。`, busType: 'lab_reservation', busId: str(r.id), sender: req.user!.username,
      });
    });
    await push();
    return ok(null, '操作成功！');
  };

  // A booking in the 实验室预约审批 process is decided there (assignment checks, history): these routes refuse it.
  const notInProcess = async (r: Row) => {
    const running = await ctx.db.selectFrom('wf_instance').select('id').where('biz_type', '=', 'lab_reservation').where('biz_id', '=', str(r.id)).where('status', 'in', ['RUNNING', 'RETURNED']).executeTakeFirst();
    if (running) throw new BizError('该预约正在走“实验室预约审批”流程，请在“审批流程 → 我的待办”中办理');
  };
  api.post('/lab/reservation/approve', { config: { auth: APPROVE } }, async (req) => {
    const r = await booking(req);
    if (r.status !== 'PENDING') throw new BizError('只能审核待审核的预约');
    await notInProcess(r);
    await checkFree(ctx.db, r, ['APPROVED']);
    return decide(req, r, 'APPROVED', str(input(req).opinion).trim().slice(0, 500));
  });
  api.post('/lab/reservation/reject', { config: { auth: APPROVE } }, async (req) => {
    const r = await booking(req);
    if (r.status !== 'PENDING') throw new BizError('只能审核待审核的预约');
    await notInProcess(r);
    const opinion = str(input(req).opinion).trim();
    if (!opinion) throw new BizError('请填写驳回原因');
    return decide(req, r, 'REJECTED', opinion.slice(0, 500));
  });
  api.post('/lab/reservation/cancel', { config: { auth: 'lab:reservation:list' } }, async (req) => {
    const r = await booking(req);
    if (r.applicantId !== req.user!.id && !mayManage(req.user!)) throw new BizError('只能取消自己的预约');
    if (!['PENDING', 'APPROVED'].includes(str(r.status))) throw new BizError('该预约已结束，不能取消');
    if (str(r.useDate) < dayjs().format('YYYY-MM-DD')) throw new BizError('已过使用日期的预约不能取消');
    return decide(req, r, 'CANCELLED', '');
  });
}
