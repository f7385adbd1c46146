import type { StorybookConfig } from '@storybook/react-vite';
import { alias } from '../vite.config.ts';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../widgets/**/*.stories.tsx'],
  core: { disableTelemetry: true },
  async viteFinal(cfg) {
    cfg.resolve = { ...cfg.resolve, alias: { ...(cfg.resolve?.alias as Record<string, string> | undefined), ...alias } };
    cfg.define = { ...cfg.define, __API_BASE__: JSON.stringify('/jeecg-boot') };
    // Stories draw under their own theme: antd's pre-built styles (the app's build only) do not apply.
    cfg.plugins = (cfg.plugins ?? []).flat(Infinity).filter((p) => !(p && typeof p === 'object' && 'name' in p && p.name === 'antd-static-styles'));
    return cfg;
  },
};
export default config;
