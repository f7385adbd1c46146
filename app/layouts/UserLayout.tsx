import { Link, Outlet } from 'react-router-dom';
import { Suspense } from 'react';
import { Spin } from 'antd';
import { APP_TITLE, COPYRIGHT } from '@core/branding';
import logo from '@app/assets/logo.svg?inline';
import './user-layout.css';

/** Login layout (SPEC §2): logo linking to /, application title, nested content. */
export function UserLayout() {
  return (
    <div className="user-layout">
      <div className="user-layout-main">
        <div className="user-layout-top">
          <Link to="/" className="user-layout-brand">
            <img src={logo} alt="logo" className="user-layout-logo" />
            <span className="user-layout-title">{APP_TITLE}</span>
          </Link>
          <div className="user-layout-desc">督导听课 · 评价 · 统计 · 整改，一站式课堂教学质量保障平台</div>
        </div>
        <div className="user-layout-content">
          <Suspense fallback={<div style={{ textAlign: 'center', padding: 48 }}><Spin /></div>}>
            <Outlet />
          </Suspense>
        </div>
      </div>
      <div className="user-layout-footer">{COPYRIGHT}</div>
    </div>
  );
}
