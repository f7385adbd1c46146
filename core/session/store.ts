import { atomWithStorage } from 'jotai/utils';
import { atom } from 'jotai';
import { jsonStorage } from './storage';

/**
 * Session state (SPEC §4): token, user info and dictionaries are kept 7 days in localStorage
 * under the SPEC §9 keys; `auth`/`allAuth` from getUserPermissionByToken live in sessionStorage.
 */
export const SESSION_TTL_MS = 604_800_000;

interface Stamped<T> {
  value: T;
  expire: number;
}

/** localStorage with the 7-day expiry of SPEC §9: an expired entry reads as the initial value. */
function expiringStorage<T>() {
  const base = jsonStorage<Stamped<T> | null>(() => localStorage);
  return {
    getItem: (key: string, initial: T): T => {
      const v = base.getItem(key, null) as Stamped<T> | null;
      return v && typeof v === 'object' && 'expire' in v && v.expire > Date.now() ? v.value : initial;
    },
    setItem: (key: string, value: T) => {
      if (value === null || value === undefined || value === '') base.removeItem(key);
      else base.setItem(key, { value, expire: Date.now() + SESSION_TTL_MS });
    },
    removeItem: (key: string) => base.removeItem(key),
  };
}

export interface UserInfo {
  id: string;
  username: string;
  realname: string;
  avatar?: string;
  orgCode?: string;
  orgCodeTxt?: string;
  [k: string]: unknown;
}

export interface AuthEntry {
  action: string;
  type: string;
  describe?: string;
  status?: string;
}

export type DictItems = Record<string, Array<{ value: string; text: string; title?: string; label?: string }>>;

export const tokenAtom = atomWithStorage<string>('Access-Token', '', expiringStorage<string>(), { getOnInit: true });
export const tenantAtom = atomWithStorage<number>('TENANT_ID', 0, expiringStorage<number>(), { getOnInit: true });
export const userInfoAtom = atomWithStorage<UserInfo | null>('Login_Userinfo', null, expiringStorage<UserInfo | null>(), { getOnInit: true });
export const dictAtom = atomWithStorage<DictItems>('UI_CACHE_DB_DICT_DATA', {}, expiringStorage<DictItems>(), { getOnInit: true });

const session = jsonStorage<AuthEntry[]>(() => sessionStorage);
/** The user's own buttons (`auth`) and every defined button (`allAuth`). */
export const authAtom = atomWithStorage<AuthEntry[]>('LOGIN_USER_BUTTON_AUTH', [], session, { getOnInit: true });
export const allAuthAtom = atomWithStorage<AuthEntry[]>('SYS_BUTTON_AUTH', [], session, { getOnInit: true });

/** The menu tree from getUserPermissionByToken (not persisted: reloaded by the route guard). */
export const menuAtom = atom<MenuNode[] | null>(null);

export interface MenuNode {
  id: string;
  path: string;
  name: string;
  component?: string;
  route?: string;
  hidden?: boolean;
  alwaysShow?: boolean;
  redirect?: string;
  children?: MenuNode[];
  meta: {
    title: string;
    icon?: string;
    keepAlive?: boolean;
    internalOrExternal?: boolean;
    componentName?: string;
    url?: string;
    permissionList?: AuthEntry[];
  };
}
