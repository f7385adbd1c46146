import type { ComponentType } from 'react';
import type { NavigateFunction } from 'react-router-dom';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { ActionSchema, PageSchema } from '@shared/page-schema';

/*
 * The renderer's open registries. A page kind and an action type are each one file — renderer/kinds/<kind>.tsx,
 * renderer/actions/<type>.ts(x) — that registers itself here, with its part of the page meta-schema beside the
 * others (schemas/meta/kinds/<kind>.json, schemas/meta/actions/<type>.json). Adding one edits no switch:
 * renderer/index.ts imports every file of both folders (tests/unit/renderer-registry.test.ts checks that the
 * files, the registrations and the meta-schema parts are the same sets).
 */

export type Row = Record<string, unknown>;

/** What a page kind's component gets. */
export interface PageKindProps {
  pageId: string;
  schema: PageSchema;
  /**
   * Bound parameters (a region: a sub-list of a record, a tab): sent with every request the page makes
   * and given to new records; the page draws itself without its own card title.
   */
  params?: Record<string, unknown>;
  /** The record the page is a region of (its `{field}` placeholders are filled from it). */
  parent?: Row;
  embedded?: boolean;
}

const kinds = new Map<string, ComponentType<PageKindProps>>();

export function registerPageKind(name: string, component: ComponentType<PageKindProps>) {
  kinds.set(name, component);
}
export const pageKind = (name: string) => kinds.get(name);
export const pageKinds = () => [...kinds.keys()];

/** What an action handler can do: the services of the page (a list, a detail, a dashboard) that runs it. */
export interface ActionContext {
  pageId: string;
  schema: PageSchema;
  /** The row the action was started from (row actions), else undefined. */
  record?: Row;
  /** Selected row keys (toolbar and batch actions of a list). */
  selected: string[];
  rowKey: string;
  /** The page's bound parameters (see PageKindProps.params). */
  params: Record<string, unknown>;
  /** The current list request's parameters (filters, sort), for exports. */
  listParams: () => Record<string, unknown>;
  reload: () => void;
  message: MessageInstance;
  modal: ModalHookAPI;
  navigate: NavigateFunction;
  /** Opens the page's form (add / edit / detail) for a record. */
  openForm: (mode: 'add' | 'edit' | 'detail', record?: Row) => void;
  /** Shows a dialog drawn by the action (a small form, a picker, a tree): `render(close)` returns its content. */
  openDialog: (dialog: ActionDialog) => void;
  /** Deletes rows through the page's delete / deleteBatch urls (with the page's refresh rules). */
  remove: (ids: string[], batch: boolean) => Promise<void>;
}

export interface ActionDialog {
  /** modal or drawer around the content; bare: the content is its own dialog. */
  kind?: 'modal' | 'drawer' | 'bare';
  title: string;
  width?: number;
  render: (close: (changed?: boolean) => void) => React.ReactNode;
}

export type ActionHandler = (action: ActionSchema, ctx: ActionContext) => void | Promise<void>;

const actions = new Map<string, ActionHandler>();

export function registerAction(type: string, handler: ActionHandler) {
  actions.set(type, handler);
}
export const actionHandler = (type: string) => actions.get(type);
export const actionTypes = () => [...actions.keys()];

/** `{field}` placeholders of an action url, filled from the row (URI-encoded). */
export const fillUrl = (url: string, record?: Row) => url.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(record?.[k] ?? '')));
/** `{field}` placeholders of string values, filled from the row. */
export const fillValues = (values: Record<string, unknown>, record?: Row): Row =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/\{(\w+)\}/g, (_, f: string) => String(record?.[f] ?? '')) : v]));
