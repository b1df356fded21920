import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token for a link; only its hash is ever stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

// Unsubscribe links must keep working in every email ever sent, so they are an HMAC of the
// subscriber id rather than a stored token: nothing to look up, nothing to leak from the database.
export function unsubscribeSignature(secret: string, subscriberId: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${subscriberId}`).digest('base64url');
}

export function verifyUnsubscribeSignature(secret: string, subscriberId: string, signature: string): boolean {
  const expected = Buffer.from(unsubscribeSignature(secret, subscriberId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
