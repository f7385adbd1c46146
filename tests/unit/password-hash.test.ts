import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/password.js';

describe('argon2id password hashing', () => {
  it('hashes with argon2id (m=19 MiB, t=2) and verifies', async () => {
    const h = await hashPassword('Observe#2026');
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(h, 'Observe#2026')).toBe(true);
    expect(await verifyPassword(h, 'observe#2026')).toBe(false);
  });

  it('refuses without a stored hash, or a too long password, without throwing', async () => {
    expect(await verifyPassword(null, 'x')).toBe(false);
    expect(await verifyPassword('plain', 'plain')).toBe(false);
    const h = await hashPassword('a'.repeat(128));
    expect(await verifyPassword(h, 'a'.repeat(129))).toBe(false);
  });
});
