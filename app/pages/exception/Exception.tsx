import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { HOME_PATH } from '@core/session/actions';

const TEXT = {
  '403': '抱歉，你无权访问该页面',
  '404': '抱歉，你访问的页面不存在或仍在开发中',
  '500': '抱歉，服务器出错了',
} as const;

export default function Exception({ type, standalone }: { type: keyof typeof TEXT; standalone?: boolean }) {
  const nav = useNavigate();
  return (
    <div style={standalone ? { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fff' } : { background: '#fff', padding: '48px 0' }}>
      <Result status={type} title={type} subTitle={TEXT[type]} extra={<Button type="primary" onClick={() => nav(HOME_PATH)}>返回首页</Button>} />
    </div>
  );
}
