import { useState } from 'react';
import { Button, Col, Form, Input, Row } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import { useSmsCountdown } from '@app/pages/user/sms';

export default function Register() {
  const [form] = Form.useForm();
  const nav = useNavigate();
  const [busy, setBusy] = useState(false);
  const sms = useSmsCountdown();
  const submit = async (v: { username: string; password: string; mobile: string; captcha: string }) => {
    setBusy(true);
    try {
      const r = await http.post('/sys/user/register', { username: v.username, password: v.password, phone: v.mobile, smscode: v.captcha });
      if (!r.success) throw new Error(r.message || '注册失败');
      nav('/user/register-result', { state: { username: v.username } });
    } catch (e) {
      feedback.message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} size="large" onFinish={submit}>
      <h3 style={{ marginBottom: 20 }}>注册账户</h3>
      <Form.Item name="username" rules={[{ required: true, message: '请输入用户名' }, { pattern: /^\w+$/, message: '只允许字母、数字、下划线' }, { min: 4, max: 18, message: '长度6到18个字符' }]}>
        <Input placeholder="用户名" aria-label="用户名" />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password placeholder="至少8位密码，区分大小写" aria-label="密码" />
      </Form.Item>
      <Form.Item
        name="password2"
        dependencies={['password']}
        rules={[{ required: true, message: '请确认密码' }, ({ getFieldValue }) => ({ validator: (_r, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一样！'))) })]}
      >
        <Input.Password placeholder="确认密码" aria-label="确认密码" />
      </Form.Item>
      <Form.Item name="mobile" rules={[{ required: true, message: '请输入手机号' }, { pattern: /^1[3-9]\d{9}$/, message: '请输入正确手机号' }]}>
        <Input placeholder="11位手机号" maxLength={11} aria-label="手机号" />
      </Form.Item>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item name="captcha" rules={[{ required: true, message: '请输入验证码' }]}>
            <Input placeholder="短信验证码" aria-label="短信验证码" />
          </Form.Item>
        </Col>
        <Col flex="130px">
          <Button block disabled={sms.left > 0} loading={sms.sending} onClick={async () => {
            try {
              const { mobile } = await form.validateFields(['mobile']);
              await sms.send({ mobile, smsmode: '1' });
            } catch { /* field shows the message */ }
          }}>
            {sms.left > 0 ? `${sms.left} 秒后重发` : '获取验证码'}
          </Button>
        </Col>
      </Row>
      <Row justify="space-between" align="middle">
        <Button type="primary" htmlType="submit" loading={busy} style={{ width: '50%' }}>注册</Button>
        <Link to="/user/login">使用已有账户登录</Link>
      </Row>
    </Form>
  );
}
