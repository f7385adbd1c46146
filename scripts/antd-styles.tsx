/**
 * Prints antd's component styles for the default theme as one CSS text, for the production build
 * (vite.config.ts links it before the app's own CSS). antd 5 otherwise generates each component's
 * CSS in the browser on first use (CSS-in-JS): serialising, hashing and injecting dozens of style
 * sheets while the first screen renders. The CSS ends with @ant-design/cssinjs's cache-path map, so at
 * run time every style found here is skipped; anything not here (another primary colour, a component
 * state not rendered below) is still generated as before.
 * Run by the build in its own process with NODE_ENV=production: antd's class-name hashes differ
 * between development and production.
 */
import { createElement, Fragment, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import { appTheme, DEFAULT_PRIMARY_COLOR } from '../src/theme';

const { App, ConfigProvider } = antd;

// Components drawn with props that make them register all their styles (or that need some to render).
const special: Record<string, (C: ComponentType<any>) => ReactNode> = {
  Affix: (C) => createElement(C, null, createElement('div')),
  Dropdown: (C) => createElement(C, { menu: { items: [] } }, createElement('div')),
  Menu: (C) => createElement(C, { mode: 'inline', theme: 'dark', items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }),
  QRCode: (C) => createElement(C, { value: 'x' }),
  Tree: (C) => createElement(C, { treeData: [] }),
  Table: (C) => createElement(C, { columns: [{ key: 'a', title: 'a', dataIndex: 'a' }], dataSource: [{ key: 1, a: 1 }], rowSelection: {}, bordered: true, size: 'middle' }),
  Tabs: (C) => createElement(C, { type: 'editable-card', items: [{ key: 'a', label: 'a' }] }),
  Modal: (C) => createElement(C, { open: true }),
  Drawer: (C) => createElement(C, { open: true }),
  Tooltip: (C) => createElement(C, { open: true, title: 'x' }, createElement('span')),
  Popover: (C) => createElement(C, { open: true, content: 'x' }, createElement('span')),
  Popconfirm: (C) => createElement(C, { open: true, title: 'x' }, createElement('span')),
};
const skip = new Set(['ConfigProvider', 'App', 'Grid', 'Tour', 'version']);

const cache = createCache();
const theme = appTheme(DEFAULT_PRIMARY_COLOR);
const within = (node: ReactNode) =>
  createElement(StyleProvider, { cache }, createElement(ConfigProvider, { theme }, createElement(App, null, node)));
for (const [name, C] of Object.entries(antd as unknown as Record<string, ComponentType<any>>)) {
  if (skip.has(name) || name[0] !== name[0]!.toUpperCase() || (typeof C !== 'function' && typeof C !== 'object')) continue;
  try {
    renderToString(within(special[name]?.(C) ?? createElement(C)));
  } catch {
    // A component that cannot draw on the server without more props: generated in the browser as before.
  }
}
renderToString(within(createElement(Fragment)));
process.stdout.write(extractStyle(cache, true));
