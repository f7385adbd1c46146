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
  /** The default read once from a url (e.g. the current term, shown selected); a value in the page URL wins. */
  defaultFrom?: { url: string; path?: string };
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
  /** Shown, not edited (its value drawn as text); a server checking submitted values ignores it. */
  readOnly?: boolean;
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
  /** Titled sections of a form page, each with its own fields (and optionally its own part of the loaded record and its own save). */
  sections?: FormSectionSchema[];
  /** Opens 新增 when the page URL has `?<param>=`: initial values from `GET url?<param>=…`, or `{ <param>: value }`. */
  prefill?: { param: string | string[]; url?: string };
}

export interface ActionSchema extends FormActionProps, PickActionProps, TreeAssignActionProps, ImportPreviewActionProps {
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
  /** export: the downloaded file's name (default `<exportName ?? title>.xlsx`), e.g. a printable `.html` sheet. */
  fileName?: string;
  /** import: the file types offered and accepted (default ".xls,.xlsx"), e.g. ".docx". */
  accept?: string;
  // ---- composition (issue 26) ----
  /** page: the page schema drawn in a drawer for the row (a region; `title` may hold `{field}` placeholders). */
  page?: string;
  /** page: the region's bound parameters (`"{field}"` filled from the row). */
  params?: Record<string, unknown>;
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
  /** dashboard with a `widget` and no panels: the widget's first GET (`params` named are taken from the page's URL), answered with the page's route on a direct visit. */
  widgetLoad?: { url: string; params?: string[] };
  entity?: string;
  /** Base path of an entity resource (e.g. "/demo/customer"): fills the standard urls. */
  resource?: string;
  api?: ApiBinding;
  /** Prefix of the action permission codes ("demo:customer"). */
  permission?: string;
  rowKey?: string;
  /** list: `cards` draws one card per row on a phone (< 576 px) instead of the table. */
  phoneView?: 'table' | 'cards';
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
  chart?: { type: 'bar' | 'line' | 'pie'; x: string; y: string; title?: string };
  /** report: a stored report of 报表配置 by code; `":code"` = the last segment of the route path (online/ReportView). */
  storedReport?: string;
  /** Online form / report code (kind list/report with `online`). */
  online?: { form?: string; report?: string; preview?: boolean };
  exportName?: string;
  // ---- composition (issue 26) ----
  /** tabs: the tabs of the page. */
  tabs?: TabSchema[];
  /** list: a tree left of the list (above it on phones) whose selected node sets a list parameter. */
  aside?: AsideSchema;
  /** form pages (renderer/FormPage.tsx): the record to edit and where it is saved. */
  load?: FormLoadSchema;
  submit?: FormSubmitSchema;
  /** form pages: sections stacked, or as panels chosen from a side menu (the URL's last segment picks one). */
  layout?: 'stack' | 'nav';
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
  /** Fields of a log row (defaults: who, when, action, comment, attachments, note). `note`: a short remark after the time (e.g. a folded run of saves). */
  fields?: { who?: string; when?: string; action?: string; comment?: string; attachments?: string; status?: string; note?: string };
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

// ---- Dashboards and list polling (issue 26): renderer/kinds/dashboard.tsx, renderer/ListPage.tsx ----

export interface PageSchema {
  /** dashboard: page-level filters; their values go as parameters into every panel's request. */
  filters?: DashboardFilter[];
  /** dashboard: the panels, in a responsive grid. */
  panels?: DashboardPanel[];
  /** list: re-requests the current page every N seconds, quietly (no spinner; selection kept); paused while the tab is hidden. */
  poll?: number;
}

/** A dashboard filter: a query field, whose default may be read once from a url (e.g. the current term). */
export type DashboardFilter = QueryFieldSchema;

/** A value of a panel: a dot path in the panel's data (`field`), or a template (`value`, `{{ … }}` parts). */
export interface DashboardValue {
  field?: string;
  value?: string | number;
  format?: import('./format').DisplayFormat;
  precision?: number;
  /** Multiplies a number before it is formatted (e.g. 1000: seconds → the duration format's milliseconds). */
  scale?: number;
  suffix?: string;
  dict?: string;
  /** value → antd tag colour: the value shows as a tag. */
  colors?: Record<string, string>;
}

export interface DashboardItem extends DashboardValue {
  label: string;
  span?: number;
}

export interface DashboardColumn extends DashboardValue {
  /** Dot path in the row. */
  dataIndex: string;
  title: string;
  width?: number;
  align?: 'left' | 'center' | 'right';
  ellipsis?: boolean;
  /** A cell widget (widgets/registry.ts, e.g. "cell:tag") with `{ value, record, ...widgetProps }`. */
  widget?: string;
  widgetProps?: Record<string, unknown>;
}

export interface DashboardChart {
  type: 'bar' | 'line' | 'area' | 'pie' | 'gauge';
  /** Rows (an array): the category field of each row. */
  x?: string;
  /** Text of an empty category. */
  emptyX?: string;
  /** One series per field (rows: a column of each row; an object: one value, or a pie's slices). */
  series: Array<{ name: string; field: string; type?: 'bar' | 'line' | 'area'; color?: string; scale?: number }>;
  /** A named colour set (shared/rules.ts CHART_PALETTES, e.g. "grade") giving series without a `color` theirs by field. */
  palette?: string;
  horizontal?: boolean;
  stack?: boolean;
  /** Rolling history: each answer adds one sample (its time on the x axis); the last N are kept. */
  history?: number;
  unit?: string;
  /** gauge: the top of the scale (default 100). */
  max?: number;
  height?: number;
}

export interface DashboardPanel extends DashboardValue {
  type: 'stat' | 'descriptions' | 'chart' | 'table' | 'progress' | 'list' | 'widget' | 'profile';
  /** Names the panel (its `data-testid`). */
  key?: string;
  /** Template over `$data`, `$root`, `$user`, `$filters`. */
  title?: string;
  /** Text under the title (template). */
  description?: string;
  /** Grid columns (of 24) from the `lg` breakpoint on, or per breakpoint; phones: one column unless `xs` says otherwise. */
  span?: number | Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl', number>>;
  /** GET url of the data (page filters and `params` are sent); panels with the same url and params share one request. */
  url?: string;
  params?: Record<string, unknown>;
  /** Where the panel's data is in the answer (dot path). */
  path?: string;
  /** Re-requests every N seconds while the page is visible. */
  refresh?: number;
  /** Which page filters go with the request: false none (data independent of them), or their names (default all). */
  filters?: false | string[];
  /** Shown when true (expression over `$data`, `$root`, `$user`). */
  visible?: unknown;
  /** Drill-down: a link in the panel's corner (a stat: the whole card); shown when the user's menu has the path, or `always`. */
  link?: { url: string; label?: string; always?: boolean };
  emptyText?: string;
  // stat
  prefix?: string;
  /** stat: the value's colour (template). */
  color?: string;
  /** stat: a signed change shown with an arrow. */
  trend?: DashboardValue;
  // descriptions
  items?: DashboardItem[];
  column?: number;
  // chart
  chart?: DashboardChart;
  // table
  columns?: DashboardColumn[];
  rowKey?: string;
  pageSize?: number;
  /** table / list: where a row leads (`{field}` filled from the row). */
  rowLink?: string;
  // progress: `field`/`value` is a percentage (0–100; format percent: a ratio); over rows, one per row
  label?: string;
  caption?: string;
  progressType?: 'line' | 'circle' | 'dashboard';
  /** progress: at or above this percentage the bar shows as exceeded (red). */
  warn?: number;
  // list: rows (title / description / extra templates over `$row`), or static links
  links?: Array<{ label: string; url: string; description?: string; always?: boolean }>;
  extra?: string;
  // widget
  widget?: string;
  widgetProps?: Record<string, unknown>;
}

// ---- Forms and action types (issue 26: form pages; form / pick / treeAssign / importPreview actions) ----

/** GET `url` (`{field}` from the page's bound parameters and URL query); the record is the result, or `path` of it. */
export interface FormLoadSchema {
  url: string;
  path?: string;
}

/** Saves the form's values (merged over the loaded record with `merge`) to `url`. */
export interface FormSubmitSchema {
  url: string;
  method?: 'post' | 'put';
  /** Sent with the values (`{field}` filled from the loaded record and the bound parameters). */
  body?: Record<string, unknown>;
  /** Send the loaded record's other fields too (an edit endpoint that expects the whole row). */
  merge?: boolean;
  /** Message on success (default: the server's). */
  successMessage?: string;
  /** The signed-in user's name and avatar follow the saved result (own-profile forms). */
  refreshUser?: boolean;
}

export interface FormSectionSchema {
  /** Its panel's key (layout nav: the URL's last segment). */
  key?: string;
  title: string;
  description?: string;
  fields?: FormFieldSchema[];
  /** Raw Formily JSON Schema (object), instead of `fields` (the page's `form.schema`). */
  schema?: Record<string, unknown>;
  columns?: 1 | 2 | 3;
  /** The section's values are this part of the loaded record (and are saved alone). */
  path?: string;
  submit?: FormSubmitSchema;
  submitText?: string;
  /** Saves on every change (switches), without a button. */
  autoSubmit?: boolean;
  /** A registered widget drawing the section body (client-side settings and the like). */
  widget?: string;
  widgetProps?: Record<string, unknown>;
  /** Buttons running actions (a `form` action: 修改密码). */
  actions?: ActionSchema[];
  /** Test hook on the section's element. */
  testId?: string;
}

/** `form`: a small form in a dialog; the values with the row id (`idField`) and `body` are sent to `url`. */
export interface FormActionProps {
  fields?: FormFieldSchema[];
  /** Name of the row id in the body (default "id"); false: no id. */
  idField?: string | false;
  /** Text above the fields (`{field}` filled from the row). */
  description?: string;
  submitText?: string;
  /** The fields in a grid of this many columns on wide screens (`span` takes more); one on a phone. */
  formColumns?: 1 | 2 | 3;
  /** GET `{ fields, values, title? }` (`{field}` from the row): those fields are drawn before `fields`, filled with `values`. */
  fieldsFrom?: string;
  /** The loaded fields' (editable) values are sent under this key; without it they are only shown. */
  fieldsKey?: string;
}

/** The answer of a `form` action's `fieldsFrom`. */
export interface LoadedFields {
  fields: FormFieldSchema[];
  values?: Record<string, unknown>;
  title?: string;
}

/** `pick`: pick rows from a list (a page schema's, or `listUrl` + `columns`), post their ids with the parent's. */
export interface PickActionProps {
  page?: string;
  listUrl?: string;
  columns?: ColumnSchema[];
  /** Query parameters of the picker's list. */
  listParams?: Record<string, unknown>;
  searchField?: string;
  searchLabel?: string;
  multiple?: boolean;
  /** The picked rows' key (default "id"). */
  pickKey?: string;
}

/** `treeAssign`: a checkable tree (or list) of `treeUrl`, checked keys of `checkedUrl`, saved to `saveUrl` with `body`. */
export interface TreeAssignActionProps {
  treeUrl?: string;
  /** Path of the nodes in the result (default: the result, or its `treeList`). */
  treePath?: string;
  /** Node key field (default "key") and title template (default "{title}"). */
  treeKey?: string;
  treeTitle?: string;
  checkedUrl?: string;
  /** Path of the checked keys in that result: an array of keys, of objects (`checkedField`), or comma text. */
  checkedPath?: string;
  checkedField?: string;
  saveUrl?: string;
  /** Parent and child checks follow each other (default true; a toggle in the dialog). */
  linked?: boolean;
  /** A choice made first (e.g. the menu whose data rules are assigned): options from a tree, filtered by a truthy field. */
  scope?: { label: string; url: string; path?: string; key?: string; title?: string; filter?: string; param: string; placeholder?: string };
  /** Buttons: save and close (default), or also 仅保存. */
  saveAndStay?: boolean;
  emptyText?: string;
  hint?: string;
  container?: 'drawer' | 'modal';
}

/** `importPreview`: files to `preview` (nothing written), its summary and rows, then the same files to `commit`. */
export interface ImportPreviewActionProps {
  preview?: string;
  commit?: string;
  accept?: string;
  fileField?: string;
  hint?: string;
  summary?: Array<{ label: string; value: string }>;
  rowsPath?: string;
  rowsTitle?: string;
  /** A row's error text (such rows are highlighted). */
  errorField?: string;
}

// ---- Hand-written screens as schemas (issue 26): an inline tree assignment section ----

export interface SectionSchema {
  /** A checkable tree assignment drawn in the section (the `treeAssign` action's properties; `{field}` from the record), saved by its own 保存. */
  treeAssign?: TreeAssignActionProps & { body?: Record<string, unknown>; submitText?: string; method?: 'post' | 'put' };
}

// ---- Dashboards: a profile card, list values as tags, a list row's tag (issue 26, 个人中心) ----

export interface DashboardValue {
  /** The value is a list: one tag per element — the element's field at this dot path ("" = the element itself). */
  tags?: string;
  /** tags: each tag's colour, a template over `$row` (the element). */
  tagColor?: string;
}

export interface DashboardPanel {
  /** profile: dot path of a stored image (the avatar); `label` / `caption` are the name and the line under it, `items` the descriptions. */
  avatar?: string;
  /** list: a value of each row shown as its tag (field / value template over `$row`, dict, colors). */
  tag?: DashboardValue;
}

// ---- The observation loop at the desk (issue 30): per-mode form titles, extra submit buttons, a table section ----

/** A second (third…) submit button of a list page's add/edit form, beside the form's own. */
export interface FormSubmitAction {
  key: string;
  label: string;
  primary?: boolean;
  danger?: boolean;
  /** Values set in the form while this button validates and saves (field validators see them), e.g. `{ "status": "SUBMITTED" }`. */
  values?: Record<string, unknown>;
  /** Post the form here instead of the page's add/edit url (`{field}` from the record and the values). */
  url?: string;
  /** Asked before saving. */
  confirm?: string;
  /** Only in these modes (default: add and edit). */
  modes?: Array<'add' | 'edit'>;
}

export interface FormSchema {
  /** The dialog's title per mode, naming the thing (新增听课记录 / 编辑听课记录); else `title`, else 新增 / 编辑 / 详情. */
  titles?: Partial<Record<'add' | 'edit' | 'detail', string>>;
  /** More submit buttons after the form's own (`submitText`, default 确定). */
  submitActions?: FormSubmitAction[];
}

/** A section's table of an array field of the record (e.g. a record's scores by index). */
export interface TableSectionSchema {
  field: string;
  columns: Array<{ dataIndex: string; title: string; width?: number; align?: 'left' | 'center' | 'right'; dict?: string; format?: DisplayFormat; precision?: number }>;
  /** A column whose consecutive equal values are merged into one cell (a group, e.g. the first-level index). */
  groupBy?: string;
  /** A last row: a label in the first column and values of record fields under columns (`{ "score": "totalScore" }`). */
  summary?: { label: string; fields: Record<string, string> };
}

export interface SectionSchema {
  table?: TableSectionSchema;
}
