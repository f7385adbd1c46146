import { Button, Result } from 'antd';
import { Link, useLocation } from 'react-router-dom';

export default function RegisterResult() {
  const username = (useLocation().state as { username?: string } | null)?.username ?? '';
  return (
    <Result
      status="success"
      title={`你的账户：${username} 注册成功`}
      subTitle="账户已创建，请使用新账户登录。"
      extra={<Link to="/user/login"><Button type="primary">去登录</Button></Link>}
    />
  );
}
