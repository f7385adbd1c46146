import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok, page } from '../http/envelope.js';

const SORT: Record<string, string> = { ruleName: 'r.rule_name', permissionName: 'p.name', ruleColumn: 'r.rule_column', createTime: 'r.create_time' };

/**
 * 数据规则: every data rule with its menu, paged. Adding, editing and deleting go through the
 * permission tree's own calls (/sys/permission/addPermissionRule, editPermissionRule, deletePermissionRule).
 */
export async function registerDataRuleList(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  api.get('/sys/dataRule/list', { config: { auth: 'system:dataRule:list' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const pageNo = Math.max(1, Math.floor(Number(q.pageNo) || 1));
    const pageSize = Math.floor(Number(q.pageSize) || 10);
    if (pageSize < 1 || pageSize > 1000) throw new BizError('每页条数须在1到1000之间');
    const like = (v: unknown) => `%${String(v).replace(/^\*|\*$/g, '').replace(/[\\%_]/g, '\\$&')}%`;
    let qb = ctx.db.selectFrom('sys_permission_data_rule as r').leftJoin('sys_permission as p', 'p.id', 'r.permission_id');
    if (typeof q.ruleName === 'string' && q.ruleName) qb = qb.where('r.rule_name', 'like', like(q.ruleName));
    if (typeof q.permissionName === 'string' && q.permissionName) qb = qb.where('p.name', 'like', like(q.permissionName));
    if (typeof q.permissionId === 'string' && q.permissionId) qb = qb.where('r.permission_id', '=', q.permissionId);
    if (typeof q.status === 'string' && q.status) qb = qb.where('r.status', '=', q.status);
    const [{ n }] = (await qb.select((eb) => eb.fn.countAll<string>().as('n')).execute()) as [{ n: string }];
    const col = SORT[String(q.column ?? '')] ?? 'r.create_time';
    const dir = q.order === 'asc' ? 'asc' : 'desc';
    const rows = await qb
      .select([
        'r.id', 'r.permission_id as permissionId', 'r.rule_name as ruleName', 'r.rule_column as ruleColumn', 'r.rule_conditions as ruleConditions',
        'r.rule_value as ruleValue', 'r.status', 'r.create_by as createBy', 'r.create_time as createTime', 'p.name as permissionName', 'p.url as permissionUrl',
      ])
      .orderBy(col as 'r.create_time', dir)
      .orderBy('r.id')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute();
    return ok(page(rows, Number(n), pageNo, pageSize));
  });
}
