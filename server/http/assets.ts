import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Negotiator } from '@fastify/accept-negotiator';
import { isUtf8MimeType, mime } from '@fastify/send';
import type { FastifyInstance } from 'fastify';

/** The Content-Type @fastify/static sends for a file (its @fastify/send's table and charset rule). */
function contentType(name: string): string {
  const type = mime.getType(name) ?? 'application/octet-stream';
  return isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}

interface Asset {
  type: string;
  /** The file as built, and its `.br`/`.gz` siblings when the build wrote them (vite.config.ts, `precompress`). */
  bodies: Partial<Record<'identity' | 'br' | 'gzip', Buffer>>;
}

/**
 * The build's hashed files (`<dist>/assets`), read once at start and answered from memory: their names
 * change with their content, so they never change while the server runs. A page load asks for about
 * ten of them; from disk each cost a stat, an open, reads and a close (a list page's files: 16 → 4.6 ms
 * of server CPU, docs/architecture.md "Serving the build"). A browser that accepts brotli or gzip gets
 * the precompressed body. ~9 MB for the whole build, all encodings.
 */
export function registerAssets(app: FastifyInstance, dist: string): void {
  const dir = join(dist, 'assets');
  const assets = new Map<string, Asset>();
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    return; // a build without assets
  }
  for (const name of names) {
    if (/\.(br|gz)$/.test(name) || !statSync(join(dir, name)).isFile()) continue;
    const bodies: Asset['bodies'] = { identity: readFileSync(join(dir, name)) };
    for (const [suffix, encoding] of [['.br', 'br'], ['.gz', 'gzip']] as const)
      if (names.has(name + suffix)) bodies[encoding] = readFileSync(join(dir, name + suffix));
    assets.set(name, { type: contentType(name), bodies });
  }
  const negotiator = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'], cache: new Map() });

  app.get('/assets/:name', { config: { auth: 'public' } }, (req, reply) => {
    const asset = assets.get((req.params as { name: string }).name);
    if (!asset) return reply.callNotFound();
    const wanted = negotiator.negotiate(req.headers['accept-encoding'] ?? 'identity') as keyof Asset['bodies'] | null;
    const encoding = wanted && asset.bodies[wanted] ? wanted : 'identity';
    reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding').type(asset.type);
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    return reply.send(asset.bodies[encoding]);
  });
}
