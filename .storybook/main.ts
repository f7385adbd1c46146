import type { StorybookConfig } from '@storybook/react-vite';
import { alias } from '../vite.config.ts';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../widgets/**/*.stories.tsx'],
  core: { disableTelemetry: true },
  async viteFinal(cfg) {
    // Aliases come as a list (vite.config.ts) or a map (ours): one list.
    const list = (a: unknown) => (Array.isArray(a) ? a : Object.entries((a ?? {}) as Record<string, string>).map(([find, replacement]) => ({ find, replacement })));
    cfg.resolve = { ...cfg.resolve, alias: [...list(cfg.resolve?.alias), ...list(alias)] };
    cfg.define = { ...cfg.define, __API_BASE__: JSON.stringify('/jeecg-boot') };
    // Stories draw under their own theme: antd's pre-built styles (the app's build only) do not apply; the
    // static Storybook is not served by our server, so its files need no precompressed copies.
    const appOnly = new Set(['antd-static-styles', 'precompress']);
    cfg.plugins = (cfg.plugins ?? []).flat(Infinity).filter((p) => !(p && typeof p === 'object' && 'name' in p && appOnly.has(p.name as string)));
    return cfg;
  },
};
export default config;
