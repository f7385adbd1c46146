/**
 * The permission-filtered action pipeline (SPEC §6) as pure functions. Inputs are the session's
 * `auth` (the user's own codes), `allAuth` (every defined button code, with its mode `type` and
 * `status`) and optionally a form's own permission list (workflow-node permissions).
 *
 * Decision on the status "0" disagreement (docs/decisions.md): a defined code whose status is "0"
 * is an inactive rule, so it does not restrict — the action is allowed.
 */
import { accessOf, excludedUnder, type PermissionInput } from '@core/auth';

export { accessOf, can, excludedUnder, permittedUnder, type Access, type FormPermission, type PermissionInput } from '@core/auth';

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
