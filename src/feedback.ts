import type { useAppProps } from 'antd/es/app/context';

/**
 * antd's context-aware message/notification/modal, captured once under <App> (see App.tsx) so code
 * outside React (HTTP interceptors, session actions) shows themed, localised feedback.
 */
export const feedback = {} as Pick<useAppProps, 'message' | 'notification' | 'modal'>;

export function setFeedback(api: useAppProps) {
  feedback.message = api.message;
  feedback.notification = api.notification;
  feedback.modal = api.modal;
}
