import { Spin } from 'antd';

export const PageSpin = () => (
  <div className="page-spin">
    <Spin size="large" />
  </div>
);
