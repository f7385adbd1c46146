import { getDefaultStore } from 'jotai';
import { http, type Envelope } from '@core/http/client';
import { acceptLogin, logout, type LoginResult } from '@core/session/actions';
import { allAuthAtom, authAtom, tokenAtom, userInfoAtom, type AuthEntry, type UserInfo } from '@core/session/store';

/**
 * The auth facade: sign-in, sign-out, whether there is a session, who the user is, what they hold and
 * what they may do — one place for the shell, the renderer and widgets. The permission decisions are the
 * permission-filtered action pipeline of SPEC §6 as pure functions over the session's `auth` (the user's
 * own codes) and `allAuth` (every defined button code with its mode `type` and `status`).
 *
 * Decision on the status "0" disagreement (docs/decisions.md): a defined code whose status is "0"
 * is an inactive rule, so it does not restrict — the action is allowed.
 */

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


const store = () => getDefaultStore();

export const auth = {
  /** Account sign-in (POST /sys/login). The answer becomes the session through `accept` (after the tenant / department choice). */
  login(body: { username: string; password: string; captcha?: string; checkKey?: string; remember_me?: boolean }): Promise<Envelope<LoginResult & { needCaptcha?: boolean }>> {
    return http.post<LoginResult & { needCaptcha?: boolean }>('/sys/login', body);
  },
  /** Phone sign-in with an SMS code (POST /sys/phoneLogin). */
  phoneLogin(mobile: string, captcha: string): Promise<Envelope<LoginResult>> {
    return http.post<LoginResult>('/sys/phoneLogin', { mobile, captcha });
  },
  /** A sign-in answer (with the chosen tenant) becomes the session. */
  accept: acceptLogin,
  logout,
  /** Whether there is a session (a token); the server decides whether it is still valid. */
  check: (): boolean => !!store().get(tokenAtom),
  identity: (): UserInfo | null => store().get(userInfoAtom),
  permissions: (): PermissionInput => ({ auth: store().get(authAtom) as AuthEntry[], allAuth: store().get(allAuthAtom) as AuthEntry[] }),
  can: (code: string | undefined): boolean => can(code, auth.permissions()),
};
