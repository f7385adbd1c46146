import type { StorybookConfig } from '@storybook/react-vite';
import { alias } from '../vite.config.ts';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../widgets/**/*.stories.tsx'],
  core: { disableTelemetry: true },
  async viteFinal(cfg) {
    cfg.resolve = { ...cfg.resolve, alias: { ...(cfg.resolve?.alias as Record<string, string> | undefined), ...alias } };
    cfg.define = { ...cfg.define, __API_BASE__: JSON.stringify('/jeecg-boot') };
    return cfg;
  },
};
export default config;
