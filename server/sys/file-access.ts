import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import { hookContext, scopedQuery } from '../crud/engine.js';
import { seesEverything } from './permission-tree.js';

/**
 * Who may download a stored file (issue 27 rule 9): the users who can see a record that owns it.
 *
 * Uploads are stored first (`/sys/common/upload`, one `sys_file` row: url, uploader) and the business
 * record then refers to the stored path — in a comma list (`photos`, `attachments`), an avatar, or an
 * `<img src>` of an announcement body. Each module registers a resolver for its records
 * (`registerFileOwner`); `canReadFile` asks them all:
 * - a resolver answers `undefined` when none of its records refers to the file, else whether the user
 *   sees one of those records (its own list scope, data rules and read permission);
 * - one `true` is enough; a file referred to only by records the user cannot see is refused;
 * - a file no record refers to yet (just uploaded, or kept in 文件存储) is readable by its uploader and
 *   by the administrators of 文件存储 (`system:file:list`).
 */
export interface StoredFile {
  /** The stored relative path (`<biz>/<name>`), as records refer to it. */
  url: string;
  /** The uploader's username (`sys_file.create_by`); null when the file has no row. */
  createBy: string | null;
}

export interface FileOwnerResolver {
  /** One per business type; registering the same name again replaces it (several servers per process in tests). */
  name: string;
  resolve(ctx: ServerContext, user: SessionUser, file: StoredFile, req: FastifyRequest): Promise<boolean | undefined>;
}

const resolvers = new Map<string, FileOwnerResolver>();

export function registerFileOwner(r: FileOwnerResolver): void {
  resolvers.set(r.name, r);
}

/** The administrators of 文件存储 list (and so may download) every stored file. */
export const FILE_ADMIN = 'system:file:list';

export async function canReadFile(ctx: ServerContext, user: SessionUser, file: StoredFile, req: FastifyRequest): Promise<boolean> {
  if (seesEverything(user) || user.perms.has(FILE_ADMIN)) return true;
  let owned = false;
  for (const r of resolvers.values()) {
    const v = await r.resolve(ctx, user, file, req);
    if (v === true) return true;
    if (v === false) owned = true;
  }
  return !owned && !!file.createBy && file.createBy === user.username;
}

/** Rows of `table` whose `column` mentions the stored path (a comma list, a single path or HTML). */
export const mentions = (column: string, url: string) => sql<boolean>`strpos(coalesce(${sql.ref(column)}, ''), ${url}) > 0`;

/** Whether the user sees one of `ids` of `entity`: holds its list or queryById permission and one row is in their scope. */
export async function seesAnyRow(ctx: ServerContext, user: SessionUser, req: FastifyRequest, entity: string, ids: string[]): Promise<boolean> {
  const e = ctx.entities.get(entity);
  if (!ids.length || ![`${e.permission}:list`, `${e.permission}:queryById`].some((p) => user.perms.has(p))) return false;
  const seen = await (await scopedQuery(hookContext(ctx, req, e))).select('t.id').where('t.id', 'in', ids).limit(1).executeTakeFirst();
  return !!seen;
}

/**
 * The resolver of an entity's file columns: the records mentioning the file (deleted ones included —
 * they still own it); readable when the user sees one of them (`seesAnyRow`: the entity's read
 * permission, data rules and the module's list scope).
 */
export function entityFileOwner(name: string, entity: string, columns: string[]): FileOwnerResolver {
  return {
    name,
    async resolve(ctx, user, file, req) {
      const e = ctx.entities.get(entity);
      const owners = await ctx.db
        .selectFrom(`${e.table} as t`)
        .select('t.id')
        .where((eb) => eb.or(columns.map((c) => mentions(`t.${c}`, file.url))))
        .limit(100)
        .execute();
      if (!owners.length) return undefined;
      return seesAnyRow(ctx, user, req, entity, owners.map((o) => String(o.id)));
    },
  };
}
