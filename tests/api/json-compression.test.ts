import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { API, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login('supervisor');
});
afterAll(() => s?.close());

describe('API answers compressed (server/http/compress.ts)', () => {
  it('sends a large JSON answer brotli- or gzip-compressed to a client that accepts it, the same JSON once decoded; small answers and other clients as they are', async () => {
    const url = `${API}/schema/boot?path=${encodeURIComponent('/lecture/scan')}`;
    const plain = await s.get(url, token, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().success).toBe(true);
    // Each envelope carries the time it was answered.
    const same = (text: string) => text.replace(/"timestamp":\d+/g, '"timestamp":0');
    expect(plain.rawPayload.length).toBeGreaterThan(10_000);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const r = await s.get(url, token, { 'accept-encoding': accept });
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(r.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(r.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 4);
      expect(same(decode(r.rawPayload).toString()), accept).toBe(same(plain.body));
    }
    // A small answer (under a packet) is not worth compressing.
    const health = await s.get(`${API}/actuator/health`, undefined, { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'UP' });
  });
});
