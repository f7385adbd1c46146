import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { userInfoAtom } from '@core/session/store';
import { clearSession, LOGIN_PATH } from '@core/session/actions';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import { checkPassword } from '@shared/password-policy';

/** 修改密码 (SPEC §5): the rules come from the shared password policy, the same module the server enforces. */
export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const user = useAtomValue(userInfoAtom);
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const nav = useNavigate();
  const submit = async () => {
    if (!user?.username) return void feedback.message.warning('当前系统无登录用户!');
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const r = await http.put('/sys/user/updatePassword', { username: user.username, oldpassword: v.oldpassword, password: v.password, confirmpassword: v.confirmpassword });
      if (!r.success) throw new Error(r.message || '修改失败');
      // The server ends every session of the user on a password change: sign in again.
      feedback.message.success(r.message || '密码修改成功，请重新登录！');
      onClose();
      clearSession();
      nav(LOGIN_PATH, { replace: true });
    } catch (e) {
      feedback.message.warning(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="修改密码" width={800} open onOk={() => void submit()} onCancel={onClose} confirmLoading={busy} okText="确定" cancelText="取消" destroyOnHidden>
      <Form form={form} labelCol={{ span: 5 }} wrapperCol={{ span: 16 }} style={{ marginTop: 24 }}>
        <Form.Item label="旧密码" name="oldpassword" rules={[{ required: true, message: '请输入旧密码!' }]}>
          <Input.Password placeholder="请输入旧密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="password"
          rules={[{ validator: (_r, value) => { const m = checkPassword(value, user?.username); return m ? Promise.reject(new Error(m)) : Promise.resolve(); } }]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirmpassword"
          dependencies={['password']}
          rules={[
            { required: true, message: '请确认新密码!' },
            ({ getFieldValue }) => ({ validator: (_r, value) => (!value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一样！'))) }),
          ]}
        >
          <Input.Password placeholder="请确认新密码" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
