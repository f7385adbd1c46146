import { sql } from 'kysely';
import * as Y from 'yjs';
import { getSchema } from '@tiptap/core';
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import type { DB } from '../db/index.js';
import { docExtensions, DOC_FIELD } from '../../shared/doc-schema.js';
import { docPlainText, type PmNode } from '../../shared/doc-text.js';
import { now } from '../util.js';

/** The ProseMirror schema of the documents (shared/doc-schema.ts), built once. */
let schema: ReturnType<typeof getSchema> | undefined;
export const docSchema = () => (schema ??= getSchema(docExtensions()));

/** A Y update holding the given ProseMirror JSON (templates, imports, restores into an empty doc). */
export function jsonToState(json: PmNode): Uint8Array {
  const d = new Y.Doc();
  prosemirrorJSONToYXmlFragment(docSchema(), json, d.getXmlFragment(DOC_FIELD));
  const u = Y.encodeStateAsUpdate(d);
  d.destroy();
  return u;
}

/** Online documents' tables (issue 29; migrations 2900–2999). */
export async function createDocTables(db: DB) {
  await sql`create table if not exists doc_folder (
    id varchar(32) primary key, name varchar(100) not null, parent_id varchar(32), owner_id varchar(32) not null,
    tenant_id integer not null default 0, create_time timestamp(0) not null default localtimestamp)`.execute(db);
  await sql`create table if not exists doc_document (
    id varchar(32) primary key, title varchar(200) not null, folder_id varchar(32), owner_id varchar(32) not null,
    owner_name varchar(100), tenant_id integer not null default 0, state bytea, plain_text text not null default '',
    images text not null default '', status varchar(10) not null default 'DRAFT', finalized_by varchar(100), finalized_at timestamp(0),
    is_template boolean not null default false, deleted_at timestamp(0), deleted_by varchar(100),
    create_time timestamp(0) not null default localtimestamp, update_time timestamp(0), update_by varchar(100))`.execute(db);
  await sql`create index if not exists doc_document_owner on doc_document (owner_id)`.execute(db);
  await sql`create table if not exists doc_share (
    id varchar(32) primary key, doc_id varchar(32) not null, target_type varchar(10) not null, target_id varchar(64) not null,
    target_name varchar(100), level varchar(10) not null, create_by varchar(100), create_time timestamp(0) not null default localtimestamp,
    unique (doc_id, target_type, target_id))`.execute(db);
  await sql`create table if not exists collab_update (
    seq bigserial primary key, doc varchar(32) not null, instance_id varchar(40) not null, update bytea not null,
    created_at timestamp(3) not null default localtimestamp)`.execute(db);
  await sql`create index if not exists collab_update_doc on collab_update (doc, seq)`.execute(db);
  await sql`create table if not exists doc_version (
    id varchar(32) primary key, doc_id varchar(32) not null, name varchar(100), kind varchar(10) not null, state bytea not null,
    plain_text text not null default '', create_by varchar(100), create_by_name varchar(100),
    create_time timestamp(0) not null default localtimestamp)`.execute(db);
  await sql`create index if not exists doc_version_doc on doc_version (doc_id, create_time)`.execute(db);
  await sql`create table if not exists doc_comment (
    id varchar(32) primary key, doc_id varchar(32) not null, parent_id varchar(32), quote text, anchor text, content text not null,
    resolved boolean not null default false, resolved_by varchar(100), create_by varchar(32), create_by_name varchar(100),
    create_time timestamp(0) not null default localtimestamp)`.execute(db);
  await sql`create index if not exists doc_comment_doc on doc_comment (doc_id)`.execute(db);
  await sql`create table if not exists doc_link (
    id varchar(32) primary key, doc_id varchar(32) not null, host_type varchar(20) not null, host_id varchar(32) not null,
    create_by varchar(100), create_time timestamp(0) not null default localtimestamp, unique (doc_id, host_type, host_id))`.execute(db);
  await sql`create index if not exists doc_link_host on doc_link (host_type, host_id)`.execute(db);
  await sql`create table if not exists doc_recent (
    user_id varchar(32) not null, doc_id varchar(32) not null, opened_at timestamp(3) not null, primary key (user_id, doc_id))`.execute(db);
}

const p = (text: string): PmNode => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] });
const h = (level: number, text: string): PmNode => ({ type: 'heading', attrs: { level }, content: [{ type: 'text', text }] });
const row = (cells: string[], header = false): PmNode => ({
  type: 'tableRow',
  content: cells.map((c) => ({ type: header ? 'tableHeader' : 'tableCell', content: [p(c)] })),
});
const table = (head: string[], rows: string[][]): PmNode => ({ type: 'table', content: [row(head, true), ...rows.map((r) => row(r))] });

/** The seeded templates (新建 → 从模板): id, title, body. */
export const TEMPLATES: Array<{ id: string; title: string; body: PmNode }> = [
  {
    id: 'doctpl0000000000000000000000lect',
    title: '听课总结',
    body: { type: 'doc', content: [
      h(1, '听课总结'), p('学期：      听课人：      日期：'),
      h(2, '一、听课概况'), table(['课程', '授课教师', '班级', '听课日期', '评价等级'], [['', '', '', '', '']]),
      h(2, '二、主要优点'), p(''), h(2, '三、存在问题'), p(''), h(2, '四、改进建议'), p(''),
    ] },
  },
  {
    id: 'doctpl00000000000000000000imprv',
    title: '整改报告',
    body: { type: 'doc', content: [
      h(1, '整改报告'), p('整改任务编号：      责任部门：      完成日期：'),
      h(2, '一、问题描述'), p(''), h(2, '二、原因分析'), p(''),
      h(2, '三、整改措施'), table(['序号', '措施', '责任人', '完成时间', '完成情况'], [['1', '', '', '', ''], ['2', '', '', '', '']]),
      h(2, '四、整改成效'), p(''), h(2, '五、佐证材料清单'), p(''),
    ] },
  },
  {
    id: 'doctpl00000000000000000000audit',
    title: '审核评估自评报告',
    body: { type: 'doc', content: [
      h(1, '审核评估自评报告'), h(2, '一、学校概况'), p(''), h(2, '二、办学定位与目标'), p(''),
      h(2, '三、培养过程'), p(''), h(2, '四、质量保障'), p(''),
      h(2, '五、审核要点自评'), table(['审核要点', '自评结论', '佐证材料'], [['', '', ''], ['', '', '']]),
      h(2, '六、主要问题与改进计划'), p(''),
    ] },
  },
];

export async function seedTemplates(db: DB) {
  for (const t of TEMPLATES) {
    const exists = await db.selectFrom('doc_document').select('id').where('id', '=', t.id).executeTakeFirst();
    if (exists) continue;
    await db
      .insertInto('doc_document')
      .values({ id: t.id, title: t.title, owner_id: 'system', owner_name: '系统', tenant_id: 0, state: Buffer.from(jsonToState(t.body)), plain_text: docPlainText(t.body), is_template: true, create_time: now(), update_time: now() })
      .execute();
  }
}
