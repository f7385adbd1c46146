import { describe, expect, it } from 'vitest';
import type { ComponentType, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createCache, StyleProvider } from '@ant-design/cssinjs';
import { Button, ConfigProvider, theme, type ThemeConfig } from 'antd';
import { appTheme, ThemedConfigProvider } from '@core/theme';

type Provider = ComponentType<{ theme: ThemeConfig; children: ReactNode }>;

/** The primary colours (as antd formats them) of every design token antd worked out while drawing a button under `Provider` (cssinjs's 'token' cache entries). */
function derivedPrimaries(Provider: Provider): Set<unknown> {
  const cache = createCache();
  renderToString(
    <StyleProvider cache={cache}>
      <Provider theme={appTheme('#F5222D')}>
        <Button>x</Button>
      </Provider>
    </StyleProvider>,
  );
  const entries = (cache as unknown as { cache: Map<string, [number, [Record<string, unknown>]]> }).cache;
  return new Set([...entries].filter(([key]) => key.startsWith('token')).map(([, [, [token]]]) => token.colorPrimary));
}

describe('ThemedConfigProvider (core/theme.ts)', () => {
  it("derives the app's design token only, not antd's default theme for the icon reset as a bare ConfigProvider does", () => {
    expect(derivedPrimaries(ThemedConfigProvider)).toEqual(new Set(['#f5222d']));
    expect(derivedPrimaries(ConfigProvider as Provider)).toEqual(new Set(['#f5222d', theme.defaultSeed.colorPrimary]));
  });

  it('draws the same markup as a bare ConfigProvider (same theme hash on the components)', () => {
    const html = (Provider: Provider) => renderToString(<Provider theme={appTheme('#F5222D')}><Button>x</Button></Provider>);
    expect(html(ThemedConfigProvider)).toBe(html(ConfigProvider as Provider));
  });
});
