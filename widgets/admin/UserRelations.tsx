import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { useForm } from '@formily/react';
import { http } from '@core/http/client';
import { JSelectDepart } from '../pickers/JSelectDepart';

interface Props {
  value?: string;
  onChange?: (v: string | undefined) => void;
  disabled?: boolean;
}

/** Loads a saved user's current relation ids (edit form) into the field once, when it has no value yet. */
function usePreload(url: string, param: string, pick: (r: any) => string, value: string | undefined, onChange: Props['onChange']) {
  const form = useForm();
  const userId = String((form.values as Record<string, unknown>).id ?? '');
  useEffect(() => {
    if (!userId || value !== undefined) return;
    let live = true;
    void http.get<unknown[]>(url, { [param]: userId }).then((r) => {
      if (live && r.success && Array.isArray(r.result)) onChange?.(r.result.map(pick).join(','));
    });
    return () => {
      live = false;
    };
    // Only once per user: later edits are the user's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);
}

/** 角色分配: multi-select of role ids over /sys/role/queryall (the user form's `selectedroles`). */
export function UserRoleSelect({ value, onChange, disabled }: Props) {
  const [roles, setRoles] = useState<Array<{ label: string; value: string }>>([]);
  usePreload('/sys/user/queryUserRole', 'userid', (r) => String(r), value, onChange);
  useEffect(() => {
    void http.get<Array<{ id: string; roleName: string }>>('/sys/role/queryall').then((r) => {
      if (r.success) setRoles((r.result ?? []).map((x) => ({ label: x.roleName, value: String(x.id) })));
    });
  }, []);
  const vals = value ? value.split(',').filter(Boolean) : [];
  return (
    <Select
      mode="multiple"
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="请选择角色"
      disabled={disabled}
      options={roles}
      value={vals}
      onChange={(v: string[]) => onChange?.(v.join(','))}
    />
  );
}

/** 所属部门: JSelectDepart (multi, ids) preloaded from /sys/user/userDepartList (the user form's `selecteddeparts`). */
export function UserDepartSelect({ value, onChange, disabled }: Props) {
  usePreload('/sys/user/userDepartList', 'userId', (r: { key: string }) => String(r.key), value, onChange);
  return <JSelectDepart multi value={value} onChange={(v) => onChange?.(v ?? '')} disabled={disabled} />;
}
