import { useState, type ReactNode } from 'react';
import { App, Drawer, Modal } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useStableCallback } from '@core/ui/useStableCallback';
import type { ActionSchema } from '@shared/page-schema';
import { usePhoneDialog } from './phoneDialog';
import { actionHandler, type ActionContext, type ActionDialog, type Row } from './registry';

export type ActionBase = Omit<ActionContext, 'record' | 'openDialog' | 'message' | 'modal' | 'navigate'>;

const DRAWER_STYLES = { wrapper: { maxWidth: '100vw' } };

/** A dialog opened by an action: closing a drawer refreshes the page (its widget may have changed rows). */
function DialogHost({ dialog, close }: { dialog: ActionDialog; close: (changed?: boolean) => void }): ReactNode {
  const body = dialog.render(close);
  const sheet = usePhoneDialog(dialog.width ?? 520);
  if (dialog.kind === 'bare') return body;
  if (dialog.kind === 'drawer')
    return (
      // Never wider than the screen (a 960 px drawer on a phone would cut off its left part and its close button).
      <Drawer open title={dialog.title} width={dialog.width ?? 650} styles={DRAWER_STYLES} onClose={() => close(true)} destroyOnHidden>
        {body}
      </Drawer>
    );
  return (
    <Modal open title={dialog.title} {...sheet} footer={null} onCancel={() => close(false)} destroyOnHidden>
      {body}
    </Modal>
  );
}

/**
 * Runs actions through the action registry for a page: `run(action, record?)` finds the handler of the
 * action's type and gives it the page's services; `dialogs` draws what the handlers open.
 */
export function useActionRunner(base: () => ActionBase) {
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<{ d: ActionDialog; reload: () => void } | null>(null);
  const run = useStableCallback(async (a: ActionSchema, record?: Row) => {
    const type = a.type ?? a.key;
    const handler = actionHandler(type);
    if (!handler) {
      message.error(`未知的操作类型：${type}`);
      return;
    }
    const b = base();
    await handler(a, { ...b, record, message, modal, navigate, openDialog: (d) => setDialog({ d, reload: b.reload }) });
  });
  const dialogs = dialog && (
    <DialogHost
      dialog={dialog.d}
      close={(changed) => {
        setDialog(null);
        if (changed) dialog.reload();
      }}
    />
  );
  return { run, dialogs };
}
