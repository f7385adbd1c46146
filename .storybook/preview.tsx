import type { Preview } from '@storybook/react-vite';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'antd/dist/reset.css';
import { installFixtures } from './fixtures';

dayjs.locale('zh-cn');
// Stories answer API calls from recorded fixtures, unless the iframe is opened with ?live=1
// (the e2e tests do that to drive widgets against the real server).
if (!new URLSearchParams(window.location.search).has('live')) installFixtures();

const preview: Preview = {
  decorators: [
    (Story) => (
      <ConfigProvider locale={zhCN}>
        <App>
          <div style={{ padding: 16 }}>
            <Story />
          </div>
        </App>
      </ConfigProvider>
    ),
  ],
  parameters: { layout: 'fullscreen' },
};
export default preview;
