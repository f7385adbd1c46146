import { createElement, forwardRef, lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';
import { moduleLoader, lazyModule } from '@core/ui/moduleLoader';
import { registerWidget } from './registry';

/**
 * Registers every widget by name (importing this module is enough). Each entry is lazy, so a page
 * loads only the widgets it uses; code may also import a widget module directly.
 */
type Loader = () => Promise<Record<string, unknown>>;

/**
 * A widget whose code loads on first render (a small spinner meanwhile). `preload()` starts the
 * download earlier; a widget whose code has arrived renders at once, without a Suspense round.
 */
export function lazyWidget(load: Loader, exportName: string): ComponentType<any> & { preload: () => Promise<unknown> } {
  const get = moduleLoader(load);
  const Lazy = lazy(() => lazyModule(get, (m) => m[exportName] as ComponentType<any>));
  const Wrapped = forwardRef<unknown, Record<string, unknown>>((props, ref) =>
    createElement(Suspense, { fallback: createElement(Spin, { size: 'small' }) }, createElement(Lazy, { ...props, ref })),
  );
  Wrapped.displayName = exportName;
  return Object.assign(Wrapped, { preload: get });
}

/** name → [module loader, export name]. */
export const WIDGETS: Record<string, [Loader, string]> = {
  JDictSelectTag: [() => import('./dict/JDictSelectTag'), 'JDictSelectTag'],
  JDictTag: [() => import('./dict/JDictSelectTag'), 'JDictTag'],
  JMultiSelectTag: [() => import('./dict/JMultiSelectTag'), 'JMultiSelectTag'],
  JSearchSelectTag: [() => import('./dict/JSearchSelectTag'), 'JSearchSelectTag'],
  JSwitch: [() => import('./dict/JSwitch'), 'JSwitch'],
  JTreeDict: [() => import('./dict/JTreeDict'), 'JTreeDict'],
  JCategorySelect: [() => import('./dict/JTreeDict'), 'JCategorySelect'],
  JSelectUserByDep: [() => import('./pickers/JSelectUser'), 'JSelectUserByDep'],
  JSelectUser: [() => import('./pickers/JSelectUser'), 'JSelectUser'],
  JSearchUser: [() => import('./pickers/JSearchUser'), 'JSearchUser'],
  JSelectDepart: [() => import('./pickers/JSelectDepart'), 'JSelectDepart'],
  JSelectRole: [() => import('./pickers/JSelectRecords'), 'JSelectRole'],
  JSelectPosition: [() => import('./pickers/JSelectRecords'), 'JSelectPosition'],
  JPopup: [() => import('./pickers/JPopup'), 'JPopup'],
  JSelectBizComponent: [() => import('./pickers/JSelectBizComponent'), 'JSelectBizComponent'],
  JAreaLinkage: [() => import('./area/JAreaLinkage'), 'JAreaLinkage'],
  JUpload: [() => import('./upload/JUpload'), 'JUpload'],
  JImageUpload: [() => import('./upload/JUpload'), 'JImageUpload'],
  JFilePop: [() => import('./upload/JFilePop'), 'JFilePop'],
  JEasyCron: [() => import('./cron/JEasyCron'), 'JEasyCron'],
  JCron: [() => import('./cron/JEasyCron'), 'JCron'],
  JMarkdownEditor: [() => import('./editors/JMarkdownEditor'), 'JMarkdownEditor'],
  JEditor: [() => import('./editors/JEditor'), 'JEditor'],
  JCodeEditor: [() => import('./editors/JCodeEditor'), 'JCodeEditor'],
  JSlider: [() => import('./inputs/JSlider'), 'JSlider'],
  JPrompt: [() => import('./inputs/JPrompt'), 'JPrompt'],
  JEllipsis: [() => import('./inputs/JEllipsis'), 'JEllipsis'],
  JInputTags: [() => import('./inputs/JInputTags'), 'JInputTags'],
  JInputNumber: [() => import('./inputs/JInputNumber'), 'JInputNumber'],
  JDate: [() => import('./inputs/JDate'), 'JDate'],
  JTime: [() => import('./inputs/JDate'), 'JTime'],
  JDetailsModal: [() => import('./inputs/JDetailsModal'), 'JDetailsModal'],
  JSubTablePopover: [() => import('./inputs/JSubTablePopover'), 'JSubTablePopover'],
  JEditableTable: [() => import('./table/JEditableTable'), 'JEditableTable'],
  TimetableGrid: [() => import('./timetable/TimetableGrid'), 'TimetableGrid'],
};

for (const [name, [load, exp]] of Object.entries(WIDGETS)) registerWidget(name, lazyWidget(load, exp));

export { getWidget, allWidgets, registerWidget } from './registry';

// Lecture observation (widgets/domain): the record form's lesson picker and index scoring, the index systems' tree editor.
WIDGETS.LessonPicker = [() => import('./domain/LessonPicker'), 'LessonPicker'];
WIDGETS.IndexScoreForm = [() => import('./domain/IndexScoreForm'), 'IndexScoreForm'];
WIDGETS.IndexTreeEditor = [() => import('./domain/IndexTreeEditor'), 'IndexTreeEditor'];
// The phone observation form (扫码听课, issue 30): lesson on now, index-by-index scoring, offline draft.
WIDGETS.LectureMobile = [() => import('./domain/LectureMobile'), 'LectureMobile'];
for (const n of ['LessonPicker', 'IndexScoreForm', 'IndexTreeEditor', 'LectureMobile']) registerWidget(n, lazyWidget(WIDGETS[n]![0], n));

// System administration (widgets/admin): user role/department fields, menu parent and icon.
WIDGETS.UserRoleSelect = [() => import('./admin/UserRelations'), 'UserRoleSelect'];
WIDGETS.UserDepartSelect = [() => import('./admin/UserRelations'), 'UserDepartSelect'];
WIDGETS.PermissionParentSelect = [() => import('./admin/PermissionParentSelect'), 'PermissionParentSelect'];
WIDGETS.MenuIconSelect = [() => import('./admin/MenuIconSelect'), 'MenuIconSelect'];
for (const n of ['UserRoleSelect', 'UserDepartSelect', 'PermissionParentSelect', 'MenuIconSelect']) registerWidget(n, lazyWidget(WIDGETS[n]![0], n));

// Demo page body of the dialog widgets (schemas/pages/demo/widgets/dialogs.json).
WIDGETS.DialogWidgetsDemo = [() => import('./inputs/DialogWidgetsDemo'), 'DialogWidgetsDemo'];
registerWidget('DialogWidgetsDemo', lazyWidget(WIDGETS.DialogWidgetsDemo[0], 'DialogWidgetsDemo'));
WIDGETS['cell:rate'] = [() => import('./domain/cells'), 'RateCell'];
registerWidget('cell:rate', lazyWidget(WIDGETS['cell:rate'][0], 'RateCell'));

// A notice as readable text with a button to what it is about (我的消息's 查看; the header's notice dialog uses it too).
WIDGETS.NoticeView = [() => import('./notice/NoticeView'), 'NoticeView'];
registerWidget('NoticeView', lazyWidget(WIDGETS.NoticeView[0], 'NoticeView'));

// Statistics screens (widgets/statistics): the summary above the 听课频次/听课成绩 lists, drill-down number cells.
WIDGETS.ReportSummary = [() => import('./statistics/ReportSummary'), 'ReportSummary'];
WIDGETS['cell:drill'] = [() => import('./statistics/DrillCell'), 'DrillCell'];
registerWidget('ReportSummary', lazyWidget(WIDGETS.ReportSummary[0], 'ReportSummary'));
registerWidget('cell:drill', lazyWidget(WIDGETS['cell:drill'][0], 'DrillCell'));

// Account (widgets/account): 个人设置's 个性化 section (this browser's display settings).
WIDGETS.AppearanceSettings = [() => import('./account/AppearanceSettings'), 'AppearanceSettings'];
registerWidget('AppearanceSettings', lazyWidget(WIDGETS.AppearanceSettings[0], 'AppearanceSettings'));

// Online documents (widgets/document, issue 29): the collaborative editor page body (TipTap + Yjs, loaded only here).
WIDGETS.DocumentEditor = [() => import('./document/DocumentEditor'), 'DocumentEditor'];
registerWidget('DocumentEditor', lazyWidget(WIDGETS.DocumentEditor[0], 'DocumentEditor'));
// 审批流程 (widgets/workflow): bpmn-js is loaded only with these modules.
WIDGETS.WorkflowModeler = [() => import('./workflow/WorkflowModeler'), 'WorkflowModeler'];
WIDGETS.WorkflowInstanceView = [() => import('./workflow/WorkflowInstanceView'), 'WorkflowInstanceView'];
registerWidget('WorkflowModeler', lazyWidget(WIDGETS.WorkflowModeler[0], 'WorkflowModeler'));
registerWidget('WorkflowInstanceView', lazyWidget(WIDGETS.WorkflowInstanceView[0], 'WorkflowInstanceView'));
