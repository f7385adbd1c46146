import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerSetup } from './setup.js';
import { registerLectureRecords } from './records.js';
import { registerReports } from './reports.js';
import { registerImprovement } from './improvement.js';
import { registerDashboard } from './dashboard.js';
import { registerTimetableImport } from './import.js';
import { registerAuditHooks } from './audit.js';
import { registerLab } from './lab.js';
import { registerClassroomNow } from './classroom-now.js';


/** The lecture-observation domain: term setup, timetable, index systems, records, statistics, improvement. */
export async function registerDomain(api: FastifyInstance, ctx: ServerContext) {
  await registerSetup(api, ctx);
  await registerLectureRecords(api, ctx);
  await registerReports(api, ctx);
  await registerImprovement(api, ctx);
  await registerDashboard(api, ctx);
  await registerTimetableImport(api, ctx);
  registerAuditHooks();
  await registerLab(api, ctx);
  await registerClassroomNow(api, ctx);

}
