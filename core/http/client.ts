import axios, { type AxiosProgressEvent, type AxiosRequestConfig } from 'axios';
import { getDefaultStore } from 'jotai';
import { md5 } from 'js-md5';
import { tenantAtom, tokenAtom } from '@core/session/store';

/**
 * The one HTTP client (SPEC §7). Every call resolves to the JeecgBoot envelope; callers test
 * `success`. Error statuses are turned into the SPEC §8 messages by the interceptors in
 * `core/http/errors.ts` (installed by the app shell).
 */
export interface Envelope<T = any> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp?: number;
}

export interface PageResult<T = any> {
  records: T[];
  total: number;
  size?: number;
  current?: number;
  pages?: number;
}

export const API_BASE = typeof __API_BASE__ === 'string' ? __API_BASE__ : '/jeecg-boot';
export const REQUEST_TIMEOUT = 300_000;

declare module 'axios' {
  interface AxiosRequestConfig {
    /** false: this request carries no X-Access-Token (the upload `token` flag of SPEC §6). Default true. */
    withToken?: boolean;
  }
}

/**
 * The newest file token: short-lived, good only for file GETs, sent by the server as `X-File-Token` on
 * every signed-in answer (server/auth/file-token.ts), kept with the session token it belongs to.
 */
let fileToken = { token: '', session: '' };

/** `url` with the current session's file token as `?token=` (for links and images, which cannot send headers). */
export function withFileToken(url: string): string {
  const session = getDefaultStore().get(tokenAtom);
  const token = session && fileToken.session === session ? fileToken.token : '';
  return token ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url;
}

/**
 * The browser URL of a stored file (`/sys/common/static/<path>`) for `<img src>` and links, which
 * cannot send headers: it carries the file token as `?token=` — never the session token (docs/decisions.md).
 * Absolute, data and blob URLs pass through. Never store its result (it holds the token).
 */
export function fileUrl(path: string): string {
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return withFileToken(`${API_BASE}/sys/common/static/${path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/')}`);
}

/** Stored rich text keeps plain file paths; for display its images get the file token (see fileUrl). */
export function withFileTokens(html: string): string {
  const prefix = `${API_BASE}/sys/common/static/`;
  return html.replace(/(\ssrc=")([^"?]+)"/g, (m, attr: string, src: string) => {
    if (!src.startsWith(prefix)) return m;
    try {
      return `${attr}${fileUrl(decodeURIComponent(src.slice(prefix.length)))}"`;
    } catch {
      return m; // a malformed escape: leave the link as it is
    }
  });
}

// No XSRF cookie: the API authenticates by the X-Access-Token header (not a cookie), and reading the cookie
// would make axios wait for the browser's async cookie store before each send — a task delayed by any render.
export const axiosInstance = axios.create({ baseURL: API_BASE, timeout: REQUEST_TIMEOUT, withXSRFToken: false });

axiosInstance.interceptors.request.use((config) => {
  const store = getDefaultStore();
  const token = store.get(tokenAtom);
  if (token && config.withToken !== false) config.headers.set('X-Access-Token', token);
  config.headers.set('tenant-id', String(store.get(tenantAtom) ?? 0));
  const low = lowAppId();
  if (low) config.headers.set('X-Low-App-ID', low);
  // Every GET except dictionary-item lookups carries a _t cache-buster (seconds).
  if ((config.method ?? 'get').toLowerCase() === 'get' && !/\/sys\/dict\/getDictItems\//.test(config.url ?? '')) {
    config.params = { ...(config.params ?? {}), _t: Math.floor(Date.now() / 1000) };
  }
  return config;
  // Synchronous: the request is sent within the caller's task, not after the microtasks of a long one (the boot's module evaluation).
}, undefined, { synchronous: true });

axiosInstance.interceptors.response.use((r) => {
  const ft = r.headers?.['x-file-token'];
  const sent = r.config?.headers?.get?.('X-Access-Token');
  if (typeof ft === 'string' && ft && typeof sent === 'string' && sent) fileToken = { token: ft, session: sent };
  return r;
});

let lowAppIdSource: () => string | undefined = () => undefined;
/** The shell registers how to read the low-code app id of the current route (routes named low-app*). */
export function setLowAppIdSource(fn: () => string | undefined) {
  lowAppIdSource = fn;
}
const lowAppId = () => lowAppIdSource();

type Params = Record<string, unknown>;

/** Signing secret (jeecg-contract §11), set from configuration when the server checks signatures. */
let signSecret = '';
export function setSignSecret(secret: string) {
  signSecret = secret;
}

/**
 * X-Sign of SPEC §7: MD5 of the JSON of the sorted merged query and body parameters (without _t) plus
 * the secret, upper case; a comma-separated last path segment is added as `x-path-variable`.
 */
export function computeSign(url: string, params: Params): string {
  const merged: Params = { ...params };
  const last = decodeURIComponent(url.split('?')[0]!.split('/').pop() ?? '');
  if (last.includes(',')) merged['x-path-variable'] = last;
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(merged).sort()) {
    if (k === '_t') continue;
    const v = merged[k];
    sorted[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return md5(JSON.stringify(sorted) + signSecret).toUpperCase();
}

const pad = (n: number) => String(n).padStart(2, '0');
/**
 * JeecgBoot's X-TIMESTAMP: yyyyMMddHHmmss. Our own calls send milliseconds (the server accepts both): a
 * signed request is accepted once, and two identical lookups within one second must not collide.
 */
export function signTimestamp(d = new Date()) {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

function signed(method: string, url: string, params: Params | undefined, data: Params | undefined, config?: AxiosRequestConfig) {
  const headers = { ...(config?.headers as Record<string, string> | undefined), 'X-Sign': computeSign(url, { ...(params ?? {}), ...(data ?? {}) }), 'X-TIMESTAMP': String(Date.now()) };
  return call({ ...config, method, url, params, data, headers });
}

async function call<T>(config: AxiosRequestConfig): Promise<Envelope<T>> {
  const r = await axiosInstance.request<Envelope<T>>(config);
  return r.data;
}

export const http = {
  get: <T = any>(url: string, params?: Params, config?: AxiosRequestConfig) => call<T>({ ...config, method: 'GET', url, params }),
  post: <T = any>(url: string, data?: unknown, config?: AxiosRequestConfig) => call<T>({ ...config, method: 'POST', url, data }),
  put: <T = any>(url: string, data?: unknown, config?: AxiosRequestConfig) => call<T>({ ...config, method: 'PUT', url, data }),
  delete: <T = any>(url: string, params?: Params, config?: AxiosRequestConfig) => call<T>({ ...config, method: 'DELETE', url, params }),
  /** Signed helpers (X-Sign, X-TIMESTAMP). */
  signedGet: <T = any>(url: string, params?: Params, config?: AxiosRequestConfig) => signed('GET', url, params, undefined, config) as Promise<Envelope<T>>,
  signedPost: <T = any>(url: string, data?: Params, config?: AxiosRequestConfig) => signed('POST', url, undefined, data, config) as Promise<Envelope<T>>,
  signedRequest: <T = any>(method: string, url: string, params?: Params, data?: Params, config?: AxiosRequestConfig) => signed(method, url, params, data, config) as Promise<Envelope<T>>,
  /** Unsigned POST with query params (JeecgBoot `postActionUrl`-style). */
  postParams: <T = any>(url: string, params?: Params, config?: AxiosRequestConfig) => call<T>({ ...config, method: 'POST', url, params }),
  /** Multipart upload with progress (files[] or file fields are the caller's choice); `config.withToken: false` sends no token. */
  upload: <T = any>(url: string, form: FormData, onProgress?: (percent: number) => void, config?: AxiosRequestConfig) =>
    call<T>({
      ...config,
      method: 'POST',
      url,
      data: form,
      onUploadProgress: (e: AxiosProgressEvent) => onProgress?.(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
    }),
  /** Blob GET saved under the caller's file name; an empty or JSON answer is an error ('文件下载失败'). */
  async download(url: string, params: Params | undefined, fileName: string): Promise<void> {
    const r = await axiosInstance.request<Blob>({ method: 'GET', url, params, responseType: 'blob' });
    const blob = r.data;
    if (!blob || blob.size === 0) throw new Error('文件下载失败');
    if (blob.type.includes('application/json')) {
      const body = JSON.parse(await blob.text()) as Envelope;
      throw new Error(body.message || '文件下载失败');
    }
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(href);
  },
};
