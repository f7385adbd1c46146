import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerWorkflowRoutes } from './routes.js';
import { registerLabWorkflow } from './lab.js';
import { registerImprovementWorkflow } from './improvement.js';
import { registerContractWorkflow } from './contract.js';

/** 审批流程 (issue 28): models, versions, instances on bpmn-engine, tasks, timers, business bridges. */
export async function registerWorkflow(api: FastifyInstance, ctx: ServerContext) {
  await registerWorkflowRoutes(api, ctx);
  await registerLabWorkflow(api, ctx);
  await registerImprovementWorkflow(api, ctx);
  await registerContractWorkflow(api, ctx);
}
