import { useState } from 'react';
import { Button, Col, Form, Input, Result, Row, Steps } from 'antd';
import { Link } from 'react-router-dom';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import { SliderCheck } from '@app/components/SliderCheck';
import { useSmsCountdown } from '@app/pages/user/sms';
import { checkPassword } from '@shared/password-policy';

/** Forgotten password (/user/alteration): account + slider check → SMS code → new password → done. */
export default function Alteration() {
  const [step, setStep] = useState(0);
  const [username, setUsername] = useState('');
  const [verified, setVerified] = useState(false);
  const [phone, setPhone] = useState({ mobile: '', captcha: '' });
  const [busy, setBusy] = useState(false);
  const sms = useSmsCountdown();
  const [f1] = Form.useForm();
  const [f2] = Form.useForm();

  const finish = async (v: { password: string }) => {
    setBusy(true);
    try {
      const r = await http.post('/sys/user/passwordChange', { username, phone: phone.mobile, smscode: phone.captcha, password: v.password });
      if (!r.success) throw new Error(r.message || '修改失败');
      setStep(3);
    } catch (e) {
      feedback.message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Steps size="small" current={step} style={{ marginBottom: 24 }} items={[{ title: '账户' }, { title: '验证' }, { title: '新密码' }, { title: '完成' }]} />
      {step === 0 && (
        <Form form={f1} size="large" onFinish={(v: { username: string }) => {
          if (!verified) return feedback.message.warning('请先完成滑块验证');
          setUsername(v.username.trim());
          setStep(1);
        }}>
          <Form.Item name="username" rules={[{ required: true, message: '请输入用户名' }]}>
            <Input placeholder="请输入用户名" aria-label="用户名" />
          </Form.Item>
          <Form.Item>
            <SliderCheck onSuccess={() => setVerified(true)} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>下一步</Button>
        </Form>
      )}
      {step === 1 && (
        <Form form={f2} size="large" onFinish={(v: { mobile: string; captcha: string }) => { setPhone(v); setStep(2); }}>
          <Form.Item name="mobile" rules={[{ required: true, message: '请输入手机号' }, { pattern: /^1[3-9]\d{9}$/, message: '请输入正确手机号' }]}>
            <Input placeholder="账户绑定的手机号" maxLength={11} aria-label="手机号" />
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
                  const { mobile } = await f2.validateFields(['mobile']);
                  await sms.send({ mobile, smsmode: '2' });
                } catch { /* field shows the message */ }
              }}>
                {sms.left > 0 ? `${sms.left} 秒后重发` : '获取验证码'}
              </Button>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={12}><Button block onClick={() => setStep(0)}>上一步</Button></Col>
            <Col span={12}><Button type="primary" htmlType="submit" block>下一步</Button></Col>
          </Row>
        </Form>
      )}
      {step === 2 && (
        <Form size="large" onFinish={finish}>
          <Form.Item name="password" rules={[{ validator: (_r, v) => { const m = checkPassword(v, username); return m ? Promise.reject(new Error(m)) : Promise.resolve(); } }]}>
            <Input.Password placeholder="新密码" aria-label="新密码" />
          </Form.Item>
          <Form.Item name="confirm" dependencies={['password']} rules={[{ required: true, message: '请确认新密码!' }, ({ getFieldValue }) => ({ validator: (_r, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一样！'))) })]}>
            <Input.Password placeholder="确认新密码" aria-label="确认新密码" />
          </Form.Item>
          <Row gutter={12}>
            <Col span={12}><Button block onClick={() => setStep(1)}>上一步</Button></Col>
            <Col span={12}><Button type="primary" htmlType="submit" block loading={busy}>提交</Button></Col>
          </Row>
        </Form>
      )}
      {step === 3 && <Result status="success" title="密码修改成功" subTitle="请使用新密码登录" extra={<Link to="/user/login"><Button type="primary">去登录</Button></Link>} />}
      {step < 3 && <div style={{ marginTop: 16, textAlign: 'right' }}><Link to="/user/login">返回登录</Link></div>}
    </div>
  );
}
