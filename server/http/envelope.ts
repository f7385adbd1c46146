/** The JeecgBoot response envelope (DESIGN §3). Clients test `success`; login success has code 200. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp: number;
}

export function ok<T>(result: T, message = '操作成功！', code = 200): Envelope<T> {
  return { success: true, message, code, result, timestamp: Date.now() };
}

export function fail(message: string, code = 500, result: unknown = null): Envelope {
  return { success: false, message, code, result, timestamp: Date.now() };
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

export function page<T>(records: T[], total: number, pageNo: number, pageSize: number): Page<T> {
  return { records, total, size: pageSize, current: pageNo, pages: pageSize > 0 ? Math.ceil(total / pageSize) : 0 };
}

/**
 * A business error: the request was understood but refused. `code` goes into the envelope,
 * `status` is the HTTP status (200 for ordinary business errors, per the contract).
 */
export class BizError extends Error {
  constructor(
    message: string,
    public readonly code = 500,
    public readonly status = 200,
    public readonly result: unknown = null,
  ) {
    super(message);
  }
}

export const Unauthorized = () => new BizError('Token失效，请重新登录!', 401, 401);
export const Forbidden = (message = '无权限访问(操作)！') => new BizError(message, 510, 200);
