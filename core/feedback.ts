import type { useAppProps } from 'antd/es/app/context';

/**
 * antd's context-aware message/notification/modal, captured once under <App> (see App.tsx) so code
 * outside React (HTTP interceptors, session actions) shows themed, localised feedback.
 */
export const feedback = {} as Pick<useAppProps, 'message' | 'notification' | 'modal'>;

const waiting: Array<() => void> = [];

export function setFeedback(api: useAppProps) {
  feedback.message = api.message;
  feedback.notification = api.notification;
  feedback.modal = api.modal;
  // After this commit (setFeedback runs in <App>'s layout effects; showing updates antd's holders).
  if (waiting.length) setTimeout(() => waiting.splice(0).forEach((show) => show()));
}

/**
 * Runs `show` (which uses `feedback`) now, or once <App> has rendered: the boot's requests
 * (app/boot.ts) can be answered — e.g. 401 for a revoked session — before the app's first render.
 */
export function whenFeedback(show: () => void) {
  if (feedback.modal) show();
  else waiting.push(show);
}
