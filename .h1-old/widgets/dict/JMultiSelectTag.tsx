import { Checkbox, Select } from 'antd';
import { joinMulti, MULTI_SEPARATOR, splitMulti } from '../logic/inputs';
import { useDictOptions, type DictOption } from './useDictOptions';

export interface JMultiSelectTagProps {
  value?: string;
  onChange?: (v: string) => void;
  dictCode?: string;
  options?: DictOption[];
  type?: 'select' | 'checkbox';
  /** Separator of the stored string (default comma). */
  separator?: string;
  placeholder?: string;
  disabled?: boolean;
  /** Tags shown before "+N" (cells show 1). */
  maxTagCount?: number;
}

/** Multi-select stored as a separator-joined string. */
export function JMultiSelectTag({ value, onChange, dictCode, options, type = 'select', separator = MULTI_SEPARATOR, placeholder = '请选择', disabled, maxTagCount }: JMultiSelectTagProps) {
  const { items, error } = useDictOptions(dictCode, options);
  if (error) return <span style={{ color: '#ff4d4f' }}>{error}</span>;
  const selected = splitMulti(value, separator);
  const emit = (vals: unknown[]) => onChange?.(joinMulti(vals as string[], separator));
  if (type === 'checkbox') return <Checkbox.Group value={selected} disabled={disabled} options={items.map((d) => ({ value: d.value, label: d.text }))} onChange={emit} />;
  return (
    <Select
      mode="multiple"
      value={selected}
      disabled={disabled}
      placeholder={placeholder}
      maxTagCount={maxTagCount}
      style={{ width: '100%' }}
      options={items.map((d) => ({ value: d.value, label: d.text }))}
      onChange={emit}
    />
  );
}

export default JMultiSelectTag;
