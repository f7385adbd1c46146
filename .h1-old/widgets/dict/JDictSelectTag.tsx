import { Checkbox, Radio, Select, Tag } from 'antd';
import { splitMulti, joinMulti } from '../logic/inputs';
import { useDictOptions, type DictOption } from './useDictOptions';

export interface JDictSelectTagProps {
  value?: string | number;
  onChange?: (v: string | undefined) => void;
  dictCode?: string;
  options?: DictOption[];
  /** select (default), radio, radioButton or checkbox (checkbox stores a comma-joined string). */
  type?: 'select' | 'radio' | 'radioButton' | 'checkbox';
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  style?: React.CSSProperties;
}

/** Dictionary select / radio / checkbox. */
export function JDictSelectTag({ value, onChange, dictCode, options, type = 'select', placeholder = '请选择', disabled, allowClear = true, style }: JDictSelectTagProps) {
  const { items, error } = useDictOptions(dictCode, options);
  if (error) return <span style={{ color: '#ff4d4f' }}>{error}</span>;
  const v = value === undefined || value === null ? undefined : String(value);
  if (type === 'radio' || type === 'radioButton') {
    const Item = type === 'radio' ? Radio : Radio.Button;
    return (
      <Radio.Group value={v} disabled={disabled} onChange={(e) => onChange?.(e.target.value as string)}>
        {items.map((d) => <Item key={d.value} value={d.value}>{d.text}</Item>)}
      </Radio.Group>
    );
  }
  if (type === 'checkbox')
    return <Checkbox.Group value={splitMulti(v)} disabled={disabled} options={items.map((d) => ({ value: d.value, label: d.text }))} onChange={(vals) => onChange?.(joinMulti(vals as string[]))} />;
  return (
    <Select
      value={v}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder}
      style={{ width: '100%', ...style }}
      options={items.map((d) => ({ value: d.value, label: d.text }))}
      onChange={(x) => onChange?.(x ?? undefined)}
    />
  );
}

/** Read-only dictionary tag(s) for a (comma-joined) value. */
export function JDictTag({ value, dictCode, options, color = 'blue' }: { value?: string; dictCode?: string; options?: DictOption[]; color?: string }) {
  const { items } = useDictOptions(dictCode, options);
  return (
    <>
      {splitMulti(value).map((v) => (
        <Tag key={v} color={color}>{items.find((d) => d.value === v)?.text ?? v}</Tag>
      ))}
    </>
  );
}

export default JDictSelectTag;
