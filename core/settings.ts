import { atomWithStorage } from 'jotai/utils';
import { jsonStorage } from '@core/session/storage';
import { DEFAULT_PRIMARY_COLOR } from '@core/theme';

/** The eight named primary colours of the settings drawer (SPEC §2). */
export const PRIMARY_COLORS = [
  { name: '拂晓蓝', color: DEFAULT_PRIMARY_COLOR },
  { name: '薄暮', color: '#F5222D' },
  { name: '火山', color: '#FA541C' },
  { name: '日暮', color: '#FAAD14' },
  { name: '明青', color: '#13C2C2' },
  { name: '极光绿', color: '#52C41A' },
  { name: '极客蓝', color: '#2F54EB' },
  { name: '酱紫', color: '#722ED1' },
] as const;

export interface AppSettings {
  navTheme: 'dark' | 'light';
  primaryColor: string;
  layout: 'sidemenu' | 'topmenu';
  contentWidth: 'Fixed' | 'Fluid';
  fixedHeader: boolean;
  autoHideHeader: boolean;
  fixSiderbar: boolean;
  colorWeak: boolean;
  multipage: boolean;
  /** Sidebar collapsed (persisted toggle, SPEC §2). */
  collapsed: boolean;
}

/** SPEC §9 defaults, except multipage on: see docs/decisions.md. */
export const DEFAULT_SETTINGS: AppSettings = {
  navTheme: 'dark',
  primaryColor: DEFAULT_PRIMARY_COLOR,
  layout: 'sidemenu',
  contentWidth: 'Fixed',
  fixedHeader: true,
  autoHideHeader: true,
  fixSiderbar: true,
  colorWeak: false,
  multipage: true,
  collapsed: false,
};

export const SETTINGS_KEY = 'APP_SETTINGS';

const base = jsonStorage<Partial<AppSettings>>(() => localStorage);
const NONE: Partial<AppSettings> = {};
/** Stored settings over the defaults: the same object while what is stored is the same (core/session/storage.ts). */
let merged: { stored: Partial<AppSettings>; value: AppSettings } | undefined;
const storage = {
  getItem: (key: string, initial: AppSettings): AppSettings => {
    const stored = base.getItem(key, NONE);
    if (merged?.stored !== stored) merged = { stored, value: { ...initial, ...stored } };
    return merged.value;
  },
  setItem: (key: string, value: AppSettings) => {
    base.setItem(key, value);
    merged = { stored: value, value };
  },
  removeItem: (key: string) => base.removeItem(key),
};

export const settingsAtom = atomWithStorage<AppSettings>(SETTINGS_KEY, DEFAULT_SETTINGS, storage, { getOnInit: true });

/** Applies the dependency rules of SPEC §2/§4 to a settings change. */
export function normalizeSettings(s: AppSettings): AppSettings {
  const n = { ...s };
  if (!n.fixedHeader) n.autoHideHeader = false;
  return n;
}
