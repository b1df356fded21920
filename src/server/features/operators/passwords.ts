import argon2 from 'argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// Operators' passwords: argon2id with OWASP's first recommended parameters (19 MiB, 2 passes, one
// lane: https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#argon2id).
// The PHC string keeps the parameters, so raising them later re-hashes at the next sign-in.
const argon2Options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, argon2Options);

/** False for a wrong password and for a hash that cannot be read (never throws on bad input). */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export const needsRehash = (hash: string): boolean => argon2.needsRehash(hash, argon2Options);

/**
 * A hash of nothing anyone knows, made with the same parameters: an unknown address is checked
 * against it, so a sign-in for an address that does not exist takes as long as one that does.
 */
let dummy: Promise<string> | undefined;
export const dummyHash = (): Promise<string> => (dummy ??= hashPassword(`no operator ${Math.random()}`));

// The 49,000 most common passwords (xato/zxcvbn's list), shipped in @zxcvbn-ts/language-common.
let common: Set<string> | undefined;
const commonPasswords = (): Set<string> =>
  (common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())));

/** Why a new password is refused, in words; null when it is fine. */
export function passwordProblem(password: string, email: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  }
  if (password.length > 1024) return 'The password can be at most 1024 characters long.';
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'That password is on a list of common passwords. Please choose another.';
  if (new Set(lower).size <= 2) return 'That password repeats one or two characters. Please choose another.';
  const local = email.toLowerCase().split('@')[0] ?? '';
  if (
    lower === email.toLowerCase() ||
    (local.length >= 4 && lower.includes(local) && lower.length - local.length < 6)
  ) {
    return 'That password is too close to the email address. Please choose another.';
  }
  return null;
}
