import { Input } from 'antd';
import { tagsInput } from '../logic/inputs';

/** Tags input: semicolons stripped, one inserted after every 2 characters (SPEC §5). */
export function JInputTags({ value, onChange, placeholder = '请输入', disabled }: { value?: string; onChange?: (v: string) => void; placeholder?: string; disabled?: boolean }) {
  return <Input value={value ?? ''} placeholder={placeholder} disabled={disabled} onChange={(e) => onChange?.(tagsInput(e.target.value))} />;
}

export default JInputTags;
