import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';

/** OWASP minimum for argon2id (m=19 MiB, t=2, p=1): ~60 ms per hash. The library's default algorithm is argon2id. */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
/** Longer inputs are refused before hashing (a 10 KB password must not cost more than a normal one). */
export const MAX_PASSWORD_LENGTH = 128;

/**
 * A small semaphore: at most N argon2 computations at once, the rest queue. A login storm then
 * cannot take every libuv thread and starve file and DNS work of other requests.
 */
class Semaphore {
  private active = 0;
  private waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * One hash per core (at most 4): a login storm then uses the machine's cores and no more; the event
 * loop keeps its share through the OS scheduler and other requests are served meanwhile (bench/login.ts).
 */
const pool = new Semaphore(Math.max(1, Math.min(4, availableParallelism())));

export function hashPassword(pw: string): Promise<string> {
  return pool.run(() => hash(pw, OPTIONS));
}

// Verified against when the account does not exist, so unknown users cost the same time as wrong passwords.
let dummy: Promise<string> | undefined;

/** Verifies a password against a stored PHC hash; a missing hash still spends one verification. */
export async function verifyPassword(stored: string | null | undefined, pw: string): Promise<boolean> {
  if (pw.length > MAX_PASSWORD_LENGTH) return false;
  if (!stored || !stored.startsWith('$argon2')) {
    dummy ??= hashPassword('dummy-password-for-timing');
    const d = await dummy;
    await pool.run(() => verify(d, pw).catch(() => false));
    return false;
  }
  return pool.run(() => verify(stored, pw).catch(() => false));
}
