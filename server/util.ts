import { createHash, randomBytes, randomUUID } from 'node:crypto';
import dayjs from 'dayjs';

/** A new 32-character string id (ids are strings on the wire). */
export const newId = () => randomUUID().replace(/-/g, '');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
/** Now as stored and sent: 'YYYY-MM-DD HH:mm:ss' in the server's time zone. */
export const now = () => dayjs().format('YYYY-MM-DD HH:mm:ss');
export const fmt = (d: dayjs.Dayjs | Date) => dayjs(d).format('YYYY-MM-DD HH:mm:ss');
