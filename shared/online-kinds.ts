/** Online form / report list components (SPEC §2) → the built-in list kinds of the renderer (page `online/<kind>`). */
export const ONLINE_KINDS: Record<string, string> = {
  'modules/online/cgform/OnlCgformHeadList': 'head',
  'modules/online/cgform/OnlCgformCopyList': 'copy',
  'modules/online/cgform/auto/OnlCgformAutoList': 'auto',
  'modules/online/cgform/auto/OnlCgformTreeList': 'tree',
  'modules/online/cgform/auto/erp/OnlCgformErpList': 'erp',
  'modules/online/cgform/auto/tab/OnlCgformTabList': 'tab',
  'modules/online/cgform/auto/innerTable/OnlCgformInnerTableList': 'innerTable',
  'modules/online/cgreport/OnlCgreportHeadList': 'reportHead',
  'modules/online/cgreport/auto/OnlCgreportAutoList': 'reportAuto',
};

export function onlineKind(component?: string): string | undefined {
  if (!component) return undefined;
  return ONLINE_KINDS[component.replace(/^\/+/, '').replace(/\.vue$/, '')];
}
