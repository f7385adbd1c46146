import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/db/index.js';

describe('isDatabaseUnavailable (answered 503 "try again", not as a server error)', () => {
  it.each([
    ['PostgreSQL shutting down (57P01)', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['starting up (57P03)', { code: '57P03', message: 'the database system is starting up' }],
    ['connection failure (08006)', { code: '08006', message: 'connection failure' }],
    ['refused', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['reset mid-query', { code: 'ECONNRESET', message: 'read ECONNRESET' }],
    ['node-postgres: ended', { message: 'Connection terminated unexpectedly' }],
    ['node-postgres: broken client', { message: 'Client has encountered a connection error and is not queryable' }],
    ['pool timeout', { message: 'timeout exceeded when trying to connect' }],
  ])('%s', (_name, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ['a unique violation', { code: '23505', message: 'duplicate key value violates unique constraint' }],
    ['a syntax error', { code: '42601', message: 'syntax error at or near "x"' }],
    ['a plain bug', { message: "Cannot read properties of undefined (reading 'id')" }],
  ])('not %s', (_name, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
