import { useEffect, useState } from 'react';
import { DatePicker, Radio, Space, Tree } from 'antd';
import type { Dayjs } from 'dayjs';
import { ListPickerModal, PickerField, type Row } from './ListPicker';
import { loadDepartTree } from './JSelectDepart';
import { splitMulti, userLabel } from '../logic/inputs';
import { JDictSelectTag } from '../dict/JDictSelectTag';
import { http } from '@core/http/client';

export const USER_BY_DEP_WIDTH = 1250;
export const USER_PICKER_WIDTH = 1200;
/** Role filter of the user picker by department (role codes of the seed); 教师 preselected. Sent as `roleCode`. */
export const USER_ROLES = [
  { value: 'teacher', label: '教师' },
  { value: 'leader', label: '部门领导' },
  { value: 'secretary', label: '部门秘书' },
  { value: 'deptadmin', label: '部门管理员' },
];

export interface JSelectUserProps {
  value?: string;
  onChange?: (v: string | undefined, texts?: string) => void;
  multi?: boolean;
  /** Stored field (default username) and shown field (default realname). */
  store?: string;
  text?: string;
  placeholder?: string;
  disabled?: boolean;
}

const userColumns = [
  { title: '用户账号', dataIndex: 'username', width: 140 },
  { title: '用户姓名', dataIndex: 'realname', width: 140 },
  { title: '性别', dataIndex: 'sex_dictText', width: 80, render: (v: unknown, r: Row) => String(v ?? (r.sex === 1 || r.sex === '1' ? '男' : r.sex === 2 || r.sex === '2' ? '女' : '')) },
  { title: '生日', dataIndex: 'birthday', width: 120 },
  { title: '部门', dataIndex: 'orgCodeTxt' },
];

/** The picked values and their texts; values not picked in this session (a saved record's) are looked up by username or id. */
function usePicked(value: string | undefined, store: string, textField: string) {
  const [known, setKnown] = useState<Row[]>([]);
  const vals = splitMulti(value);
  const unknown = vals.filter((v) => !known.some((k) => String(k[store]) === v)).join(',');
  useEffect(() => {
    if (!unknown || (store !== 'username' && store !== 'id')) return;
    let live = true;
    void http.get<Row[]>('/sys/user/getMultiUser', { [store]: unknown }).then((r) => {
      if (live && r.success && Array.isArray(r.result)) setKnown((prev) => [...prev, ...(r.result as Row[]).filter((x) => !prev.some((p) => p[store] === x[store]))]);
    });
    return () => {
      live = false;
    };
  }, [unknown, store]);
  const text = vals.map((v) => {
    const r = known.find((k) => String(k[store]) === v);
    return r ? String(r[textField] ?? v) : v;
  });
  return { vals, text, setKnown };
}

/** Plain user picker (1200 wide): stores username, shows realname. */
export function JSelectUser({ value, onChange, multi = true, store = 'username', text = 'realname', placeholder = '请选择用户', disabled }: JSelectUserProps) {
  const [open, setOpen] = useState(false);
  const p = usePicked(value, store, text);
  return (
    <>
      <PickerField text={p.text.join(',')} placeholder={placeholder} disabled={disabled} onOpen={() => setOpen(true)} onClear={() => onChange?.(undefined, '')} />
      <ListPickerModal
        open={open}
        title="选择用户"
        width={USER_PICKER_WIDTH}
        url="/sys/user/list"
        rowKey={store}
        multiple={multi}
        searchField="username"
        searchLabel="用户账号"
        params={{ column: 'createTime', order: 'desc' }}
        columns={userColumns}
        selectedKeys={p.vals}
        onCancel={() => setOpen(false)}
        onOk={(rows) => {
          p.setKnown(rows);
          onChange?.(rows.map((r) => String(r[store])).join(','), rows.map((r) => String(r[text] ?? '')).join(','));
          setOpen(false);
        }}
      />
    </>
  );
}

/** User picker by department (1250 wide): department tree, role filter (教师 preselected), sex and birthday filters. */
export function JSelectUserByDep({ value, onChange, multi = true, store = 'username', text = 'realname', placeholder = '请选择用户', disabled }: JSelectUserProps) {
  const [open, setOpen] = useState(false);
  const [depart, setDepart] = useState<string>();
  const [role, setRole] = useState('teacher');
  const [sex, setSex] = useState<string>();
  const [birthday, setBirthday] = useState<Dayjs | null>(null);
  const [tree, setTree] = useState<{ key: string; title: string; children?: unknown[] }[]>([]);
  const p = usePicked(value, store, text);
  useEffect(() => {
    if (!open) return;
    type N = { id: string; departName?: string; title?: string; children?: N[] | null };
    const map = (ns: N[]): { key: string; title: string; children?: unknown[] }[] => ns.map((n) => ({ key: n.id, title: n.departName ?? n.title ?? n.id, children: n.children ? map(n.children) : undefined }));
    void loadDepartTree().then((t) => setTree(map(t as N[]))).catch(() => setTree([]));
  }, [open]);
  return (
    <>
      <PickerField text={p.text.join(',')} tags={multi ? p.vals.map((v, i) => `${p.text[i]}`) : undefined} placeholder={placeholder} disabled={disabled} onOpen={() => setOpen(true)} onClear={() => onChange?.(undefined, '')} />
      <ListPickerModal
        open={open}
        title="选择用户"
        width={USER_BY_DEP_WIDTH}
        url="/sys/user/queryUserComponentDataWithRole"
        rowKey={store}
        multiple={multi}
        searchField="realname"
        searchLabel="用户姓名"
        params={{ departId: depart, roleCode: role, sex, birthday: birthday?.format('YYYY-MM-DD'), column: 'createTime', order: 'desc' }}
        columns={[...userColumns, { title: '显示', dataIndex: 'username', render: (_: unknown, r: Row) => userLabel(r as { realname?: string; username?: string }) }]}
        selectedKeys={p.vals}
        filters={
          <Space wrap>
            <Radio.Group value={role} onChange={(e) => setRole(e.target.value as string)} optionType="button" options={USER_ROLES} />
            <span style={{ width: 120, display: 'inline-block' }}>
              <JDictSelectTag dictCode="sex" value={sex} onChange={setSex} placeholder="性别" />
            </span>
            <DatePicker value={birthday} onChange={setBirthday} placeholder="生日" />
            <div style={{ maxHeight: 200, overflow: 'auto', minWidth: 200 }}>
              <Tree treeData={tree as never} selectedKeys={depart ? [depart] : []} onSelect={(k) => setDepart(k[0] ? String(k[0]) : undefined)} />
            </div>
          </Space>
        }
        onCancel={() => setOpen(false)}
        onOk={(rows) => {
          p.setKnown(rows);
          onChange?.(rows.map((r) => String(r[store])).join(','), rows.map((r) => String(r[text] ?? '')).join(','));
          setOpen(false);
        }}
      />
    </>
  );
}

export default JSelectUserByDep;
