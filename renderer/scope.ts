import { useMemo } from 'react';
import { useAtomValue } from 'jotai';
import dayjs from 'dayjs';
import { allAuthAtom, authAtom, dictAtom, userInfoAtom } from '@/session/store';
import type { PermissionInput } from './permissions';
import type { PageSchema, ApiBinding } from './types';
import type { Scope } from './expr';

/** The session part of the expression scope ($user, $perms, $dict, $now) and the permission input. */
export function useSessionScope(): { scope: Scope; perms: PermissionInput } {
  const user = useAtomValue(userInfoAtom);
  const auth = useAtomValue(authAtom);
  const allAuth = useAtomValue(allAuthAtom);
  const dict = useAtomValue(dictAtom);
  return useMemo(
    () => ({
      scope: {
        $user: user ?? {},
        $perms: auth.map((a) => a.action),
        $dict: dict,
        $now: dayjs().format('YYYY-MM-DD HH:mm:ss'),
      },
      perms: { auth, allAuth },
    }),
    [user, auth, allAuth, dict],
  );
}

/** The page's urls: explicit `api` entries win over those derived from `resource`. */
export function urlsOf(s: PageSchema): ApiBinding {
  const r = s.resource;
  const derived: ApiBinding = r
    ? {
        list: `${r}/list`,
        add: `${r}/add`,
        edit: `${r}/edit`,
        delete: `${r}/delete`,
        deleteBatch: `${r}/deleteBatch`,
        queryById: `${r}/queryById`,
        exportXls: `${r}/exportXls`,
        importExcel: `${r}/importExcel`,
      }
    : {};
  return { ...derived, ...s.api };
}
