import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError } from '../http/envelope.js';
import { defineEntityHooks } from '../crud/hooks.js';

/** 网关路由: stored configuration only (no gateway runs here). predicates/filters must be JSON arrays of objects. */
export function checkRouteJson(label: string, text: unknown): string | null {
  if (text === undefined || text === null || (typeof text === 'string' && text.trim() === '')) return null;
  if (typeof text !== 'string') throw new BizError(`${label}必须是JSON文本`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new BizError(`${label}不是有效的JSON：${(e as Error).message.slice(0, 100)}`);
  }
  if (!Array.isArray(v) || v.some((x) => !x || typeof x !== 'object' || Array.isArray(x))) throw new BizError(`${label}必须是JSON数组，每一项是一个对象，如 [{"name":"Path","args":{"_genkey_0":"/api/**"}}]`);
  return JSON.stringify(v, null, 2);
}

export async function registerGateway(_api: FastifyInstance, _ctx: ServerContext): Promise<void> {
  defineEntityHooks(
    'sys_gateway_route',
    {
      beforeSave(_h, row) {
        if ('predicates' in row) row.predicates = checkRouteJson('断言（predicates）', row.predicates);
        if ('filters' in row) row.filters = checkRouteJson('过滤器（filters）', row.filters);
        if (row.uri !== undefined && !/^(https?|lb|ws|wss):\/\/\S+$/.test(String(row.uri))) throw new BizError('目标地址须以 http://、https://、lb://、ws:// 或 wss:// 开头');
      },
    },
    'gateway',
  );
}
