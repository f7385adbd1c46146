import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { validateValue, type ValidateRule } from '../logic/validation';

export interface JPromptProps {
  open: boolean;
  title?: string;
  label?: string;
  defaultValue?: string;
  placeholder?: string;
  rules?: ValidateRule[];
  onOk: (value: string) => void | Promise<void>;
  onCancel: () => void;
}

/** Prompt dialog whose input is validated with the supplied rules before OK. */
export function JPrompt({ open, title = '请输入', label, defaultValue = '', placeholder = '请输入', rules, onOk, onCancel }: JPromptProps) {
  const [value, setValue] = useState(defaultValue);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title={title}
      destroyOnHidden
      confirmLoading={busy}
      afterOpenChange={(o) => o && (setValue(defaultValue), setError(undefined))}
      onCancel={onCancel}
      onOk={async () => {
        const msg = await validateValue(value, rules, { title: label });
        setError(msg);
        if (msg) return;
        setBusy(true);
        try {
          await onOk(value);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form layout="vertical">
        <Form.Item label={label} validateStatus={error ? 'error' : undefined} help={error}>
          <Input
            autoFocus
            value={value}
            placeholder={placeholder}
            onChange={async (e) => {
              setValue(e.target.value);
              if (error) setError(await validateValue(e.target.value, rules, { title: label }));
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default JPrompt;
