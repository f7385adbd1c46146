import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

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
