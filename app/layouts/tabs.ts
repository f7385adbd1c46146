/** Pure tab-list rules of the tabbed layout (SPEC §2/§4), kept apart from React for unit tests. */
export interface PageTab {
  key: string;
  pathname: string;
  search: string;
  title: string;
  keepAlive: boolean;
  /** Bumped by refresh: re-creates the page. */
  version: number;
}

export const HOME_CLOSE_MSG = '首页不能关闭！';
export const LAST_CLOSE_MSG = '这是最后一页，不能再关闭了！';

/** Visiting a path adds a tab, revisiting updates it; with multi-tab off only the current page is kept. */
export function visit(tabs: PageTab[], tab: Omit<PageTab, 'version'>, multipage: boolean, homeKey: string): PageTab[] {
  const i = tabs.findIndex((t) => t.key === tab.key);
  if (!multipage) return [{ ...tab, version: i >= 0 ? tabs[i]!.version : 0 }];
  if (i >= 0) {
    const old = tabs[i]!;
    // Home with keepAlive off reloads on every visit; the same screen opened with other parameters
    // (one tab per path) is drawn again with them.
    const version = (tab.key === homeKey && !tab.keepAlive) || old.search !== tab.search ? old.version + 1 : old.version;
    if (old.title === tab.title && old.keepAlive === tab.keepAlive && version === old.version) return tabs;
    return tabs.map((t, j) => (j === i ? { ...tab, version } : t));
  }
  return [...tabs, { ...tab, version: 0 }];
}

export type CloseResult = { tabs: PageTab[]; activate?: string; error?: string };

/** Closes one tab; the home tab and the last tab cannot be closed. Closing the active tab selects its neighbour. */
export function closeTab(tabs: PageTab[], key: string, active: string, homeKey: string): CloseResult {
  if (key === homeKey) return { tabs, error: HOME_CLOSE_MSG };
  if (tabs.length <= 1) return { tabs, error: LAST_CLOSE_MSG };
  const i = tabs.findIndex((t) => t.key === key);
  if (i < 0) return { tabs };
  const next = tabs.filter((t) => t.key !== key);
  return { tabs: next, activate: key === active ? (next[i - 1] ?? next[i])!.key : undefined };
}

/** Context menu: close left / right / others of `key` (home always stays); `key` becomes active if the active tab went. */
export function closeMany(tabs: PageTab[], key: string, which: 'left' | 'right' | 'others', active: string, homeKey: string): CloseResult {
  const i = tabs.findIndex((t) => t.key === key);
  if (i < 0) return { tabs };
  const next = tabs.filter((t, j) => t.key === homeKey || t.key === key || (which === 'left' ? j > i : which === 'right' ? j < i : false));
  return { tabs: next, activate: next.some((t) => t.key === active) ? undefined : key };
}

export function refreshTab(tabs: PageTab[], key: string): PageTab[] {
  return tabs.map((t) => (t.key === key ? { ...t, version: t.version + 1 } : t));
}
