import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { API, startTestServer, type TestServer, fileTestServer } from '../helpers/server.js';

const s = fileTestServer();

describe('foundation', () => {
  it('reports UP once prepared', async () => {
    const r = await s.get(`${API}/actuator/health`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'UP' });
  });

  it('declares an auth rule on every route', () => {
    const missing = s.running.routes.filter((r) => r.auth === undefined);
    expect(missing).toEqual([]);
    expect(s.running.routes.length).toBeGreaterThan(1);
  });

  it('answers unknown API paths with the 404 envelope', async () => {
    const r = await s.get(`${API}/no/such/thing`);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ success: false, code: 404, message: '很抱歉，资源未找到!' });
  });
});

describe('serving the built front end', () => {
  const INLINE = 'window.__early = 1;';
  const SCAN_INLINE = 'window.__early = 2;';
  let web: TestServer;
  beforeAll(async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = mkdtempSync(join(tmpdir(), 'dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><head><script>${INLINE}</script></head><div id="root"></div>`);
    // The light entry of 扫码听课 (app/scan.tsx): its own page and inline script.
    writeFileSync(join(dist, 'scan.html'), `<!doctype html><head><script>${SCAN_INLINE}</script></head><div id="root" data-entry="scan"></div>`);
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    // What the build writes beside an asset (vite.config.ts, `precompress`).
    writeFileSync(join(dist, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(join(dist, 'assets', 'app.js.gz'), gzipSync('console.log(1)'));
    web = await startTestServer({ staticDir: dist });
  });
  afterAll(() => web?.close());

  it('answers the root, any client route and assets; the index page carries a CSP without unsafe-eval', async () => {
    for (const path of ['/', '/dashboard/analysis', '/user/login?redirect=%2Fx']) {
      const r = await web.get(path);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/text\/html/);
      expect(r.body).toContain('<div id="root">');
      expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(String(r.headers['content-security-policy'])).not.toContain('unsafe-eval');
      // The page's one inline script (the build's early requests) is allowed by its hash, nothing else inline.
      expect(String(r.headers['content-security-policy'])).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(INLINE).digest('base64')}';`);
      expect(String(r.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    const js = await web.get('/assets/app.js');
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect((await web.get('/missing.js')).statusCode).toBe(404);
    // One route per built file: nothing outside the build and no other spelling of a file is served.
    for (const path of ['/assets/missing.js', '/assets/APP.JS', '/assets/..%2findex.html'])
      expect((await web.get(path)).statusCode, path).not.toBe(200);
  });

  it('answers /lecture/scan (a classroom QR code) with the light entry page, under a CSP allowing its own inline script; other paths with the main page', async () => {
    const hash = (x: string) => `'sha256-${createHash('sha256').update(x).digest('base64')}'`;
    for (const path of ['/lecture/scan?room=abc', '/lecture/scan']) {
      const r = await web.get(path);
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('data-entry="scan"');
      expect(String(r.headers['content-security-policy'])).toContain(`script-src 'self' ${hash(SCAN_INLINE)};`);
      expect(r.headers['cache-control']).toBe('no-cache');
    }
    for (const path of ['/lecture/scanner', '/lecture/today', '/scan.html']) {
      const r = await web.get(path);
      expect(r.body, path).not.toContain('data-entry="scan"');
    }
  });

  it('sends an asset precompressed to a browser that accepts it, the same bytes once decoded; the compressed files are no routes', async () => {
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['identity', undefined, (b: Buffer) => b],
    ] as const) {
      const r = await web.get('/assets/app.js', undefined, { 'accept-encoding': accept });
      expect(r.statusCode, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers['content-type'], accept).toMatch(/javascript/);
      expect(r.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(r.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable'); // hashed names: cached for good
      expect(decode(r.rawPayload).toString(), accept).toBe('console.log(1)');
    }
    for (const path of ['/assets/app.js.br', '/assets/app.js.gz']) expect((await web.get(path)).statusCode, path).toBe(404);
  });
});
