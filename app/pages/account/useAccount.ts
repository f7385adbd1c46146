import { useCallback, useEffect, useState } from 'react';
import { http } from '@core/http/client';
import type { UserInfo } from '@core/session/store';

export interface AccountData {
  userInfo: UserInfo & Record<string, unknown>;
  departs: Array<{ id: string; departName: string; orgCode: string }>;
  roles: Array<{ roleName: string; roleCode: string }>;
  positions: string[];
  notices: Array<{ id: string; titile: string; sendTime: string; readFlag: string }>;
  records: Array<Record<string, unknown>>;
  notify: Record<'system' | 'todo' | 'message', boolean>;
}

/** The signed-in user's own profile (GET /sys/user/login/setting/getUserData); `reload` after a change. */
export function useAccount() {
  const [data, setData] = useState<AccountData | null>(null);
  const [error, setError] = useState<string>();
  const reload = useCallback(async () => {
    const r = await http.get<AccountData>('/sys/user/login/setting/getUserData');
    if (r.success) setData(r.result);
    else setError(r.message);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}
