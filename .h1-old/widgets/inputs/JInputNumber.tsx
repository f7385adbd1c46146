import { useEffect, useState } from 'react';
import { Input } from 'antd';
import { numberBlur, numberTyping } from '../logic/inputs';

export interface JInputNumberProps {
  value?: number | string | null;
  onChange?: (v: number | '') => void;
  placeholder?: string;
  disabled?: boolean;
  style?: React.CSSProperties;
}

/** Number input: optional minus, digits and one decimal point; other input is reverted; on blur a float or blank. */
export function JInputNumber({ value, onChange, placeholder = '请输入', disabled, style }: JInputNumberProps) {
  const [text, setText] = useState(value === undefined || value === null ? '' : String(value));
  useEffect(() => setText(value === undefined || value === null ? '' : String(value)), [value]);
  return (
    <Input
      value={text}
      inputMode="decimal"
      placeholder={placeholder}
      disabled={disabled}
      style={style}
      onChange={(e) => setText((prev) => numberTyping(e.target.value, prev))}
      onBlur={() => {
        const v = numberBlur(text);
        setText(String(v));
        onChange?.(v);
      }}
    />
  );
}

export default JInputNumber;
