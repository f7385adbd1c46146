import { theme, type ThemeConfig } from 'antd';

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
