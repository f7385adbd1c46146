import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';

/** OAuth2 app sign-in: not configured in this deployment. */
export default function OAuth2Login() {
  return (
    <Result
      status="info"
      title="OAuth2 登录未启用"
      subTitle="本系统未配置 OAuth2 应用，请使用账号密码或手机号登录。"
      extra={<Link to="/user/login"><Button type="primary">返回登录</Button></Link>}
    />
  );
}
