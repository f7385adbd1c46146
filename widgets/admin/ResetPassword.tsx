import { useState } from 'react';
import { App, Button, Form, Input } from 'antd';
import { http } from '@core/http/client';

export interface ResetPasswordProps {
  record?: { username?: string };
  onClose?: () => void;
  onDone?: () => void;
}

/** 修改密码 of another user (admin): /sys/user/changePassword; the server checks the password policy. */
export function ResetPassword({ record, onClose, onDone }: ResetPasswordProps) {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const submit = async (v: { password: string; confirmpassword: string }) => {
    setSaving(true);
    try {
      const r = await http.put('/sys/user/changePassword', { username: record?.username, ...v });
      if (!r.success) return void message.warning(r.message);
      message.success(r.message || '密码修改成功！');
      onDone?.();
      onClose?.();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form layout="vertical" onFinish={(v) => void submit(v as { password: string; confirmpassword: string })}>
      <Form.Item label="用户账号">
        <Input value={record?.username} disabled />
      </Form.Item>
      <Form.Item name="password" label="登录密码" rules={[{ required: true, message: '请输入登录密码' }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmpassword"
        label="确认密码"
        dependencies={['password']}
        rules={[
          { required: true, message: '请重新输入登录密码' },
          ({ getFieldValue }) => ({ validator: (_, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一样！'))) }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>确定</Button>
    </Form>
  );
}
