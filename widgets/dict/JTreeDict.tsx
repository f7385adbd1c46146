import { useEffect, useState } from 'react';
import { Alert, TreeSelect } from 'antd';
import { http } from '@core/http/client';
import { parseCondition } from '../logic/inputs';

interface Node {
  key: string;
  value: string;
  title: string;
  isLeaf?: boolean;
  pId?: string;
  id?: string;
}

interface Remote {
  key?: string;
  value?: string;
  code?: string;
  title?: string;
  label?: string;
  name?: string;
  leaf?: boolean;
  isLeaf?: boolean;
}

/** The tree select both widgets draw: flat nodes, children loaded on expand, a comma-joined value when multiple. */
function LazyTreeSelect(props: {
  nodes: Node[];
  value?: string;
  onChange?: (v: string | undefined) => void;
  multiple?: boolean;
  disabled?: boolean;
  placeholder?: string;
  loadChildren: (pid: string) => Promise<void>;
}) {
  const { nodes, value, onChange, multiple, disabled, placeholder, loadChildren } = props;
  return (
    <TreeSelect
      treeDataSimpleMode
      treeData={nodes}
      value={multiple ? (value ? value.split(',') : []) : value || undefined}
      multiple={multiple}
      disabled={disabled}
      allowClear
      placeholder={placeholder}
      style={{ width: '100%' }}
      listHeight={400}
      loadData={(n) => loadChildren(String(n.value))}
      onChange={(v: string | string[] | undefined) => onChange?.(Array.isArray(v) ? v.join(',') : (v ?? undefined))}
    />
  );
}

const toNode = (r: Remote, pid: string): Node => {
  const key = String(r.key ?? r.value ?? r.code);
  return { id: key, pId: pid, key, value: key, title: String(r.title ?? r.label ?? r.name ?? key), isLeaf: r.isLeaf ?? r.leaf ?? false };
};

export interface JTreeDictProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  /** Table dictionary: tableName, text and code columns, parent-id column, has-child column. */
  dict?: string;
  pidField?: string;
  pidValue?: string;
  hasChildField?: string;
  /** JSON object (or its string) of extra equal conditions. */
  condition?: string | Record<string, unknown>;
  multiple?: boolean;
  placeholder?: string;
  disabled?: boolean;
}

/** Lazy tree select over /sys/dict/loadTreeData. */
export function JTreeDict({ value, onChange, dict = '', pidField = 'pid', pidValue = '', hasChildField, condition, multiple, placeholder = '请选择', disabled }: JTreeDictProps) {
  const [nodes, setNodes] = useState<Node[]>([]);
  let cond: Record<string, unknown> | undefined;
  let condError: string | undefined;
  try {
    cond = parseCondition(condition);
  } catch (e) {
    condError = (e as Error).message;
  }
  const [tableName, text, code] = dict.split(',');
  const load = async (pid: string) => {
    const r = await http.signedGet<Remote[]>('/sys/dict/loadTreeData', { pid, pidField, tableName, text, code, hasChildField, converIsLeafVal: 1, condition: cond ? JSON.stringify(cond) : '' });
    const list = r.success && Array.isArray(r.result) ? r.result.map((x) => toNode(x, pid)) : [];
    setNodes((prev) => [...prev.filter((n) => !list.some((l) => l.key === n.key)), ...list]);
  };
  useEffect(() => {
    if (!condError) void load(pidValue);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dict, pidValue, JSON.stringify(cond)]);
  if (condError) return <Alert type="error" showIcon message={condError} />;
  return (
    <LazyTreeSelect nodes={nodes} value={value} onChange={onChange} multiple={multiple} disabled={disabled} placeholder={placeholder} loadChildren={load} />
  );
}

export interface JCategorySelectProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  /** Root category code. */
  pcode?: string;
  condition?: string | Record<string, unknown>;
  multiple?: boolean;
  placeholder?: string;
  disabled?: boolean;
}

/** Category tree select (lazy: loadTreeRoot then loadTreeChildren). */
export function JCategorySelect({ value, onChange, pcode = '', condition, multiple, placeholder = '请选择', disabled }: JCategorySelectProps) {
  const [nodes, setNodes] = useState<Node[]>([]);
  let condError: string | undefined;
  let cond: Record<string, unknown> | undefined;
  try {
    cond = parseCondition(condition);
  } catch (e) {
    condError = (e as Error).message;
  }
  const add = (list: Node[]) => setNodes((prev) => [...prev.filter((n) => !list.some((l) => l.key === n.key)), ...list]);
  useEffect(() => {
    if (condError) return;
    void http.get<Remote[]>('/sys/category/loadTreeRoot', { async: true, pcode, condition: cond ? JSON.stringify(cond) : undefined }).then((r) => {
      if (r.success && Array.isArray(r.result)) add(r.result.map((x) => toNode(x, '')));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pcode, condError]);
  if (condError) return <Alert type="error" showIcon message={condError} />;
  return (
    <LazyTreeSelect
      nodes={nodes}
      value={value}
      onChange={onChange}
      multiple={multiple}
      disabled={disabled}
      placeholder={placeholder}
      loadChildren={async (pid) => {
        const r = await http.get<Remote[]>('/sys/category/loadTreeChildren', { pid });
        if (r.success && Array.isArray(r.result)) add(r.result.map((x) => toNode(x, pid)));
      }}
    />
  );
}

export default JTreeDict;
