import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { Button, Form, Layout, Select, Table } from 'antd';
import { leanResets, topLevelBlocks, UNIFIED_RESET } from '../../scripts/antd-resets';

/** antd's own CSS for a few first-screen components, extracted as the build does (scripts/antd-styles.tsx). */
function antdCss(): string {
  const cache = createCache();
  renderToString(
    createElement(
      StyleProvider,
      { cache },
      createElement(Button),
      createElement(Table, { columns: [{ key: 'a', title: 'a', dataIndex: 'a' }], dataSource: [{ key: 1, a: 1 }], rowSelection: {} }),
      createElement(Form, null, createElement(Form.Item, { label: 'a' }, createElement('input'))),
      createElement(Select),
      createElement(Layout, null, createElement(Layout.Sider)),
    ),
  );
  return extractStyle(cache, true);
}

const selectorsOf = (css: string) =>
  topLevelBlocks(css)
    .filter((b) => !b.trim().startsWith('@'))
    .flatMap((b) => b.slice(0, b.indexOf('{')).split(','));
/** A selector whose last compound is a class-prefix test: tried on every element that has a class. */
const attributeKeyed = (s: string) => /\[class[\^*]="[^"]*"\](::before|::after)?$/.test(s.trim());

describe('antd box-sizing resets in the pre-built stylesheet', () => {
  const css = antdCss();
  const lean = leanResets(css);

  it('replaces the per-component prefix resets with one rule', () => {
    const before = selectorsOf(css).filter(attributeKeyed).length;
    expect(before).toBeGreaterThan(100);
    expect(lean.startsWith(UNIFIED_RESET)).toBe(true);
    expect(lean.length).toBeLessThan(css.length);
    expect(selectorsOf(lean.slice(UNIFIED_RESET.length)).filter(attributeKeyed)).toEqual([]);
  });

  it('keeps every other rule, in order and unchanged, and the cache-path map last', () => {
    const unchanged = (s: string) => topLevelBlocks(s).filter((b) => !/\[class[\^*]="/.test(b.slice(0, b.indexOf('{'))));
    expect(unchanged(lean.slice(UNIFIED_RESET.length))).toEqual(unchanged(css));
    expect(topLevelBlocks(lean).at(-1)).toMatch(/^\.data-ant-cssinjs-cache-path\{content:"/);
  });

  it('keys the component roots\u2019 font resets on the hash class, same elements, same specificity', () => {
    const hash = /:where\((\.css-[a-z0-9-]+)\)/.exec(css)![1]!;
    // (toBe, not toContain: a failure would print the whole stylesheet)
    expect(css.includes(`:where(${hash})[class^="ant-form"],:where(${hash})[class*=" ant-form"]{font-family:`)).toBe(true);
    expect(lean.includes(`${hash}:where([class^="ant-form"]),${hash}:where([class*=" ant-form"]){font-family:`)).toBe(true);
  });

  it('leaves rules with other declarations, other selectors and at-rules alone', () => {
    const other = [
      ':where(.css-x)[class^="ant-a"] [class^="ant-a"]{box-sizing:border-box;color:red;}',
      ':where(.css-x).ant-a [class*=" ant-b"],.ant-c{box-sizing:border-box;}',
      '@media (min-width: 1px){:where(.css-x)[class^="ant-a"]{box-sizing:border-box;}}',
      '.x{content:"}{"}',
    ];
    expect(leanResets(other.join(''))).toBe(UNIFIED_RESET + other.join(''));
    expect(leanResets(':where(.css-x)[class^="ant-a"] [class*=" ant-a"]::after{box-sizing:border-box;}.y{}')).toBe(`${UNIFIED_RESET}.y{}`);
  });
});
