import { sql } from 'kysely';
import type { Migration } from '../migrate.js';
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
    // Issue 29: online documents (library, shares, collaboration log, versions, comments, evidence links) and their templates.
    version: 2900,
    name: 'online_documents',
    async up(db) {
      await createDocTables(db);
      await seedTemplates(db);
    },
  },
];
