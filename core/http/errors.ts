import type { AxiosError, AxiosResponse } from 'axios';
import { getDefaultStore } from 'jotai';
import { axiosInstance, type Envelope } from '@core/http/client';
import { tokenAtom } from '@core/session/store';
import { feedback, whenFeedback } from '@core/feedback';
import { clearSession, logout, loginRedirectUrl } from '@core/session/actions';

const EXPIRED_TITLE = '登录已过期';
export const EXPIRED_TEXT = '很抱歉，登录已过期，请重新登录';
let expiryShown = false;

/** The enterprise-messaging in-app browser (WeCom / DingTalk) cannot show the modal flow well. */
export const isEnterpriseBrowser = () => /wxwork|dingtalk/i.test(navigator.userAgent);

function currentPath() {
  return window.location.pathname + window.location.search;
}

/** The token-expiry flow of SPEC §8: one modal at a time; 重新登录 logs out and goes to sign-in with a redirect. */
export function showTokenExpired() {
  if (expiryShown) return;
  expiryShown = true;
  const back = loginRedirectUrl(currentPath());
  if (isEnterpriseBrowser()) {
    whenFeedback(() => feedback.message.loading('登录已过期，正在重新登陆', 0));
    void logout().finally(() => window.location.assign(back));
    return;
  }
  whenFeedback(() =>
    feedback.modal.error({
      title: EXPIRED_TITLE,
      content: EXPIRED_TEXT,
      okText: '重新登录',
      mask: true,
      closable: false,
      keyboard: false,
      maskClosable: false,
      onOk: async () => {
        // The server already rejected the token: drop it locally without waiting on the network.
        clearSession();
        window.location.assign(back);
      },
    }),
  );
}

async function bodyOf(data: unknown): Promise<Partial<Envelope> | undefined> {
  if (data instanceof Blob) {
    try {
      return JSON.parse(await data.text()) as Envelope;
    } catch {
      return undefined;
    }
  }
  return data && typeof data === 'object' ? (data as Envelope) : undefined;
}

const tokenExpiredMsg = (m?: string) => !!m && m.includes('Token失效');

/** Installs the SPEC §8 error handling on the shared axios instance (once). */
let installed = false;
export function installHttpErrorHandling() {
  if (installed) return;
  installed = true;
  axiosInstance.interceptors.response.use(
    async (r: AxiosResponse) => {
      const hasToken = !!getDefaultStore().get(tokenAtom);
      if (hasToken && r.config.responseType === 'blob') {
        const b = await bodyOf(r.data);
        if (b && Number(b.code) === 500 && tokenExpiredMsg(b.message)) showTokenExpired();
      } else if (hasToken && r.data && Number(r.data.code) === 500 && tokenExpiredMsg(r.data.message)) {
        showTokenExpired();
      }
      return r;
    },
    async (err: AxiosError) => {
      const hasToken = !!getDefaultStore().get(tokenAtom);
      const status = err.response?.status;
      const body = await bodyOf(err.response?.data);
      const msg = body?.message;
      const notify = (description: string) => whenFeedback(() => feedback.notification.error({ message: '系统提示', description }));
      // A caller that handles an unreachable network itself (an offline draft's sync) asks for no popup.
      if (!status && (err.config as { quiet?: boolean } | undefined)?.quiet) return Promise.reject(err);
      if (err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT' || status === 504) notify('网络超时');
      else if (status === 401 || (status === 500 && tokenExpiredMsg(msg))) {
        if (hasToken) showTokenExpired();
      } else if (status === 403) notify('拒绝访问');
      else if (status === 404) notify('很抱歉，资源未找到!');
      else if (status) notify(msg || `请求失败（${status}）`);
      else whenFeedback(() => feedback.message.error(err.message || '网络错误'));
      return Promise.reject(err);
    },
  );
}

/** The message to show for a failed call: the server's envelope message, else the error's text. */
export function errorText(e: unknown): string {
  const ax = e as AxiosError<Envelope>;
  return ax?.response?.data?.message || (e instanceof Error ? e.message : String(e));
}
