import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';

/**
 * Every server module registers its routes here, under the context path. Each route declares
 * `config.auth` (see http/guard.ts). Keep one line per module.
 */
export async function registerModules(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  void api;
  void ctx;
}
