/** Page schema types (meta-schema: schemas/meta/page.schema.json; guide: docs/page-schema.md). */

/** The built-in page kinds; a module may register more (renderer/registry.ts). */
export type PageKind = 'list' | 'tree-list' | 'master-detail' | 'form' | 'detail' | 'report' | 'dashboard' | 'result' | 'tabs';

export interface ApiBinding {
  list?: string;
  add?: string;
  edit?: string;
  delete?: string;
  deleteBatch?: string;
  queryById?: string;
  exportXls?: string;
  importExcel?: string;
  /** tree-list: children of a node (`?pid=`); defaults to `list`. */
  children?: string;
}

export interface ColumnSchema {
  dataIndex: string;
  title: string;
  width?: number;
  ellipsis?: boolean | number;
  /** Dictionary code: the cell shows `<field>_dictText`, else the dictionary text of the value. */
  dict?: string;
  sorter?: boolean;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  /** A cell widget name from widgets/registry.ts (e.g. "cell:tag", "cell:image"). */
  widget?: string;
  widgetProps?: Record<string, unknown>;
  hidden?: boolean;
}

export interface QueryFieldSchema {
  name: string;
  label: string;
  /** Input | Select | DatePicker | DateRange | NumberRange | any registered widget */
  widget?: string;
  /** like (default for Input) | eq | range | in | begin (prefix match) */
  rule?: 'like' | 'eq' | 'range' | 'in' | 'begin';
  dict?: string;
  options?: Array<{ label: string; value: string | number }>;
  default?: unknown;
  props?: Record<string, unknown>;
}

export interface FormFieldSchema {
  name: string;
  label: string;
  widget?: string;
  required?: boolean;
  /** Formily validator rules, e.g. [{ "format": "phone", "message": "..." }] or ["email"]. */
  rules?: unknown[];
  dict?: string;
  options?: Array<{ label: string; value: string | number }>;
  default?: unknown;
  props?: Record<string, unknown>;
  /** 1..3: columns spanned in the grid */
  span?: number;
  visible?: unknown;
  disabled?: unknown;
  /** Only in these modes. */
  modes?: Array<'add' | 'edit' | 'detail'>;
  description?: string;
}

export interface SubTableSchema {
  key: string;
  title: string;
  /** Field of the master record holding the rows (array), or a list url returning them. */
  field?: string;
  listUrl?: string;
  /** Foreign-key field name on the child rows. */
  foreignKey?: string;
  /** The child entity's resource: rows are saved through it (edit mode) instead of with the master. */
  resource?: string;
  columns: Array<{ key: string; title: string; type?: string; dict?: string; required?: boolean; width?: number; options?: Array<{ label: string; value: string }> }>;
}

export interface FormSchema {
  columns?: 1 | 2 | 3;
  width?: number;
  container?: 'modal' | 'drawer';
  title?: string;
  fields?: FormFieldSchema[];
  /** Raw Formily JSON Schema (object); used instead of `fields` when given. */
  schema?: Record<string, unknown>;
  subTables?: SubTableSchema[];
  submitText?: string;
  /** Opens 新增 when the page URL has `?<param>=`: initial values from `GET url?<param>=…`, or `{ <param>: value }`. */
  prefill?: { param: string | string[]; url?: string };
}

export interface ActionSchema {
  key: string;
  label: string;
  /** add | edit | detail | delete | batchDelete | export | import | link | api | widget | superQuery | columns */
  type?: string;
  permission?: string;
  visible?: unknown;
  disabled?: unknown;
  icon?: string;
  primary?: boolean;
  danger?: boolean;
  url?: string;
  method?: 'get' | 'post' | 'put' | 'delete';
  confirm?: string;
  /** Row actions after the first `inline` go into the 更多 dropdown. */
  dropdown?: boolean;
  /** api: values sent instead of the row (`{field}` filled from the row; batch adds `ids`). */
  body?: Record<string, unknown>;
  /** add: initial values of the new record (`{field}` filled from the row, e.g. a row's 添加下级). */
  values?: Record<string, unknown>;
  /** widget: a registered widget shown in a drawer with `{ record, onClose, onDone, ...widgetProps }`. */
  widget?: string;
  widgetProps?: Record<string, unknown>;
  title?: string;
  width?: number;
}

export interface StatCard {
  title: string;
  value?: number | string;
  /** url returning a number (result) or an object and `path` within it */
  url?: string;
  path?: string;
  suffix?: string;
  span?: number;
}

export interface PageSchema {
  $schema?: string;
  kind: PageKind | (string & {});
  title: string;
  description?: string;
  /** list pages: a notice shown above the query form. */
  hint?: string;
  /** list pages: a registered widget shown above the table, after the first rows arrive; gets `{...widgetProps, query}` (the list's current query parameters). */
  header?: { widget: string; widgetProps?: Record<string, unknown> };
  /** detail/report/dashboard/result: a registered widget drawing the page body (gets `widgetProps` and `schema`). */
  widget?: string;
  widgetProps?: Record<string, unknown>;
  entity?: string;
  /** Base path of an entity resource (e.g. "/demo/customer"): fills the standard urls. */
  resource?: string;
  api?: ApiBinding;
  /** Prefix of the action permission codes ("demo:customer"). */
  permission?: string;
  rowKey?: string;
  columns?: ColumnSchema[];
  query?: { fields: QueryFieldSchema[]; visibleCount?: number };
  form?: FormSchema;
  actions?: { toolbar?: ActionSchema[]; row?: ActionSchema[]; batch?: ActionSchema[] };
  /** list: parameters of the page URL sent with every list call (e.g. a drill-down's `teacherId`). */
  urlParams?: string[];
  defaultSort?: { column: string; order: 'asc' | 'desc' };
  pageSize?: number;
  pageSizes?: number[];
  selection?: boolean;
  /** Static rows (demo pages without an API). */
  data?: Array<Record<string, unknown>>;
  /** tree-list */
  tree?: { parentField?: string; hasChildField?: string; root?: string };
  /** detail / result / dashboard / report */
  sections?: Array<{ title?: string; columns?: number; items: Array<{ label: string; field?: string; value?: unknown; dict?: string }> }>;
  status?: 'success' | 'error' | 'info' | 'warning' | '403' | '404' | '500';
  subTitle?: string;
  extra?: ActionSchema[];
  cards?: StatCard[];
  chart?: { type: 'bar' | 'line' | 'pie'; x: string; y: string; title?: string };
  /** Online form / report code (kind list/report with `online`). */
  online?: { form?: string; report?: string };
  exportName?: string;
}
