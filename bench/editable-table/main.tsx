import { createRoot } from 'react-dom/client';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import 'antd/dist/reset.css';
import { JEditableTable } from '@widgets/table/JEditableTable';
import { DEMO_COLUMNS, demoRows } from '@widgets/table/demo-data';

/** The benchmarked page: the editable table alone (1,000 × 20, as the Rows1000 story), production build. */
const rows = demoRows(1000);
createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <App>
      <div style={{ padding: 16, width: 1400 }}>
        <JEditableTable columns={DEMO_COLUMNS} dataSource={rows} dragSort />
      </div>
    </App>
  </ConfigProvider>,
);
