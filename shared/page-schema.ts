/** Page schema types (meta-schema: schemas/meta/page.schema.json; guide: docs/page-schema.md). */
import type { DisplayFormat } from './format';

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
  // ---- composition (issue 26) ----
  /** page: the page schema drawn in a drawer for the row (a region; `title` may hold `{field}` placeholders). */
  page?: string;
  /** page: the region's bound parameters (`"{field}"` filled from the row). */
  params?: Record<string, unknown>;
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
  /** detail / result / dashboard / report; tabs: a tab's sections */
  sections?: SectionSchema[];
  status?: 'success' | 'error' | 'info' | 'warning' | '403' | '404' | '500';
  subTitle?: string;
  extra?: ActionSchema[];
  cards?: StatCard[];
  chart?: { type: 'bar' | 'line' | 'pie'; x: string; y: string; title?: string };
  /** Online form / report code (kind list/report with `online`). */
  online?: { form?: string; report?: string };
  exportName?: string;
  // ---- composition (issue 26) ----
  /** tabs: the tabs of the page. */
  tabs?: TabSchema[];
  /** list: a tree left of the list (above it on phones) whose selected node sets a list parameter. */
  aside?: AsideSchema;
}

// ---- Composition (issue 26): regions, tabs, detail sections, timeline, aside tree ----

/** A region: another page schema drawn inside this one, with parameters bound from the parent record. */
export interface RegionSchema {
  /** Page id (schemas/pages/<id>.json). */
  page: string;
  /** Sent with every request of the region's page and given to its new records; `"{field}"` is filled from the parent record. */
  params?: Record<string, unknown>;
}

/** A field of a description section. */
export interface DisplayItem {
  label: string;
  field?: string;
  value?: unknown;
  /** Dictionary code: `<field>_dictText`, else the dictionary text (and, with format tag, its colour). */
  dict?: string;
  /** date | datetime | number | percent (a ratio: 0.25 → 25%) | bytes | duration (ms) | money | tag | files. */
  format?: DisplayFormat | 'tag' | 'files';
  /** number / percent / money decimals. */
  precision?: number;
  /** Text after the value (e.g. "%"). */
  suffix?: string;
  /** tag: value → antd tag colour (else the dictionary item's colour). */
  colors?: Record<string, string>;
  /** files: the record field that maps a stored path to the name it was uploaded with. */
  fileNames?: string;
  /** Columns the item spans. */
  span?: number;
}

/** A log of the record as a timeline: rows of a record field, or of a url (`params` filled from the record). */
export interface TimelineSchema {
  field?: string;
  url?: string;
  params?: Record<string, unknown>;
  /** Fields of a log row (defaults: who, when, action, comment, attachments). */
  fields?: { who?: string; when?: string; action?: string; comment?: string; attachments?: string; status?: string };
  /** Dictionaries of the action and status texts (the status shows as a coloured tag). */
  actionDict?: string;
  statusDict?: string;
  /** The record field that maps a stored attachment path to its uploaded name. */
  fileNames?: string;
  /** Newest first (default: as listed). */
  reverse?: boolean;
}

/** A section of a detail page (or a tab): descriptions, a bound region, or a timeline. */
export interface SectionSchema {
  title?: string;
  /** Description columns on a wide screen (1–4; phones show 1). */
  columns?: number;
  items?: DisplayItem[];
  region?: RegionSchema;
  timeline?: TimelineSchema;
}

/** A tab: a page (a region with bound parameters) or sections of the record. */
export interface TabSchema {
  key?: string;
  label: string;
  page?: string;
  params?: Record<string, unknown>;
  sections?: SectionSchema[];
}

/** list: a tree filter beside the list. */
export interface AsideSchema {
  tree: {
    /** GET url answering a nested list of nodes (or `{ records }`). */
    url: string;
    titleField?: string;
    keyField?: string;
    childrenField?: string;
    /** The list parameter set to the selected node's key. */
    param: string;
    title?: string;
    searchable?: boolean;
  };
}
