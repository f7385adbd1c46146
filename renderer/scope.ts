import { useMemo } from 'react';
import { useAtomValue } from 'jotai';
import dayjs from 'dayjs';
import { allAuthAtom, authAtom, dictAtom, userInfoAtom } from '@core/session/store';
import type { PermissionInput } from './permissions';
import type { Scope } from '@shared/expr';

export { urlsOf } from '@shared/urls';

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

