import { sql } from 'kysely';
import type { Migration } from '../migrate.js';

/** Append new migrations; never edit one that has shipped. */
export const migrations: Migration[] = [
  {
    // Issue 33: menu components follow the stock JeecgBoot view names. The menu seed only inserts rows
    // that are missing, so rows of an existing database are renamed here (a fresh one gets the new names).
    version: 33,
    name: 'jeecg_stock_menu_components',
    async up(db) {
      await sql`update sys_permission set component = 'system/SysAnnouncementList' where component = 'system/AnnouncementList'`.execute(db);
      // 个人设置 gains its hidden child routes (inserted by the menu seed that follows).
      await sql`update sys_permission set is_leaf = false, redirect = coalesce(redirect, '/account/settings/base') where url = '/account/settings'`.execute(db);
    },
  },
  {
    // Issue 28: 审批流程 works now. Roles of an existing database get 发起申请 / 我的待办 / 我的已办 / 流程历史
    // (a fresh database gets them from the menu seed's role rules); what each user sees is scoped on the server.
    version: 2800,
    name: 'workflow_menu_grants',
    async up(db) {
      await sql`insert into sys_role_permission (id, role_id, permission_id)
        select md5(r.id || p.id), r.id, p.id from sys_role r cross join sys_permission p
        where r.role_code in ('supervisor', 'leader', 'secretary', 'deptadmin', 'teacher')
          and p.url in ('/workflow', '/workflow/apply', '/workflow/todo', '/workflow/done', '/workflow/history')
          and not exists (select 1 from sys_role_permission x where x.role_id = r.id and x.permission_id = p.id)`.execute(db);
    },
  },
];
