import type { SessionUser } from '../../auth/session.js';
import type { FieldType } from '../../crud/entity-types.js';
import type { EntityQuery } from '../../crud/hooks.js';
import type { DB } from '../../db/index.js';
import type { RouteAuth } from '../../http/guard.js';

export interface ReportColumn {
  /** Output column alias of the query (snake_case) — also the wire field. */
  field: string;
  title: string;
  type?: FieldType;
  dict?: string;
  sortable?: boolean;
  /** Offered as a query field (getQueryInfo), filtered with the list-query rules. */
  search?: boolean;
  searchMode?: 'single' | 'group';
}

export interface ReportParam {
  /** Sent by clients as `self_<name>`. */
  name: string;
  label: string;
  type: 'string' | 'integer' | 'date';
  required?: boolean;
}

/**
 * A named, read-only report registered in server code. `query` builds a SELECT from bound
 * parameters; clients never send SQL. The engine wraps it for filters, sort, count and paging.
 */
export interface ReportDef {
  code: string;
  name: string;
  /** What the query reads, in words: shown where JeecgBoot shows the report's SQL (`cgrSql`), never executed. */
  description?: string;
  auth: RouteAuth;
  columns: ReportColumn[];
  params: ReportParam[];
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  query(db: DB, params: Record<string, string | number | undefined>, user: SessionUser): EntityQuery;
}
