import { sql } from 'kysely';
import type { ReportDef } from './types.js';

/** Active users with their departments — the data of the user popup picker. */
export const usersByDepart: ReportDef = {
  code: 'sys_user_by_depart',
  name: '用户选择（按部门）',
  description: '正常状态、未删除的用户及其所属部门（可按部门编码含下级筛选）',
  auth: 'user',
  columns: [
    { field: 'username', title: '登录账号', sortable: true, search: true },
    { field: 'realname', title: '姓名', sortable: true, search: true },
    { field: 'work_no', title: '工号', sortable: true, search: true },
    { field: 'depart_names', title: '部门' },
    { field: 'org_code', title: '部门编码', search: true },
    { field: 'title', title: '职称', dict: 'teacher_title' },
  ],
  params: [{ name: 'orgCode', label: '部门编码（含下级）', type: 'string' }],
  defaultSort: { field: 'username', order: 'asc' },
  query(db, p) {
    let q = db
      .selectFrom('sys_user as u')
      .select([
        'u.id', 'u.username', 'u.realname', 'u.work_no', 'u.org_code', 'u.title',
        sql<string>`(select string_agg(d.depart_name, ',' order by d.depart_name) from sys_user_depart ud join sys_depart d on d.id = ud.dep_id where ud.user_id = u.id)`.as('depart_names'),
      ])
      .where('u.del_flag', '=', 0)
      .where('u.status', '=', 1);
    if (p.orgCode)
      q = q.where(({ exists, selectFrom }) =>
        exists(selectFrom('sys_user_depart as ud').innerJoin('sys_depart as d', 'd.id', 'ud.dep_id').select(sql`1`.as('x')).whereRef('ud.user_id', '=', 'u.id').where('d.org_code', 'like', `${String(p.orgCode).replace(/[\\%_]/g, (c) => '\\' + c)}%`)),
      );
    return q;
  },
};
