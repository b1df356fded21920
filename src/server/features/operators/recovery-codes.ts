import { createHash, randomInt } from 'node:crypto';

// Ten single-use recovery codes per operator, for a lost phone. Each is ten characters of RFC 4648
// base32 (50 random bits), shown once as "abcde-23456" and stored only as its SHA-256: a random
// code that long is out of reach of guessing behind the sign-in back-off, and a fast hash lets one
// indexed lookup find it (argon2 over ten rows would cost ten slow hashes per try).
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_CODE_COUNT = 10;

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Accepts the code as printed or typed: any case, with or without the dash and spaces. */
export const recoveryCodeHash = (code: string): string =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
