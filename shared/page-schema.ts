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
  /** form pages (renderer/FormPage.tsx): the record to edit and where it is saved. */
  load?: FormLoadSchema;
  submit?: FormSubmitSchema;
  /** form pages: sections stacked, or as panels chosen from a side menu (the URL's last segment picks one). */
  layout?: 'stack' | 'nav';
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
