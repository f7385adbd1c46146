import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { activeVersionId, startInstance } from './service.js';

/** Sections after this one are outside the labs' opening hours (evenings): the department leader approves too. */
export const LAB_LAST_OPEN_SECTION = 8;
export const LAB_MODEL = 'lab_reservation';

/**
 * 实验室预约审批: a new booking starts the 实验室预约审批 process (when a version of it is deployed);
 * the booking's status then follows the instance (business.ts).
 */
export async function registerLabWorkflow(_api: FastifyInstance, ctx: ServerContext) {
  defineEntityHooks('lab_reservation', {
    async afterSave(h, row, mode) {
      if (mode !== 'add') return;
      if (!(await activeVersionId(h.db, { modelKey: LAB_MODEL }))) return; // no process deployed: the booking waits for the lab manager's 审核 as before
      const lab = await h.db.selectFrom('lab_lab').select(['name', 'manager_id']).where('id', '=', String(row.labId)).executeTakeFirst();
      const end = Number(row.endSection);
      await startInstance(
        ctx,
        h.user,
        {
          modelKey: LAB_MODEL,
          bizType: 'lab_reservation',
          bizId: String(row.id),
          title: `实验室预约：${String(lab?.name ?? '')} ${String(row.useDate)} 第${row.startSection}-${end}节`,
          variables: {
            labId: row.labId, labName: lab?.name ?? '', labManagerId: lab?.manager_id ?? '', useDate: row.useDate, startSection: Number(row.startSection),
            endSection: end, attendance: Number(row.attendance), purpose: row.purpose, outsideHours: end > LAB_LAST_OPEN_SECTION,
          },
        },
        h.db,
      );
    },
  }, 'workflow');
}
