import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import dayjs from 'dayjs';

dayjs.locale('zh-cn');

export function App() {
  return (
    <ConfigProvider locale={zhCN}>
      <div style={{ padding: 24 }}>本科教学质量评估系统·听课子系统</div>
    </ConfigProvider>
  );
}
