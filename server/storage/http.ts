import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, FileStorage } from './types.js';

/**
 * One `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14): the inclusive range,
 * `undefined` to send the whole file (no header, a multi-range or another unit), or `'unsatisfiable'` (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | 'unsatisfiable' {
  if (!header) return undefined;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return undefined;
  if (!m[1]) {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (m[2] && Number(m[2]) < start) return undefined; // invalid: ignored, the whole file is sent
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Sends a stored object (whole, or the requested range with 206 + Content-Range); headers such as the type and the disposition are set by the caller. */
export async function sendStored(req: FastifyRequest, reply: FastifyReply, storage: FileStorage, key: string, size: number) {
  reply.header('Accept-Ranges', 'bytes');
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${size}`);
    return reply.status(416).type('text/plain').send('');
  }
  if (range) {
    reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`).header('Content-Length', String(range.end - range.start + 1));
    return reply.send(await storage.get(key, range));
  }
  reply.header('Content-Length', String(size));
  return reply.send(await storage.get(key));
}
