import { createElement, useMemo } from 'react';
import { ConfigProvider, theme, type ConfigProviderProps, type MappingAlgorithm, type ThemeConfig } from 'antd';
import { createTheme } from '@ant-design/cssinjs';

/** The default primary colour (拂晓蓝, SPEC §9). */
export const DEFAULT_PRIMARY_COLOR = '#1890FF';

/**
 * antd's theme for a primary colour: one definition for the app and for the build's static style
 * extraction (scripts/antd-styles.tsx), whose pre-built styles apply only to an identical theme.
 */
export const appTheme = (primary: string): ThemeConfig => ({
  algorithm: theme.defaultAlgorithm,
  token: { colorPrimary: primary, colorLink: primary, borderRadius: 4 },
});

type Token = Record<string, unknown>;
/** A theme's seed token and the map token antd's algorithms derive from it. */
export interface MapTokenOf {
  seed: Token;
  map: Token;
}

const algorithmsOf = (config: ThemeConfig) => [config.algorithm ?? theme.defaultAlgorithm].flat();
/** The seed antd derives `config`'s tokens from: its default seed with the theme's tokens over it. */
const seedOf = (config: ThemeConfig) => ({ ...theme.defaultSeed, ...config.token });
const derive = (algorithms: MappingAlgorithm[], seed: Token, map?: Token) =>
  algorithms.reduce<Token | undefined>((m, a) => a(seed as never, m as never) as unknown as Token, map)!;

/** The map token of `config`, derived as antd derives it: its algorithms in turn on antd's default seed with the theme's tokens. */
export function mapTokenOf(config: ThemeConfig): MapTokenOf {
  const seed = seedOf(config) as Token;
  return { seed, map: derive(algorithmsOf(config), seed) };
}

const sameValues = (a: Token, b: Token) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};

/**
 * `config` answering its seed with the map token the build derived for it (`mapTokenOf`, in
 * `virtual:antd-map-token`), so the browser does not work out antd's colour palettes while the first
 * screen renders; any other seed (another primary colour from the settings) is derived as before.
 */
export function withBuiltMapToken(config: ThemeConfig, built: MapTokenOf | null): ThemeConfig {
  if (!built) return config;
  const algorithms = algorithmsOf(config);
  const algorithm = ((seed: Token, map?: Token) => (sameValues(seed, built.seed) ? { ...built.map } : derive(algorithms, seed, map))) as unknown as MappingAlgorithm;
  return { ...config, algorithm };
}

/**
 * antd's ConfigProvider under a design-token context of its own theme. ConfigProvider styles the icon
 * reset with its parent's token, which at the top of the tree is antd's default theme: derived in the
 * browser (palettes, alias token, hash) for that one style alone. With the same theme above it, the
 * token is the app's, derived once for both (one definition for the app and the build's extraction).
 */
export function ThemedConfigProvider(props: ConfigProviderProps & { theme: ThemeConfig }) {
  const config = props.theme;
  const parent = useMemo(() => {
    // As ConfigProvider builds its own context: the seed, a theme of the same algorithms, hashed.
    const token = seedOf(config);
    return { theme: createTheme(algorithmsOf(config)), token, override: { override: token }, components: {}, hashed: true };
  }, [config]);
  return createElement(theme._internalContext.Provider, { value: parent }, createElement(ConfigProvider, props));
}
