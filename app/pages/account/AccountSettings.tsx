import { useEffect, useState } from 'react';
import { App, Button, Card, DatePicker, Form, Input, List, Menu, Modal, Radio, Result, Select, Spin, Switch } from 'antd';
import { useAtom } from 'jotai';
import { useLocation } from 'react-router-dom';
import dayjs from 'dayjs';
import { http } from '@core/http/client';
import { PasswordDialog } from '@app/layouts/PasswordDialog';
import { normalizeSettings, PRIMARY_COLORS, settingsAtom, type AppSettings } from '@core/settings';
import { JImageUpload } from '@widgets/upload/JUpload';
import { useAccount, useRefreshSessionUser, type AccountData } from './useAccount';

const PANELS = [
  { key: 'base', label: '基本设置' },
  { key: 'security', label: '安全设置' },
  { key: 'custom', label: '个性化' },
  { key: 'binding', label: '账号绑定' },
  { key: 'notification', label: '新消息通知' },
] as const;
type PanelKey = (typeof PANELS)[number]['key'];

const PHONE = /^1[3-9]\d{9}$/;
const mask = (p: string) => (p.length >= 7 ? `${p.slice(0, 3)}****${p.slice(-4)}` : p);

/** Saves own profile fields through the self-service route; the session user follows. */
function useSaveSelf(reload: () => Promise<void>) {
  const { message } = App.useApp();
  const refresh = useRefreshSessionUser();
  return async (values: Record<string, unknown>) => {
    const r = await http.put<Record<string, unknown>>('/sys/user/login/setting/userEdit', values);
    if (!r.success) {
      message.warning(r.message);
      return false;
    }
    message.success(r.message || '保存成功！');
    if (r.result) refresh({ realname: String(r.result.realname ?? ''), avatar: String(r.result.avatar ?? '') });
    await reload();
    return true;
  };
}

function BasePanel({ data, reload }: { data: AccountData; reload: () => Promise<void> }) {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const save = useSaveSelf(reload);
  const u = data.userInfo;
  useEffect(() => {
    form.setFieldsValue({
      realname: u.realname, avatar: u.avatar || undefined, email: u.email ?? '', phone: u.phone ?? '',
      birthday: u.birthday ? dayjs(String(u.birthday)) : undefined, sex: u.sex != null ? Number(u.sex) : undefined,
    });
  }, [form, u]);
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 440 }} data-testid="account-base">
      <Form.Item label="姓名" name="realname" rules={[{ required: true, whitespace: true, message: '请输入姓名' }, { max: 100, message: '姓名不超过100个字符' }]}>
        <Input />
      </Form.Item>
      <Form.Item label="头像" name="avatar">
        <JImageUpload number={1} bizPath="avatar" />
      </Form.Item>
      <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱' }]}>
        <Input />
      </Form.Item>
      <Form.Item label="手机号码" name="phone" rules={[{ pattern: PHONE, message: '请输入正确的手机号码' }]}>
        <Input />
      </Form.Item>
      <Form.Item label="生日" name="birthday">
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="性别" name="sex">
        <Radio.Group options={[{ value: 1, label: '男' }, { value: 2, label: '女' }]} />
      </Form.Item>
      <Button
        type="primary"
        loading={busy}
        onClick={async () => {
          const v = await form.validateFields().catch(() => null);
          if (!v) return;
          setBusy(true);
          try {
            await save({ ...v, birthday: v.birthday ? dayjs(v.birthday).format('YYYY-MM-DD') : null, avatar: v.avatar ?? '' });
          } finally {
            setBusy(false);
          }
        }}
      >
        更新基本信息
      </Button>
    </Form>
  );
}

function SecurityPanel({ data, reload }: { data: AccountData; reload: () => Promise<void> }) {
  const [pwd, setPwd] = useState(false);
  const [binding, setBinding] = useState(false);
  const [phone, setPhone] = useState('');
  const save = useSaveSelf(reload);
  const cur = String(data.userInfo.phone ?? '');
  return (
    <>
      <List itemLayout="horizontal">
        <List.Item actions={[<a key="m" onClick={() => setPwd(true)}>修改</a>]}>
          <List.Item.Meta title="账户密码" description="定期修改密码，密码须符合系统密码策略" />
        </List.Item>
        <List.Item
          actions={[
            <a key="m" onClick={() => { setPhone(cur); setBinding(true); }}>
              {cur ? '修改' : '绑定'}
            </a>,
          ]}
        >
          <List.Item.Meta title="密保手机" description={cur ? `已绑定手机：${mask(cur)}` : '未绑定手机'} />
        </List.Item>
      </List>
      {pwd && <PasswordDialog onClose={() => setPwd(false)} />}
      <Modal
        title="绑定手机"
        open={binding}
        okText="确定"
        cancelText="取消"
        onCancel={() => setBinding(false)}
        onOk={async () => {
          if (!PHONE.test(phone)) return;
          if (await save({ phone })) setBinding(false);
        }}
        destroyOnHidden
      >
        <Input placeholder="请输入手机号码" value={phone} onChange={(e) => setPhone(e.target.value.trim())} status={phone && !PHONE.test(phone) ? 'error' : undefined} />
        {phone && !PHONE.test(phone) && <div style={{ color: '#ff4d4f', marginTop: 4 }}>请输入正确的手机号码</div>}
      </Modal>
    </>
  );
}

function CustomPanel() {
  const [s, setS] = useAtom(settingsAtom);
  const set = <K extends keyof AppSettings>(k: K, v: AppSettings[K]) => setS((old) => normalizeSettings({ ...old, [k]: v }));
  return (
    <List itemLayout="horizontal">
      <List.Item actions={[<Switch key="s" checked={s.navTheme === 'dark'} checkedChildren="暗色" unCheckedChildren="亮色" onChange={(v) => set('navTheme', v ? 'dark' : 'light')} />]}>
        <List.Item.Meta title="风格配色" description="整体风格：暗色或亮色菜单" />
      </List.Item>
      <List.Item actions={[<Select key="s" style={{ width: 120 }} value={s.primaryColor} onChange={(v) => set('primaryColor', v)} options={PRIMARY_COLORS.map((c) => ({ value: c.color, label: c.name }))} />]}>
        <List.Item.Meta title="主题色" description="页面风格配色" />
      </List.Item>
      <List.Item actions={[<Select key="s" style={{ width: 120 }} value={s.layout} onChange={(v) => set('layout', v)} options={[{ value: 'sidemenu', label: '侧边菜单' }, { value: 'topmenu', label: '顶部菜单' }]} />]}>
        <List.Item.Meta title="导航模式" description="侧边菜单或顶部菜单" />
      </List.Item>
      <List.Item actions={[<Switch key="s" checked={s.multipage} onChange={(v) => set('multipage', v)} />]}>
        <List.Item.Meta title="多页签模式" description="以页签形式打开多个页面" />
      </List.Item>
      <List.Item actions={[<Switch key="s" checked={s.colorWeak} onChange={(v) => set('colorWeak', v)} />]}>
        <List.Item.Meta title="色弱模式" description="为色弱用户调整页面颜色" />
      </List.Item>
    </List>
  );
}

function BindingPanel() {
  return (
    <List itemLayout="horizontal">
      {['钉钉', '企业微信', '微信'].map((n) => (
        <List.Item key={n} actions={[<span key="s" style={{ color: 'rgba(0,0,0,.45)' }}>未启用</span>]}>
          <List.Item.Meta title={`绑定${n}`} description={`当前系统未启用${n}第三方登录`} />
        </List.Item>
      ))}
    </List>
  );
}

function NotificationPanel({ data, reload }: { data: AccountData; reload: () => Promise<void> }) {
  const { message } = App.useApp();
  const toggle = async (k: keyof AccountData['notify'], v: boolean) => {
    const r = await http.put('/sys/user/login/setting/notify', { [k]: v });
    if (r.success) message.success(r.message || '保存成功！');
    else message.warning(r.message);
    await reload();
  };
  const items: Array<[keyof AccountData['notify'], string, string]> = [
    ['system', '系统消息', '系统公告与通知将以站内信的形式通知'],
    ['todo', '待办任务', '待办任务（整改、确认等）将以站内信的形式通知'],
    ['message', '用户消息', '其他用户的消息将以站内信的形式通知'],
  ];
  return (
    <List itemLayout="horizontal">
      {items.map(([k, t, d]) => (
        <List.Item key={k} actions={[<Switch key="s" aria-label={t} checked={data.notify[k]} onChange={(v) => void toggle(k, v)} />]}>
          <List.Item.Meta title={t} description={d} />
        </List.Item>
      ))}
    </List>
  );
}

/** 个人设置: five panels on the signed-in user's own profile; the first one shown is the last path segment. */
export default function AccountSettings() {
  const { pathname } = useLocation();
  const { data, error, reload } = useAccount();
  const last = pathname.split('/').pop() ?? '';
  // The URL picks the first panel; switching panels stays in the same tab.
  const [key, setKey] = useState<PanelKey>((PANELS.find((p) => p.key === last)?.key ?? 'base') as PanelKey);
  const panel = () => {
    if (key === 'custom') return <CustomPanel />;
    if (key === 'binding') return <BindingPanel />;
    if (error) return <Result status="warning" title={error} />;
    if (!data) return <Spin />;
    if (key === 'security') return <SecurityPanel data={data} reload={reload} />;
    if (key === 'notification') return <NotificationPanel data={data} reload={reload} />;
    return <BasePanel data={data} reload={reload} />;
  };
  return (
    <Card variant="borderless" styles={{ body: { padding: '16px 0' } }} className="account-settings">
      <div style={{ display: 'flex' }}>
        <Menu
          mode="inline"
          style={{ width: 224, borderInlineEnd: '1px solid #f0f0f0' }}
          selectedKeys={[key]}
          items={PANELS.map((p) => ({ key: p.key, label: p.label }))}
          onClick={({ key: k }) => setKey(k as PanelKey)}
        />
        <div style={{ flex: 1, padding: '8px 40px' }}>
          <div style={{ fontSize: 20, fontWeight: 500, marginBottom: 12 }}>{PANELS.find((p) => p.key === key)!.label}</div>
          {panel()}
        </div>
      </div>
    </Card>
  );
}
