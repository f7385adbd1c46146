/**
 * 报表配置's report structure (issue 31), shared by the server that compiles it (server/online/report-builder.ts)
 * and the browser's builder and report screen (renderer/report). A structure, never SQL text.
 * A field is `name` (the base entity) or `<relation>.<name>` (a joined relation); its output key is the
 * name with the dot replaced by `_`.
 */
export interface ReportColumnSpec {
  field: string;
  label?: string;
  dict?: string;
  format?: 'text' | 'number' | 'percent' | 'date' | 'datetime' | 'money';
  /** The cell opens the row's record (ungrouped reports, and the detail rows of a grouped one). */
  link?: boolean;
}
export interface ReportParamSpec {
  name: string;
  label: string;
  type?: 'string' | 'integer' | 'number' | 'date';
  dict?: string;
}
export interface ReportSpec {
  entity: string;
  /** Relation names of the base entity to join. */
  joins?: string[];
  /** Plain columns; with aggregates they are the dimensions (group by). */
  columns?: Array<string | ReportColumnSpec>;
  groupBy?: string[];
  aggregates?: Array<{ fn: 'count' | 'sum' | 'avg' | 'min' | 'max'; field?: string; as: string; label?: string }>;
  filters?: Array<{ field: string; op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like'; value?: unknown; param?: string }>;
  params?: ReportParamSpec[];
  orderBy?: Array<{ field: string; desc?: boolean }>;
  limit?: number;
  chart?: { type: 'bar' | 'line' | 'pie'; x: string; series: string[] };
  /** Columns of a grouped row's records (明细), each may link to its record. */
  detail?: ReportColumnSpec[];
}

/** What a client needs to draw the answer: one entry per output key. */
export interface ReportOutput {
  key: string;
  label: string;
  /** The field type (entity-types FieldType). */
  type: 'string' | 'text' | 'integer' | 'bigint' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'json';
  dict?: string;
  format?: string;
  link?: boolean;
}

/** What a report screen gets: the outputs, parameters, chart and where a row's record opens. */
export interface ReportViewInfo {
  name: string;
  params: ReportParamSpec[];
  chart?: ReportSpec['chart'];
  columns: ReportOutput[];
  grouped: boolean;
  /** Output keys of the group columns (a grouped row's 明细 sends their values). */
  dims?: string[];
  detail?: ReportOutput[];
  recordLink?: string;
  mayExport?: boolean;
  rows?: Array<Record<string, unknown>>;
}

/** The output key of a field path. */
export const outputKey = (field: string) => field.replace('.', '_');
