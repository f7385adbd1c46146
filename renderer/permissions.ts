/**
 * The permission-filtered action pipeline (SPEC §6) as pure functions. Inputs are the session's
 * `auth` (the user's own codes), `allAuth` (every defined button code, with its mode `type` and
 * `status`) and optionally a form's own permission list (workflow-node permissions).
 *
 * Decision on the status "0" disagreement (docs/decisions.md): a defined code whose status is "0"
 * is an inactive rule, so it does not restrict — the action is allowed.
 */
import type { AuthEntry } from '@core/session/store';

export type Access = 'allow' | 'disable' | 'hide';

export interface FormPermission {
  action: string;
  type?: string;
  /** false = this node denies the action. */
  isAuth?: boolean;
}

export interface PermissionInput {
  auth: readonly AuthEntry[];
  allAuth: readonly AuthEntry[];
  formPerms?: readonly FormPermission[];
}

/** How a button with permission `code` is shown: allowed, disabled (disable-mode definitions) or removed. */
export function accessOf(code: string | undefined, p: PermissionInput): Access {
  if (!code) return 'allow';
  const node = p.formPerms?.find((f) => f.action === code);
  if (node) return node.isAuth === false ? (node.type === '2' ? 'disable' : 'hide') : 'allow';
  if (p.auth.some((a) => a.action === code)) return 'allow';
  const def = p.allAuth.find((a) => a.action === code);
  if (def && String(def.status) === '0') return 'allow';
  const mode: Access = def?.type === '2' ? 'disable' : 'hide';
  // SPEC §6 agreed point: a user without any disable-mode (type 2) grants is not restricted by
  // disable-mode definitions.
  if (mode === 'disable' && !p.auth.some((a) => a.type === '2')) return 'allow';
  return mode;
}

export const can = (code: string | undefined, p: PermissionInput) => accessOf(code, p) === 'allow';

/**
 * Codes under `prefix` ("demo:customer") the user may not use, without the prefix ("add",
 * "batch_delete"…) — the toolbar/editable-table exclusion list.
 */
export function excludedUnder(prefix: string | undefined, p: PermissionInput): string[] {
  if (!prefix) return [];
  const head = prefix.endsWith(':') ? prefix : `${prefix}:`;
  const out: string[] = [];
  for (const d of p.allAuth) {
    if (!d.action.startsWith(head)) continue;
    if (accessOf(d.action, p) !== 'allow') out.push(d.action.slice(head.length));
  }
  return out;
}

/** Codes under a prefix the user holds through type-1 (show-mode) entries, without the prefix. */
export function permittedUnder(prefix: string, p: PermissionInput): string[] {
  const head = prefix.endsWith(':') ? prefix : `${prefix}:`;
  return p.auth.filter((a) => a.type !== '2' && a.action.startsWith(head)).map((a) => a.action.slice(head.length));
}

export interface GuardedAction {
  key: string;
  permission?: string;
  /** Expression or boolean: shown only when true. */
  visible?: unknown;
  disabled?: unknown;
}

/**
 * Filters a list of actions: removed when denied (hide mode) or when the toolbar exclusion of
 * `add` / `batch_delete` applies; `disabled` set for disable-mode denials. `cond` evaluates the
 * action's own visible/disabled conditions.
 */
export function filterActions<A extends GuardedAction>(
  actions: readonly A[],
  p: PermissionInput,
  opts: { prefix?: string; cond?: (v: unknown) => boolean } = {},
): Array<A & { denied?: boolean }> {
  const excluded = new Set(excludedUnder(opts.prefix, p));
  const cond = opts.cond ?? ((v: unknown) => v === undefined || !!v);
  const out: Array<A & { denied?: boolean }> = [];
  for (const a of actions) {
    if ((a.key === 'add' && excluded.has('add')) || (a.key === 'batchDelete' && (excluded.has('batch_delete') || excluded.has('deleteBatch')))) continue;
    const access = accessOf(a.permission, p);
    if (access === 'hide') continue;
    if (a.visible !== undefined && !cond(a.visible)) continue;
    const denied = access === 'disable' || (a.disabled !== undefined && cond(a.disabled));
    out.push(denied ? { ...a, denied: true } : a);
  }
  return out;
}
