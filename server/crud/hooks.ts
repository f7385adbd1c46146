import type { FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import type { SessionUser } from '../auth/session.js';
import type { EntitySchema } from './entity-types.js';

/** A wire row: camelCase keys, strings for ids, dates and numerics. */
export type Row = Record<string, unknown>;
export type SaveMode = 'add' | 'edit';

export interface HookContext {
  ctx: ServerContext;
  req: FastifyRequest;
  user: SessionUser;
  entity: EntitySchema;
  /** The transaction on writes, else the pool. */
  db: DB;
}

export type EntityQuery = SelectQueryBuilder<any, any, any>;

export type ReadPurpose = 'list' | 'export' | 'get';

/** Extension points of the generic engine for one entity (see docs/architecture.md). */
export interface EntityHooks {
  beforeSave?(h: HookContext, row: Row, mode: SaveMode, old: Row | undefined, input: Row): Promise<void> | void;
  afterSave?(h: HookContext, row: Row, mode: SaveMode, input: Row): Promise<void> | void;
  beforeDelete?(h: HookContext, rows: Row[]): Promise<void> | void;
  /** Adds derived fields to rows read for a list page, an export or one record (`get`: queryById, edit forms). */
  decorateRows?(h: HookContext, rows: Row[], purpose: ReadPurpose): Promise<Row[]> | Row[];
  /** Extra WHERE on every scoped read and write; the entity table is aliased `t`. */
  listScope?(h: HookContext, qb: EntityQuery): EntityQuery;
}

const registry = new Map<string, Map<string, EntityHooks>>();

/**
 * Registers hooks for an entity. Several modules may hook one entity (run in registration order);
 * registering again under the same `key` replaces (a module registered by a second server in the
 * same process does not run twice).
 */
export function defineEntityHooks(entityName: string, hooks: EntityHooks, key = 'default'): void {
  const byKey = registry.get(entityName) ?? new Map<string, EntityHooks>();
  byKey.set(key, hooks);
  registry.set(entityName, byKey);
}

export function hooksOf(entityName: string): EntityHooks[] {
  return [...(registry.get(entityName)?.values() ?? [])];
}
