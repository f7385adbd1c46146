import { lazy, Suspense, type ComponentType } from 'react';
import type { ActionSchema } from '@shared/page-schema';
import { registerAction } from './registry';

type Row = Record<string, unknown>;

/** What a dialog action's body gets: the action, the row (if any), the row with the page's bound parameters, and close. */
export interface DialogActionProps {
  action: ActionSchema;
  record?: Row;
  /** The page's bound parameters overlaid by the row: what `{field}` templates are filled from. */
  data: Row;
  rowKey: string;
  onClose: (changed: boolean) => void;
}

/**
 * Registers an action type whose body is a lazily loaded component in a bare dialog (the body draws its own
 * modal or drawer): `form`, `pick`, `treeAssign`, `importPreview`. `ready` says whether the action has what
 * it needs (else the click does nothing, like an action without its url).
 */
export function registerDialogAction(type: string, load: () => Promise<{ default: ComponentType<DialogActionProps> }>, ready: (a: ActionSchema) => boolean) {
  const Body = lazy(load);
  registerAction(type, (a, ctx) => {
    if (!ready(a)) return;
    const data = { ...ctx.params, ...(ctx.record ?? {}) };
    ctx.openDialog({
      kind: 'bare',
      title: a.title ?? a.label,
      render: (close) => (
        <Suspense fallback={null}>
          <Body action={a} record={ctx.record} data={data} rowKey={ctx.rowKey} onClose={close} />
        </Suspense>
      ),
    });
  });
}
