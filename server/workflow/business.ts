import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import type { Actor } from './service.js';
import { now } from '../util.js';

/**
 * Business records approved through a process: what the record's status becomes when its instance
 * ends, is returned or resubmitted. A module registers its handler under its `bizType`.
 */
export type BizOutcome = 'APPROVED' | 'REJECTED' | 'PENDING' | 'CANCELLED';
export interface BizHandler {
  onEnd?(ctx: ServerContext, trx: DB, inst: Record<string, any>, outcome: BizOutcome, actor: Actor, comment?: string): Promise<void>;
}
const handlers = new Map<string, BizHandler>();
export const registerBizHandler = (bizType: string, h: BizHandler) => void handlers.set(bizType, h);
export const bizHandler = (bizType: unknown) => (typeof bizType === 'string' ? handlers.get(bizType) : undefined);

/** 实验室预约: the booking's status follows its approval. */
registerBizHandler('lab_reservation', {
  async onEnd(_ctx, trx, inst, outcome, actor, comment) {
    const status = outcome === 'APPROVED' ? 'APPROVED' : outcome === 'REJECTED' ? 'REJECTED' : outcome === 'PENDING' ? 'PENDING' : 'CANCELLED';
    await trx
      .updateTable('lab_reservation')
      .set({ status, approver_id: actor.id === 'system' ? null : actor.id, approve_opinion: comment ? comment.slice(0, 500) : null, update_by: actor.username, update_time: now() })
      .where('id', '=', String(inst.biz_id))
      .execute();
  },
});
