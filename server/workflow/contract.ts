import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { now } from '../util.js';
import { registerBizHandler } from './business.js';
import { startInstance, type Push } from './service.js';

/**
 * 合同审批 from 合同管理: a draft (or returned / withdrawn) contract is submitted from its row (提交审批), which
 * starts the seeded 合同审批 process (department leader → 财务 → countersign) with the contract as the
 * instance's form; the contract's status follows the instance (审批中 → 生效, or 已退回 / back to 草稿).
 */
export const CONTRACT_MODEL = 'contract';
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const SUBMITTABLE = ['DRAFT', 'REJECTED'];

registerBizHandler('lab_contract', {
  async onEnd(_ctx, trx, inst, outcome, actor) {
    const status = { APPROVED: 'ACTIVE', REJECTED: 'REJECTED', PENDING: 'PENDING', CANCELLED: 'DRAFT' }[outcome];
    await trx.updateTable('lab_contract').set({ status, update_by: actor.username, update_time: now() }).where('id', '=', str(inst.biz_id)).execute();
  },
});

export async function registerContractWorkflow(api: FastifyInstance, ctx: ServerContext) {
  api.post('/workflow/biz/contract', { config: { auth: 'lab:contract:edit' } }, async (req) => {
    const b = { ...((req.query ?? {}) as Record<string, unknown>), ...((req.body ?? {}) as Record<string, unknown>) };
    const user = req.user!;
    const pushes: Push[] = [];
    const r = await ctx.db.transaction().execute(async (trx) => {
      const c = await trx.selectFrom('lab_contract').selectAll().where('id', '=', str(b.id)).forUpdate().executeTakeFirst();
      if (!c) throw new BizError('合同不存在');
      if (!SUBMITTABLE.includes(str(c.status))) throw new BizError('只有草稿或已退回的合同可以提交审批');
      const lab = c.lab_id
        ? await trx.selectFrom('lab_lab as l').leftJoin('sys_depart as d', 'd.id', 'l.depart_id').select(['l.name', 'd.org_code']).where('l.id', '=', str(c.lab_id)).executeTakeFirst()
        : undefined;
      const started = await startInstance(
        ctx,
        user,
        {
          // The department leader is the leader of the contract's lab's department (else the submitter's).
          modelKey: CONTRACT_MODEL, bizType: 'lab_contract', bizId: str(c.id), orgCode: lab?.org_code ? str(lab.org_code) : undefined, title: `合同审批：${str(c.contract_no)} ${str(c.party_name)}`.slice(0, 200),
          variables: {
            contractNo: c.contract_no, partyName: c.party_name, partyType: c.party_type, labId: c.lab_id ?? '', labName: lab?.name ?? '', amount: Number(c.amount ?? 0),
            signDate: str(c.sign_date).slice(0, 10), validFrom: str(c.valid_from).slice(0, 10), validTo: str(c.valid_to).slice(0, 10),
          },
        },
        trx,
        pushes,
      );
      await trx.updateTable('lab_contract').set({ status: 'PENDING', update_by: user.username, update_time: now() }).where('id', '=', str(c.id)).execute();
      return started;
    });
    for (const p of pushes) await p();
    return ok(r, '已提交审批');
  });
}
