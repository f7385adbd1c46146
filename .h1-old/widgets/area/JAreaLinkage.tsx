import { useMemo } from 'react';
import { Alert, Cascader, Select, Space } from 'antd';
import { areaOptions, areaPath, checkAreaType, children } from '../logic/area';

export interface JAreaLinkageProps {
  /** The code of the last chosen level. */
  value?: string;
  onChange?: (v: string | undefined) => void;
  type?: 'cascader' | 'select' | string;
  placeholder?: string;
  disabled?: boolean;
}

/** Province/city/district linkage over the administrative-division data (root 86). */
export function JAreaLinkage({ value, onChange, type = 'cascader', placeholder = '请选择省市区', disabled }: JAreaLinkageProps) {
  const options = useMemo(() => (type === 'cascader' ? areaOptions() : []), [type]);
  try {
    checkAreaType(type);
  } catch (e) {
    return <Alert type="error" showIcon message={(e as Error).message} />;
  }
  const path = areaPath(value);
  if (type === 'cascader')
    return (
      <Cascader
        options={options}
        value={path}
        changeOnSelect
        showSearch
        disabled={disabled}
        placeholder={placeholder}
        style={{ width: '100%' }}
        onChange={(v) => onChange?.(v && v.length ? String(v[v.length - 1]) : undefined)}
      />
    );
  const levels = [children('86'), path[0] ? children(path[0]) : [], path[1] ? children(path[1]) : []];
  const names = ['省', '市', '区'];
  return (
    <Space.Compact style={{ width: '100%' }}>
      {levels.map((list, i) => (
        <Select
          key={i}
          allowClear
          disabled={disabled || (i > 0 && !path[i - 1])}
          placeholder={`请选择${names[i]}`}
          value={path[i]}
          style={{ width: '33.3%' }}
          options={list.map((n) => ({ value: n.id, label: n.text }))}
          onChange={(v?: string) => onChange?.(v ?? path[i - 1])}
        />
      ))}
    </Space.Compact>
  );
}

export default JAreaLinkage;
