import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Solves the server's sign-in challenge (ALTCHA proof of work, server/auth/challenge.ts): finds n with
 * SHA-256(salt + n) = challenge. Pure JavaScript (no crypto.subtle, which a plain-http campus address
 * does not get), in slices that leave the page responsive. Loaded only when the server asks for it.
 */
export interface LoginChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

const same = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return a.length === b.length;
};

/** The `altcha` value to send with the sign-in, or null when no number up to maxnumber solves it. */
export async function solveLoginChallenge(c: LoginChallenge): Promise<string | null> {
  if (c.algorithm !== 'SHA-256') return null;
  const target = hexToBytes(c.challenge);
  const max = c.maxnumber ?? 1_000_000;
  for (let n = 0; n <= max; ) {
    const end = Math.min(max, n + 20_000);
    for (; n <= end; n++) {
      if (same(sha256(utf8ToBytes(c.salt + n)), target)) {
        return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature }));
      }
    }
    await new Promise((r) => setTimeout(r, 0));
  }
  return null;
}
