import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Col, Divider, Form, Input, Row, Select, Space, Tabs } from 'antd';
import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined, WechatOutlined, DingdingOutlined, GithubOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { http } from '@core/http/client';
import { errorText } from '@core/http/errors';
import { feedback } from '@core/feedback';
import { acceptLogin, afterLoginTarget, loginOutcome, type Depart, type LoginResult, type Tenant } from '@core/session/actions';
import { useSmsCountdown } from '@app/pages/user/sms';
import type { LoginChallenge } from './challenge';
import './login.css';

const MOBILE_RE = /^1[3-9]\d{9}$/;

interface Pending {
  res: LoginResult;
  tenants: Tenant[];
  departs: Depart[];
}

export default function Login() {
  const nav = useNavigate();
  const loc = useLocation();
  const [tab, setTab] = useState<'account' | 'phone'>('account');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  /** Shown while the browser proves work for the server (after repeated failures; see ./challenge). */
  const [verifying, setVerifying] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [accountForm] = Form.useForm();
  const [phoneForm] = Form.useForm();
  const sms = useSmsCountdown();

  useEffect(() => {
    document.title = `登录 - 本科教学质量评估系统·听课子系统`;
  }, []);

  const finish = (res: LoginResult, tenantId?: number) => {
    acceptLogin(res, tenantId);
    nav(afterLoginTarget(loc.search), { replace: true });
  };

  const proceed = (res: LoginResult) => {
    const tenants = res.tenantList ?? [];
    const departs = Number(res.multi_depart) === 2 ? (res.departs ?? []) : [];
    if (tenants.length > 1 || departs.length > 1) setPending({ res, tenants: tenants.length > 1 ? tenants : [], departs: departs.length > 1 ? departs : [] });
    else finish(res);
  };

  const accountLogin = async (v: { username: string; password: string; remember?: boolean }) => {
    setBusy(true);
    setError('');
    try {
      const body = { username: v.username.trim(), password: v.password, remember_me: !!v.remember };
      let r = await http.post<LoginResult & { challenge?: LoginChallenge }>('/sys/login', body);
      // After repeated failures the server asks for a proof of work (412 with a challenge): the browser
      // solves it — no picture to read — and sends the sign-in again, at most twice.
      for (let round = 0; round < 2 && Number(r.code) === 412 && r.result?.challenge; round++) {
        setVerifying(true);
        const { solveLoginChallenge } = await import('./challenge');
        const altcha = await solveLoginChallenge(r.result.challenge);
        setVerifying(false);
        if (!altcha) break;
        r = await http.post<LoginResult & { challenge?: LoginChallenge }>('/sys/login', { ...body, altcha });
      }
      if (Number(r.code) === 200 && r.result?.token) return proceed(loginOutcome(r));
      setError(r.message || '登录失败');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setVerifying(false);
      setBusy(false);
    }
  };

  const phoneLogin = async (v: { mobile: string; captcha: string }) => {
    setBusy(true);
    setError('');
    try {
      const r = await http.post<LoginResult>('/sys/phoneLogin', { mobile: v.mobile, captcha: v.captcha });
      proceed(loginOutcome(r));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const sendSms = async () => {
    try {
      const { mobile } = await phoneForm.validateFields(['mobile']);
      await sms.send({ mobile, smsmode: '0' });
    } catch {
      /* validation message is shown on the field */
    }
  };

  if (pending) return <ChooseStep pending={pending} onDone={finish} onCancel={() => setPending(null)} />;

  const accountTab = (
    <Form form={accountForm} size="large" onFinish={accountLogin} initialValues={{ remember: true }}>
      <Form.Item name="username" rules={[{ required: true, message: '请输入用户名' }]}>
        <Input prefix={<UserOutlined />} placeholder="请输入账户名" autoComplete="username" aria-label="账户名" />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" aria-label="密码" />
      </Form.Item>
      <Form.Item>
        <Row justify="space-between">
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>自动登录</Checkbox>
          </Form.Item>
          <Link to="/user/alteration">忘记密码</Link>
        </Row>
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>
        {verifying ? '正在进行人机验证…' : '登 录'}
      </Button>
    </Form>
  );

  const phoneTab = (
    <Form form={phoneForm} size="large" onFinish={phoneLogin}>
      <Form.Item name="mobile" rules={[{ required: true, message: '请输入手机号' }, { pattern: MOBILE_RE, message: '请输入正确手机号' }]}>
        <Input prefix={<MobileOutlined />} placeholder="手机号" maxLength={11} aria-label="手机号" />
      </Form.Item>
      <Row gutter={12}>
        <Col flex="auto">
          <Form.Item name="captcha" rules={[{ required: true, message: '请输入验证码' }]}>
            <Input prefix={<SafetyOutlined />} placeholder="短信验证码" maxLength={6} aria-label="短信验证码" />
          </Form.Item>
        </Col>
        <Col flex="130px">
          <Button block disabled={sms.left > 0} loading={sms.sending} onClick={() => void sendSms()}>
            {sms.left > 0 ? `${sms.left} 秒后重发` : '获取验证码'}
          </Button>
        </Col>
      </Row>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>
        登 录
      </Button>
    </Form>
  );

  // Third-party sign-in is answered by the server (未启用 in this deployment).
  const third = (source: string) => async () => {
    try {
      const r = await http.get(`/sys/thirdLogin/render/${source}`);
      if (r.success) window.location.assign(String(r.result));
      else feedback.message.warning(r.message || '第三方登录未启用');
    } catch (e) {
      feedback.message.warning(errorText(e));
    }
  };
  return (
    <div className="login-page">
      <Tabs
        centered
        activeKey={tab}
        onChange={(k) => {
          setTab(k as 'account' | 'phone');
          setError('');
        }}
        items={[
          { key: 'account', label: '账号密码登录', children: accountTab },
          { key: 'phone', label: '手机号登录', children: phoneTab },
        ]}
      />
      {error && <Alert type="error" showIcon message={error} className="login-error" role="alert" />}
      <Divider plain className="login-divider">其他登录方式</Divider>
      <Row justify="space-between" align="middle">
        <Space size="middle" className="login-third">
          <WechatOutlined onClick={third('wechat_enterprise')} title="企业微信" />
          <DingdingOutlined onClick={third('dingtalk')} title="钉钉" />
          <GithubOutlined onClick={third('github')} title="GitHub" />
          <Link to="/oauth2-app/login">OAuth2</Link>
        </Space>
        <Link to="/user/register">注册账户</Link>
      </Row>
    </div>
  );
}

function ChooseStep({ pending, onDone, onCancel }: { pending: Pending; onDone: (r: LoginResult, tenantId?: number) => void; onCancel: () => void }) {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async (v: { tenantId?: number; orgCode?: string }) => {
    setBusy(true);
    try {
      let res = pending.res;
      if (v.orgCode) {
        const r = await http.put<{ userInfo: LoginResult['userInfo'] }>(
          '/sys/selectDepart',
          { username: res.userInfo.username, orgCode: v.orgCode },
          { headers: { 'X-Access-Token': res.token, ...(v.tenantId !== undefined ? { 'tenant-id': String(v.tenantId) } : {}) } },
        );
        if (!r.success) throw new Error(r.message || '切换部门失败');
        res = { ...res, userInfo: r.result?.userInfo ?? res.userInfo };
      }
      onDone(res, v.tenantId);
    } catch (e) {
      feedback.message.error(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} layout="vertical" size="large" onFinish={submit} className="login-choose">
      <h3 style={{ textAlign: 'center', marginBottom: 24 }}>登录信息确认</h3>
      {pending.tenants.length > 0 && (
        <Form.Item name="tenantId" label="请选择登录租户" rules={[{ required: true, message: '请选择登录租户' }]}>
          <Select placeholder="请选择登录租户" options={pending.tenants.map((t) => ({ value: Number(t.id), label: t.name }))} />
        </Form.Item>
      )}
      {pending.departs.length > 0 && (
        <Form.Item name="orgCode" label="请选择登录部门" rules={[{ required: true, message: '请选择登录部门' }]}>
          <Select placeholder="请选择登录部门" options={pending.departs.map((d) => ({ value: d.orgCode, label: d.departName }))} />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block loading={busy}>确定</Button>
      <Button type="link" block onClick={onCancel} style={{ marginTop: 8 }}>返回</Button>
    </Form>
  );
}
