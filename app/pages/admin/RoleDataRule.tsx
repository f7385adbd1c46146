import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Checkbox, Empty, Select, Space, Spin } from 'antd';
import { http } from '@core/http/client';

type Row = Record<string, unknown>;
interface PermNode {
  key: string;
  title: string;
  ruleFlag?: number;
  children?: PermNode[];
}
interface RuleRow {
  id: string;
  ruleName: string;
  ruleColumn?: string;
  ruleConditions?: string;
  ruleValue?: string;
}

const withRules = (nodes: PermNode[], path: string[] = []): Array<{ value: string; label: string }> =>
  nodes.flatMap((n) => [
    ...(Number(n.ruleFlag) === 1 ? [{ value: n.key, label: [...path, n.title].join(' / ') }] : []),
    ...withRules(n.children ?? [], [...path, n.title]),
  ]);

/** Where one kind of role keeps its data rules: a role's, or a department role's (within its department's menus). */
export interface DataRuleUrls {
  /** The authorisation tree (menus with `ruleFlag`). */
  tree: string;
  treeParams?: Record<string, string>;
  /** GET: the menu's rules and the ticked ones (`{ datarule, drChecked }`). */
  rules: (permissionId: string) => string;
  /** POST `{ ...saveBody, permissionId, dataRuleIds }`. */
  save: string;
  saveBody: Record<string, string>;
}

/** 数据规则 of a role (part of 授权): per menu with data rules, which rules apply to the role's users. */
export function RoleDataRule({ record, onDone }: { record?: Row; onDone?: () => void }) {
  const roleId = String(record?.id ?? '');
  const urls = useMemo<DataRuleUrls>(
    () => ({ tree: '/sys/role/queryTreeList', rules: (p) => `/sys/role/datarule/${encodeURIComponent(p)}/${encodeURIComponent(roleId)}`, save: '/sys/role/datarule', saveBody: { roleId } }),
    [roleId],
  );
  return <DataRuleAssign urls={urls} onDone={onDone} />;
}

/** Picks a menu that has data rules, then the rules that apply to one role's users of it. */
export function DataRuleAssign({ urls, onDone }: { urls: DataRuleUrls; onDone?: () => void }) {
  const { message } = App.useApp();
  const [menus, setMenus] = useState<Array<{ value: string; label: string }> | null>(null);
  const [permissionId, setPermissionId] = useState<string>();
  const [rules, setRules] = useState<RuleRow[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [note, setNote] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void http.get<{ treeList: PermNode[] }>(urls.tree, urls.treeParams).then((r) => {
      if (!r.success) message.warning(r.message);
      setMenus(withRules(r.result?.treeList ?? []));
    });
  }, [urls, message]);
  useEffect(() => {
    if (!permissionId) return;
    let live = true;
    setRules(null);
    setNote(undefined);
    void http.get<{ datarule: RuleRow[]; drChecked: string }>(urls.rules(permissionId)).then((r) => {
      if (!live) return;
      if (!r.success) {
        setRules([]);
        setNote(r.message);
        return;
      }
      setRules(r.result?.datarule ?? []);
      setChecked(String(r.result?.drChecked ?? '').split(',').filter(Boolean));
    });
    return () => {
      live = false;
    };
  }, [permissionId, urls]);

  const options = useMemo(
    () => (rules ?? []).map((r) => ({ value: r.id, label: `${r.ruleName}（${r.ruleColumn ?? ''} ${r.ruleConditions ?? ''} ${r.ruleValue ?? ''}）` })),
    [rules],
  );
  const save = async () => {
    setSaving(true);
    try {
      const r = await http.post(urls.save, { ...urls.saveBody, permissionId, dataRuleIds: checked.join(',') });
      if (r.success) {
        message.success(r.message || '数据规则保存成功！');
        onDone?.();
      } else message.warning(r.message);
    } finally {
      setSaving(false);
    }
  };

  if (!menus) return <Spin />;
  return (
    <div data-testid="role-data-rule">
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="先在「授权」中勾选菜单，再为该菜单选择数据规则；规则限制该角色用户在列表和导出中能看到的数据。" />
      <Select
        style={{ width: '100%', marginBottom: 16 }}
        placeholder="请选择有数据规则的菜单"
        aria-label="菜单"
        options={menus}
        value={permissionId}
        onChange={setPermissionId}
        showSearch
        optionFilterProp="label"
      />
      {permissionId &&
        (!rules ? (
          <Spin />
        ) : note ? (
          <Empty description={note} />
        ) : (
          <>
            <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }} options={options} value={checked} onChange={(v) => setChecked(v.map(String))} />
            <Space style={{ marginTop: 16 }}>
              <Button type="primary" loading={saving} onClick={() => void save()}>
                保存
              </Button>
            </Space>
          </>
        ))}
    </div>
  );
}
