import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { EXACT_COUNT_LIMIT } from '../../server/crud/engine.js';
import { analyzeStaleTables } from '../../server/db/statistics.js';
import { fileTestServer } from '../helpers/server.js';

/**
 * Big tables stay cheap (bench/RESULTS.md): list totals are exact up to EXACT_COUNT_LIMIT matching
 * rows and estimated beyond; an export past the cap is refused with a clear message.
 */
const s = fileTestServer(['admin']);
const ROWS = 20_050;

beforeAll(async () => {
  const db = s.running.ctx.db;
  await sql`insert into demo_customer (id, name, code, sex, status, vip, tenant_id, create_by, create_time)
    select md5('bounds' || g), '批量' || g, 'B' || g, 1, '1', false, 0, 'admin', '2026-11-01 08:00:00' from generate_series(1, ${ROWS}) g`.execute(db);
  // PGlite has no autovacuum: the server's own statistics upkeep notices the grown table.
  expect(await analyzeStaleTables(s.running.ctx)).toContain('demo_customer');
  expect(await analyzeStaleTables(s.running.ctx)).not.toContain('demo_customer');
}, 120_000);

describe('list totals and export on a big table', () => {
  it('counts exactly below the limit and estimates (never below the limit) above it', async () => {
    const all = (await s.get('demo/customer/list?pageNo=2&pageSize=10', s.tok.admin)).json();
    expect(all.success).toBe(true);
    expect(all.result.records).toHaveLength(10);
    expect(all.result.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(all.result.total).toBeGreaterThan(ROWS * 0.8);
    expect(all.result.total).toBeLessThan(ROWS * 1.5);
    // '批量1*' matches 1, 10–19, 100–199, 1000–1999 and 10000–19999: 11,111 rows, estimated; '批量2*' 1,162 rows, exact.
    const some = (await s.get(`demo/customer/list?pageSize=10&name=${encodeURIComponent('批量2*')}`, s.tok.admin)).json();
    expect(some.result.total).toBe(1 + 10 + 100 + 1000 + 51);
  });

  it('refuses an export past the cap with a clear message, and exports a narrowed one', async () => {
    const big = await s.get('demo/customer/exportXls', s.tok.admin);
    expect(big.json()).toMatchObject({ success: false, message: expect.stringMatching(/^导出的数据超过20000条，请缩小查询范围/) });
    const small = await s.get(`demo/customer/exportXls?name=${encodeURIComponent('批量2*')}`, s.tok.admin);
    expect(small.headers['content-type']).toContain('spreadsheetml');
    expect(small.rawPayload.length).toBeGreaterThan(10_000);
  });
});
