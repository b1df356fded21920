import { randomBytes } from 'node:crypto';
import { isInviteCode } from '../../../shared/referrals.ts';

/**
 * A new invite code: 128 random bits from the system's generator, base64url (22 characters).
 * Never derived from the email or the id, so a code says nothing about its owner, and no one can
 * count the list or reach another's code by guessing.
 */
export const newInviteCode = (): string => {
  const code = randomBytes(16).toString('base64url');
  // The shared spelling is what the page and the form accept; a code is always one.
  if (!isInviteCode(code)) throw new Error('invite code is not 22 base64url characters');
  return code;
};
