import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { appTheme, DEFAULT_PRIMARY_COLOR, mapTokenOf, withBuiltMapToken, type MapTokenOf } from '@core/theme';

/** What the build puts into `virtual:antd-map-token` (scripts/antd-styles.tsx): the default theme's map token, through JSON. */
const built = JSON.parse(JSON.stringify(mapTokenOf(appTheme(DEFAULT_PRIMARY_COLOR)))) as MapTokenOf;

describe("antd's map token derived at build time (core/theme.ts)", () => {
  it('gives antd the very design token its own algorithm gives, for the default theme and for another primary colour', () => {
    for (const colour of [DEFAULT_PRIMARY_COLOR, '#F5222D']) {
      const config = appTheme(colour);
      expect(theme.getDesignToken(withBuiltMapToken(config, built))).toEqual(theme.getDesignToken(config));
    }
  });

  it('is what antd uses for the seed it passes (the default seed with the theme tokens)', () => {
    const marked = { seed: built.seed, map: { ...built.map, colorPrimaryBg: '#123456' } };
    expect(theme.getDesignToken(withBuiltMapToken(appTheme(DEFAULT_PRIMARY_COLOR), marked)).colorPrimaryBg).toBe('#123456');
    expect(theme.getDesignToken(withBuiltMapToken(appTheme('#F5222D'), marked)).colorPrimaryBg).not.toBe('#123456');
  });

  it('answers the seed it was derived for with a copy of the built map token, and derives any other seed', () => {
    const algorithm = withBuiltMapToken(appTheme(DEFAULT_PRIMARY_COLOR), built).algorithm as unknown as (seed: unknown) => Record<string, unknown>;
    const first = algorithm({ ...built.seed });
    expect(first).toEqual(built.map);
    expect(first).not.toBe(built.map);
    first.colorPrimary = '#000000';
    expect(algorithm({ ...built.seed }).colorPrimary).toBe(built.map.colorPrimary); // a caller's change does not stick
    const other = { ...built.seed, colorPrimary: '#F5222D' };
    expect(algorithm(other)).toEqual(theme.defaultAlgorithm(other as never));
  });

  it('leaves the theme as it is without a built token (development)', () => {
    const config = appTheme(DEFAULT_PRIMARY_COLOR);
    expect(withBuiltMapToken(config, null)).toBe(config);
  });
});
