import { sql } from 'kysely';
import type { Migration } from '../migrate.js';
import { sha256 } from '../../util.js';
import { createDocTables, seedTemplates } from '../../docs/tables.js';

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
    // Issue 32: uploaded files in PostgreSQL (server/storage/db.ts): one blob row per file (no key until
    // the upload is published), its bytes in 256 KB chunks.
    version: 3200,
    name: 'file_storage_tables',
    async up(db) {
      await sql`create table if not exists sys_file_blob (
        id varchar(32) primary key,
        key varchar(500) unique,
        size bigint not null default 0,
        chunk_size integer not null,
        create_time timestamp(0) not null default localtimestamp)`.execute(db);
      await sql`create table if not exists sys_file_chunk (
        blob_id varchar(32) not null references sys_file_blob(id) on delete cascade,
        seq integer not null,
        data bytea not null,
        primary key (blob_id, seq))`.execute(db);
      await sql`create index if not exists sys_file_blob_pending on sys_file_blob (create_time) where key is null`.execute(db);
    },
  },
  {
    // Issue 32: the nightly backup (keeps 7 archives) and the sweep of uploads cut short by a crash, as
    // scheduled jobs (handlers in server/ops/jobs.ts). Admins may pause, edit or delete them.
    version: 3201,
    name: 'backup_and_upload_sweep_jobs',
    async up(db) {
      const jobs = [
        { name: 'nightlyBackup', cron: '0 0 2 * * ?', parameter: '7', description: '每天2点备份数据库和文件，保留最近7份（见部署指南）' },
        { name: 'sweepUnpublishedUploads', cron: '0 15 3 * * ?', parameter: null, description: '每天3点15分清理中断上传留下的临时文件' },
      ];
      for (const j of jobs)
        await sql`insert into sys_quartz_job (id, job_class_name, cron_expression, parameter, description, status, create_by, create_time)
                  values (${sha256(`job|${j.name}`).slice(0, 32)}, ${j.name}, ${j.cron}, ${j.parameter}, ${j.description}, 0, 'system', localtimestamp(0))
                  on conflict do nothing`.execute(db);
    },
  },
  {
    // Issue 29: online documents (library, shares, collaboration log, versions, comments, evidence links) and their templates.
    version: 2900,
    name: 'online_documents',
    async up(db) {
      await createDocTables(db);
      await seedTemplates(db);
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
  {
    // Issue 28: 我的待办 reads wf_task_user (who may act on each open task, kept by server/workflow/service.ts
    // flush); an existing database gets the rows of its open tasks.
    version: 2810,
    name: 'workflow_task_user',
    async up(db) {
      await sql`insert into wf_task_user (id, task_id, instance_id, user_id, create_time)
        select md5(t.id || '|' || u.uid), t.id, t.instance_id, u.uid, t.create_time
        from wf_task t cross join lateral unnest(case when t.assignee_id is not null then array[t.assignee_id]
          else string_to_array(trim(both ',' from coalesce(t.candidate_ids, '')), ',') end) as u(uid)
        where t.status = 'OPEN' and u.uid <> ''
        on conflict do nothing`.execute(db);
    },
  },
];
