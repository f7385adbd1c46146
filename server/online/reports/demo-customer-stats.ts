import { sql } from 'kysely';
import type { ReportDef } from './types.js';

/** Demo: customers per department with balances, within the user's tenant. */
export const demoCustomerStats: ReportDef = {
  code: 'demo_customer_stats',
  name: '示例客户统计（按部门）',
  description: '本租户示例客户按部门汇总：客户数、余额合计、平均年龄',
  auth: 'demo:customer:list',
  columns: [
    { field: 'org_code', title: '部门编码', sortable: true, search: true },
    { field: 'depart_name', title: '部门', sortable: true },
    { field: 'customers', title: '客户数', type: 'integer', sortable: true },
    { field: 'total_balance', title: '余额合计', type: 'number', sortable: true },
    { field: 'avg_age', title: '平均年龄', type: 'number', sortable: true },
  ],
  params: [
    { name: 'status', label: '状态', type: 'string' },
    { name: 'createdFrom', label: '创建日期起', type: 'date' },
  ],
  defaultSort: { field: 'customers', order: 'desc' },
  query(db, p, user) {
    let q = db
      .selectFrom('demo_customer as c')
      .leftJoin('sys_depart as d', 'd.org_code', 'c.org_code')
      .select([
        'c.org_code',
        sql<string>`max(d.depart_name)`.as('depart_name'),
        sql<number>`count(*)::int`.as('customers'),
        sql<string>`coalesce(sum(c.balance), 0)`.as('total_balance'),
        sql<string>`round(avg(c.age), 1)`.as('avg_age'),
      ])
      .where('c.tenant_id', '=', user.tenantId)
      .groupBy('c.org_code');
    if (p.status !== undefined) q = q.where('c.status', '=', String(p.status));
    if (p.createdFrom !== undefined) q = q.where('c.create_time', '>=', `${String(p.createdFrom)} 00:00:00`);
    return q;
  },
};
