/**
 * Prints the styles of the antd components on the first screens (sign-in, the shell, home, list and
 * form pages) for the default theme as one CSS text, for the production build (vite.config.ts links it
 * before the app's own CSS), with that theme's map token (`{ css, mapToken }` as JSON). antd 5
 * otherwise generates each component's CSS in the browser on first
 * use (CSS-in-JS): serialising, hashing and injecting dozens of style sheets while the first screen
 * renders. The CSS ends with @ant-design/cssinjs's cache-path map, so at run time every style found
 * here is skipped; anything not here (another component, another primary colour, a component state not
 * rendered below) is still generated as before. The components' box-sizing resets are merged into one
 * rule (scripts/antd-resets.ts). Every component's styles would be ~40 % more CSS
 * that every page parses and matches against (A/B: about 150 ms more main-thread time per navigation).
 * Run by the build in its own process with NODE_ENV=production: antd's class-name hashes differ
 * between development and production.
 */
import { createElement, Fragment, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import { appTheme, DEFAULT_PRIMARY_COLOR, mapTokenOf, ThemedConfigProvider } from '../core/theme';
import { leanResets } from './antd-resets';

const { App } = antd;

// Components drawn with props that make them register all their styles (or that need some to render).
const special: Record<string, (C: ComponentType<any>) => ReactNode> = {
  Dropdown: (C) => createElement(C, { menu: { items: [] } }, createElement('div')),
  // Form.Item and Layout.Sider register style sheets of their own (the shell's side menu, every form field).
  Form: (C) => createElement(C, null, createElement((C as typeof antd.Form).Item, { label: 'a' }, createElement('input'))),
  Layout: (C) => createElement(C, null, createElement((C as typeof antd.Layout).Sider)),
  Menu: (C) => createElement(C, { mode: 'inline', theme: 'dark', items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }),
  Table: (C) => createElement(C, { columns: [{ key: 'a', title: 'a', dataIndex: 'a' }], dataSource: [{ key: 1, a: 1 }], rowSelection: {}, bordered: true, size: 'middle' }),
  Tabs: (C) => createElement(C, { type: 'editable-card', items: [{ key: 'a', label: 'a' }] }),
  Modal: (C) => createElement(C, { open: true }),
  Drawer: (C) => createElement(C, { open: true }),
  Tooltip: (C) => createElement(C, { open: true, title: 'x' }, createElement('span')),
  Popover: (C) => createElement(C, { open: true, content: 'x' }, createElement('span')),
  Popconfirm: (C) => createElement(C, { open: true, title: 'x' }, createElement('span')),
};
/** The components drawn by the first screens; the rest (pickers, uploads, trees, …) style themselves when first opened. */
const FIRST_SCREENS = new Set([
  'Alert', 'Avatar', 'Badge', 'Breadcrumb', 'Button', 'Card', 'Checkbox', 'Col', 'DatePicker', 'Divider', 'Drawer', 'Dropdown',
  'Empty', 'Form', 'Input', 'InputNumber', 'Layout', 'List', 'Menu', 'Modal', 'Popconfirm', 'Popover', 'Progress', 'Radio',
  'Result', 'Row', 'Select', 'Skeleton', 'Space', 'Spin', 'Statistic', 'Steps', 'Switch', 'Table', 'Tabs', 'Tag', 'Tooltip',
  'Typography',
]);

/** ANTD_STYLES_ONLY=Button,Input,…: only these (a light entry's own components, vite.config.ts `scanEntry`). */
const only = process.env.ANTD_STYLES_ONLY ? new Set(process.env.ANTD_STYLES_ONLY.split(',')) : undefined;
const wanted = (name: string) => (only ? only.has(name) : FIRST_SCREENS.has(name));

const cache = createCache();
const theme = appTheme(DEFAULT_PRIMARY_COLOR);
const within = (node: ReactNode) =>
  createElement(StyleProvider, { cache }, createElement(ThemedConfigProvider, { theme }, createElement(App, null, node)));
for (const [name, C] of Object.entries(antd as unknown as Record<string, ComponentType<any>>)) {
  if (!wanted(name) || (typeof C !== 'function' && typeof C !== 'object')) continue;
  try {
    renderToString(within(special[name]?.(C) ?? createElement(C)));
  } catch {
    // A component that cannot draw on the server without more props: generated in the browser as before.
  }
}
renderToString(within(createElement(Fragment)));
process.stdout.write(JSON.stringify({ css: leanResets(extractStyle(cache, true)), mapToken: mapTokenOf(theme) }));
