import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import { registerVxeSocket } from './sys/vxe-socket.js';
import { registerPages } from './pages/index.js';
import { registerUserSession } from './sys/user-session-routes.js';
import { registerUserAdmin } from './sys/user-admin.js';
import { registerRoleAdmin } from './sys/role-admin.js';
import { registerDepartAdmin } from './sys/depart-admin.js';
import { registerPermissionAdmin } from './sys/permission-admin.js';
import { registerLog } from './sys/log.js';
import { registerMonitor } from './sys/monitor.js';
import { registerNotify } from './sys/notify.js';
import { registerWebsocket } from './sys/websocket.js';
import { registerAnnouncement } from './sys/announcement.js';
import { registerFiles } from './sys/files.js';
import { registerJobs } from './sys/jobs/index.js';
import { registerMetrics } from './ops/metrics.js';
import './ops/jobs.js'; // the backup and upload-sweep job handlers
import { registerMessage } from './sys/message.js';
import { registerCrud } from './crud/routes.js';
import { registerDictRoutes } from './sys/dict-routes.js';
import { registerCheckRoutes } from './sys/check-routes.js';
import { registerOnlineForms } from './online/cgform.js';
import { registerOnlineReports } from './online/cgreport.js';
import { registerPageDesigner } from './design/index.js';
import { registerReportBuilder } from './online/report-builder.js';
import { registerReportStore } from './online/report-store.js';
import { registerDomain } from './domain/index.js';
import { registerWorkflow } from './workflow/index.js';
import { registerAccount } from './sys/account.js';
import { registerDataSource } from './sys/data-source.js';
import { registerGateway } from './sys/gateway.js';
import { registerDataLog } from './sys/data-log.js';
import { registerAddress } from './sys/address.js';
import { registerDataRuleList } from './sys/data-rule-list.js';
import { registerFilesConfirm } from './sys/files-confirm.js';
import { registerDepartRole } from './sys/depart-role.js';
import { registerJeecgCompat } from './sys/jeecg-compat.js';
import { registerJeecgCompatMonitor } from './sys/jeecg-compat-monitor.js';
import { registerJeecgCompatIo } from './sys/jeecg-compat-io.js';
import { registerDocs } from './docs/index.js';
/**
 * Every server module registers its routes here, under the context path. Each route declares
 * `config.auth` (see http/guard.ts). Keep one line per module.
 */
export async function registerModules(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  void api;
  void ctx;
  await registerMetrics(api, ctx); // first: its onResponse hook counts every route below
  await registerUserSession(api, ctx);
  await registerPages(api, ctx);
  await registerVxeSocket(api, ctx);
  await registerLog(api, ctx);
  await registerMonitor(api, ctx);
  await registerNotify(api, ctx);
  await registerWebsocket(api, ctx);
  await registerAnnouncement(api, ctx);
  await registerFiles(api, ctx);
  await registerJobs(api, ctx);
  await registerMessage(api, ctx);
  await registerDictRoutes(api, ctx);
  await registerCheckRoutes(api, ctx);
  await registerOnlineForms(api, ctx);
  await registerOnlineReports(api, ctx);
  await registerPageDesigner(api, ctx);
  await registerReportBuilder(api, ctx);
  await registerReportStore(api, ctx);
  await registerCrud(api, ctx);
  await registerDomain(api, ctx);
  await registerWorkflow(api, ctx);
  await registerUserAdmin(api, ctx);
  await registerRoleAdmin(api, ctx);
  await registerDepartAdmin(api, ctx);
  await registerPermissionAdmin(api, ctx);
  await registerAccount(api, ctx);
  await registerDataSource(api, ctx);
  await registerGateway(api, ctx);
  await registerAddress(api, ctx);
  await registerDataRuleList(api, ctx);
  await registerFilesConfirm(api, ctx);
  await registerDepartRole(api, ctx);
  await registerDocs(api, ctx);
  // Calls of the stock JeecgBoot 3.4 client our own screens make differently (docs/jeecg-compat.md).
  await registerJeecgCompat(api, ctx);
  await registerJeecgCompatMonitor(api, ctx);
  await registerJeecgCompatIo(api, ctx);
  // Last: its hooks run after every other module's hooks of the same entity (it logs the final state).
  await registerDataLog(api, ctx);
}
