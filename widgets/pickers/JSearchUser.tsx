import { http } from '@core/http/client';
import { ASYNC_PAGE_SIZE, JSearchSelectTag } from '../dict/JSearchSelectTag';
import type { DictOption } from '../dict/useDictOptions';

interface PickedUser {
  id: string;
  username: string;
  realname: string;
  workNo?: string | null;
}

/** Active users whose name, account or 工号 contains the keyword (or whose id it is), named with their 工号 so namesakes differ. */
export async function searchUsers(keyword: string): Promise<DictOption[]> {
  const r = await http.get<{ records: PickedUser[] }>('/sys/user/queryUserComponentDataWithRole', { keyword, pageSize: ASYNC_PAGE_SIZE, column: 'workNo', order: 'asc' });
  return r.success && r.result ? r.result.records.map((u) => ({ value: u.id, text: `${u.realname}（${u.workNo || u.username}）` })) : [];
}

export interface JSearchUserProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  placeholder?: string;
  disabled?: boolean;
}

/** One user, stored by id, searched by name, account or 工号 (the search select of a responsible person). */
export function JSearchUser({ placeholder = '输入姓名或工号搜索', ...rest }: JSearchUserProps) {
  return <JSearchSelectTag {...rest} placeholder={placeholder} fetchOptions={searchUsers} />;
}

export default JSearchUser;
