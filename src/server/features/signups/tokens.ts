import { createHash, randomBytes } from 'node:crypto';

/** A 256-bit random token for a link; only its hash is ever stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
