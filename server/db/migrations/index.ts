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
];
