import { Secret, TOTP } from 'otpauth';

// Authenticator codes: RFC 6238 TOTP (SHA-1, 6 digits, 30-second steps: what every authenticator
// app reads from an otpauth:// URI), checked by the `otpauth` package.
const PERIOD_S = 30;
const ISSUER = 'Diamond Hand console';

const totpFor = (secret: string, email: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth://totp/… URI an authenticator app reads (as text or as a QR code). */
export const totpUri = (secret: string, email: string): string => totpFor(secret, email).toString();

/**
 * The 30-second step `code` belongs to, when it is the code for the step of `now` or the one
 * before or after it (a phone's clock drifts; RFC 6238 §5.2); null otherwise. The caller accepts
 * it only if it is later than the last step used, so each code works once.
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const timestamp = now.getTime();
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp, window: 1 });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / PERIOD_S) + delta;
}

/** The code for a moment (tests and the command line's self-check). */
export const totpCode = (secret: string, at: Date): string =>
  totpFor(secret, 'x').generate({ timestamp: at.getTime() });
