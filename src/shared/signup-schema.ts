import { z } from 'zod/mini';
import { messageReplySchema } from './api-error.ts';

// One schema for the sign-up message: the form validates with it before sending, the server
// parses every request with it. zod/mini keeps the browser's share small.

export const signupLimits = { name: 100, email: 254, emailLocalPart: 64, comment: 1000 } as const;

export const signupFields = ['name', 'email', 'comment'] as const;
export type SignupField = (typeof signupFields)[number];

/** Trims, and lower-cases the domain only: the local part may be case-sensitive (RFC 5321 §2.4). */
export function normaliseEmail(raw: string): string {
  const email = raw.trim();
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at) + email.slice(at).toLowerCase();
}

export const signupSchema = z.strictObject({
  name: z
    .string({ error: 'Please enter your name.' })
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your name.'),
      z.maxLength(signupLimits.name, `Your name can be at most ${signupLimits.name} characters.`),
    ),
  email: z
    .string({ error: 'Please enter your email address.' })
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your email address.'),
      z.maxLength(signupLimits.email, `An email address can be at most ${signupLimits.email} characters.`),
      z.refine(
        (v) => v.indexOf('@') <= signupLimits.emailLocalPart,
        `The part before the @ can be at most ${signupLimits.emailLocalPart} characters.`,
      ),
      z.email('Please enter a valid email address, like name@example.com.'),
      z.overwrite(normaliseEmail),
    ),
  comment: z._default(
    z
      .string({ error: 'Your comment must be text.' })
      .check(
        z.trim(),
        z.maxLength(signupLimits.comment, `Your comment can be at most 1,000 characters.`),
      ),
    '',
  ),
  // The honeypot: hidden from people, so anything in it was typed by a bot.
  website: z.optional(z.string()),
});

export type SignupInput = z.output<typeof signupSchema>;
export type SignupFieldErrors = Partial<Record<SignupField | 'form', string>>;

export type SignupParse = { ok: true; data: SignupInput } | { ok: false; errors: SignupFieldErrors };

/** One problem with a message, as zod reports it (and as the server's validator passes it on). */
export interface SignupIssue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  keys?: readonly string[];
}

/** One message in words per field (first problem wins), from a parse's issues. */
export function signupFieldErrors(issues: readonly SignupIssue[]): SignupFieldErrors {
  const errors: SignupFieldErrors = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys ?? [];
      errors.form ??= `This form does not take the field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}.`;
      continue;
    }
    const field = issue.path[0];
    if (field === 'name' || field === 'email' || field === 'comment') errors[field] ??= issue.message;
    else errors.form ??= 'Please send a name, an email address and, if you like, a comment.';
  }
  return errors;
}

/** Parses a sign-up; on failure returns one message in words per field (first problem wins). */
export function parseSignup(input: unknown): SignupParse {
  const result = signupSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: signupFieldErrors(result.error.issues) };
}

/** The JSON answer to an accepted sign-up (errors use the shared error shape, api-error.ts). */
export const signupReplySchema = messageReplySchema;
export type SignupReply = z.output<typeof signupReplySchema>;

/** The query of a confirmation link (`/confirm?token=…`). */
export const confirmQuerySchema = z.object({ token: z.optional(z.string()) });
/** The query of an unsubscribe link (`/unsubscribe?id=…&sig=…`). */
export const unsubscribeQuerySchema = z.object({ id: z.optional(z.string()), sig: z.optional(z.string()) });

export const signupInvalidMessage = 'Please correct the highlighted fields.';

/** What the page shows about a sign-up: after a no-JavaScript post, or after the JSON answer. */
export interface SignupView {
  status: 'success' | 'error';
  message: string;
  values?: { name: string; email: string; comment: string };
  errors?: SignupFieldErrors;
}

export const signupSuccessMessage =
  'Thank you! Check your inbox for an email from us and click the link in it to confirm your sign-up.';

/** The consent wording shown beside the form; change the version whenever the text changes. */
export const consentWording = {
  version: '2026-11-21',
  text: 'By signing up you agree that we email you about Diamond Hand (DH): the presale and project news. Every email has a link to stop them at once; see our privacy notice.',
} as const;
