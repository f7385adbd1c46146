import { Link } from 'react-router-dom';
import { APP_SHORT_TITLE } from '@core/branding';
import { HOME_PATH } from '@core/session/actions';
import logo from '@app/assets/logo.svg?inline';

export function Logo({ collapsed, theme }: { collapsed?: boolean; theme: 'dark' | 'light' }) {
  return (
    <Link to={HOME_PATH} className={`layout-logo ${theme}`}>
      <img src={logo} alt="logo" />
      {!collapsed && <h1>{APP_SHORT_TITLE}</h1>}
    </Link>
  );
}
