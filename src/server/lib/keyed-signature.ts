import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of a value for one purpose, so a signature made for one use is useless for another. */
export const signKeyed = (secret: string, purpose: string, value: string): string =>
  createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');

/** True when any of the secrets made this signature (compared in constant time). */
export function verifyKeyed(secrets: readonly string[], purpose: string, value: string, signature: string): boolean {
  const given = Buffer.from(signature);
  return secrets.some((secret) => {
    const expected = Buffer.from(signKeyed(secret, purpose, value));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
