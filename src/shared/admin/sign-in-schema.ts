import { z } from 'zod/mini';
import { normaliseEmail } from '../signup-schema.ts';
import { authenticationResponseSchema } from './passkey-schema.ts';
import { operatorRoleSchema } from './roles.ts';

// The console's sign-in messages, shared by its screens and the server's routes. Sign-in is two
// steps: email and password, then an authenticator code (or a single-use recovery code).

const operatorLimits = { email: 254, password: 1024 } as const;

export const signInSchema = z.strictObject({
  email: z
    .string({ error: 'Please enter your email address.' })
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your email address.'),
      z.maxLength(operatorLimits.email, `An email address can be at most ${operatorLimits.email} characters.`),
      z.overwrite(normaliseEmail),
    ),
  // Never trimmed: a password is exactly what was typed.
  password: z
    .string({ error: 'Please enter your password.' })
    .check(
      z.minLength(1, 'Please enter your password.'),
      z.maxLength(operatorLimits.password, `A password can be at most ${operatorLimits.password} characters.`),
    ),
});

/** Step one passed: the browser holds a short-lived pending cookie and asks for the code. */
export const signInReplySchema = z.object({ next: z.literal('second-factor') });

/** "123 456" and "123-456" are read as 123456; recovery codes ignore case, spaces and dashes. */
const totpCodeSchema = z.string({ error: 'Please enter the 6-digit code from your authenticator app.' }).check(
  z.overwrite((v) => v.replace(/[\s-]/g, '')),
  z.regex(/^\d{6}$/, 'Please enter the 6-digit code from your authenticator app.'),
);

const recoveryCodeSchema = z.string({ error: 'Please enter one of your recovery codes.' }).check(
  z.overwrite((v) => v.replace(/[\s-]/g, '').toLowerCase()),
  z.regex(/^[a-z2-7]{10}$/, 'A recovery code is ten letters and digits, like abcde-23456.'),
);

export const secondFactorSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('totp'), code: totpCodeSchema }),
  z.strictObject({ method: z.literal('recovery'), code: recoveryCodeSchema }),
  // The browser's answer to adminApiPaths.signInPasskeyOptions' challenge (decision 0030).
  z.strictObject({ method: z.literal('passkey'), response: authenticationResponseSchema }),
]);

/** Who is signed in, and until when their last authenticator code counts as fresh proof. */
export const operatorSessionSchema = z.object({
  operator: z.object({ email: z.string(), role: operatorRoleSchema }),
  /** ISO time; null when no code was entered in the last five minutes. */
  freshProofUntil: z.nullable(z.string()),
  /** How many unused recovery codes are left (the console warns when few are). */
  recoveryCodesLeft: z.number(),
});
export type OperatorSession = z.output<typeof operatorSessionSchema>;

export const freshProofSchema = z.strictObject({ code: totpCodeSchema });

/** Fresh proof with a passkey: the answer to adminApiPaths.freshProofPasskeyOptions' challenge. */
export const passkeyFreshProofSchema = z.strictObject({ response: authenticationResponseSchema });

export const freshProofReplySchema = z.object({ freshProofUntil: z.string() });

/** An empty JSON body, for the endpoints that act without input (sign-out, end all sessions). */
export const emptyBodySchema = z.optional(z.strictObject({}));

/** How long the pieces of a sign-in last; the console and the tests read the same numbers. */
export const sessionTimes = {
  idleMs: 30 * 60_000,
  /** An active session's idle expiry is pushed back once less than this is left. */
  renewWithinMs: 5 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
  /** Between the password and the code. */
  pendingMs: 5 * 60_000,
  freshProofMs: 5 * 60_000,
} as const;

/**
 * Sent by the console's own polling (a view refreshing itself, not the operator): the server then
 * does not renew the session's idle expiry. It can only ever shorten a session's life, never
 * extend it, so the server may trust it from anyone (decision 0029).
 */
export const BACKGROUND_HEADER = 'x-dh-background';

/** The one answer to a failed sign-in, whether the address exists or not. */
export const signInFailedMessage = 'That email and password do not match an operator. Please try again.';
export const codeFailedMessage = 'That code is not right, or it has been used already. Please try the newest code.';
/** Five wrong answers end a pending sign-in (the server's SECOND_FACTOR_TRIES): the password step again. */
export const secondFactorSpentMessage =
  'This sign-in was stopped after five wrong answers. Please enter your email and password again.';

/** A new operator's address (the command line): a real address, stored normalised. */
export const operatorEmailSchema = z
  .string()
  .check(
    z.trim(),
    z.maxLength(operatorLimits.email, `An email address can be at most ${operatorLimits.email} characters.`),
    z.email('That is not an email address (like name@example.com).'),
    z.overwrite(normaliseEmail),
  );
