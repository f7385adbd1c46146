import { AllCommunityModule, createGrid, ModuleRegistry, themeQuartz, type ColDef } from 'ag-grid-community';
import { DEMO_COLUMNS, demoRows } from '@widgets/table/demo-data';
import type { Row } from '@widgets/table/model';

/**
 * The floors of the editable-table bench: vanilla AG Grid (no React) showing the same 1,000 rows and
 * columns at the same row height, in a box of the same size — what this machine allows for the grid
 * itself. `?inputs=1`: every cell a native input (as the always-edit cells); `?pinned=1`: the
 * left-pinned selection column.
 */
ModuleRegistry.registerModules([AllCommunityModule]);
const q = new URLSearchParams(location.search);
const root = document.getElementById('root')!;
root.style.cssText = 'padding:16px;width:1400px';
const box = document.createElement('div');
box.style.height = `${Number(q.get('h') ?? 400)}px`;
root.append(box);
const input = (p: { value: unknown }) => {
  const i = document.createElement('input');
  i.value = String(p.value ?? '');
  i.style.cssText = 'width:100%;height:32px;box-sizing:border-box;border:1px solid #d9d9d9;border-radius:4px;padding:0 7px';
  return i;
};
const columnDefs: ColDef<Row>[] = DEMO_COLUMNS.filter((c) => c.type !== 'hidden').map((c) => ({
  field: c.key,
  headerName: c.title,
  width: c.width ?? 120,
  ...(q.get('inputs') ? { cellRenderer: input } : {}),
}));
createGrid<Row>(box, {
  theme: themeQuartz.withParams({ fontSize: 14, headerFontWeight: 600, wrapperBorderRadius: 4 }),
  rowData: demoRows(1000),
  columnDefs,
  rowHeight: 61,
  animateRows: false,
  ...(q.get('pinned') ? { rowSelection: { mode: 'multiRow' as const }, selectionColumnDef: { pinned: 'left' as const, width: 40 } } : {}),
});
