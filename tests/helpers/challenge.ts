import { solveChallenge } from 'altcha-lib/v1';

export interface ChallengeOf {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/** Solves a sign-in challenge (server/auth/challenge.ts) as a client would, and returns the ALTCHA payload to send as `altcha`. */
export async function solveLoginChallenge(c: ChallengeOf): Promise<string> {
  const s = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber ?? 1e6).promise;
  if (!s) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: s.number, salt: c.salt, signature: c.signature })).toString('base64');
}
