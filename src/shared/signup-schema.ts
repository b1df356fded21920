import { z } from 'zod/mini';
import {
  signupFieldCodes,
  type SignupAnswers,
  type SignupFieldCode,
  type SignupFieldName,
  type SignupFormCode,
  type SignupMessages,
} from './messages/signup.ts';
import { messageReplySchema } from './api-error.ts';
import { localeTag, locales, type Locale } from './locales.ts';
import { pagePaths } from './paths.ts';
import { defineContract } from './route-contract.ts';

// One schema for the sign-up message: the form validates with it before sending, the server
// parses every request with it. zod/mini keeps the browser's share small.

export const signupLimits = { name: 100, email: 254, emailLocalPart: 64, comment: 1000 } as const;

/**
 * Trims, and writes the domain in its one ASCII form: lower-cased, and an internationalised domain
 * (`bücher.de`) as the punycode the mail system uses (`xn--bcher-kva.de`), so both spellings are
 * one person and mail goes to exactly what is stored. The local part is left as typed: it may be
 * case-sensitive (RFC 5321 §2.4). `URL` does the IDNA mapping in the browser and in Node alike.
 */
export function normaliseEmail(raw: string): string {
  const email = raw.trim();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const domain = email.slice(at + 1);
  return email.slice(0, at + 1) + asciiDomain(domain);
}

function asciiDomain(domain: string): string {
  const lower = domain.toLowerCase();
  // Only letters, digits, hyphens and dots (any script) are handed to URL: anything else
  // (`/`, `:`, `@`, spaces…) would be read as part of a URL and silently dropped.
  if (/^[\x21-\x7e]*$/.test(lower) || !/^[\p{L}\p{M}\p{N}.\u3002\uff0e\uff61-]+$/u.test(domain)) return lower;
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return lower; // not a domain: the address check below says so
  }
}

// An address in ASCII after normaliseEmail: zod's own pattern, with punycode top-level domains
// (`xn--p1ai`, Russia's .рф) allowed too.
const asciiEmail =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,}|xn--[A-Za-z0-9-]+)$/;

// What a text field may hold. The name lands in emails, the console and exports, so it is one line
// of visible text: no control characters, no line or paragraph separators, no invisible
// formatting (bidi overrides, zero-width characters; joiners only inside a word, where Persian and
// Indic names need them), no web addresses. The comment keeps line breaks and nothing else of the
// control range. Lone surrogates (unreadable halves of a character) are refused everywhere.
// See docs/decisions/0011-links-keys-and-fields.md.
const control = /[\p{Cc}]/u;
const lineBreak = /[\n\r\u2028\u2029\v\f\x85]/;
const loneSurrogate = /\p{Cs}/u;
const joinerInWord = /(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}])/gu;
const invisible = /[\p{Cf}\u115f\u1160\u3164\uffa0\u180e]|\u034f/u;
// A scheme (`https://`), `www.`, or a dotted name ending in letters (`evil.example/login`).
const urlLike =
  /:\/\/|(?:^|[^\p{L}\p{N}])www\.|(?:^|[^\p{L}\p{N}.-])[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?![\p{L}\p{N}])/iu;

/**
 * Why a field was refused, as a code (./messages/signup.ts): the schema's checks carry codes, never
 * words. The words are in content/messages/<locale>/signup.ts (`fieldErrors`), looked up where they
 * are shown.
 */
export type { SignupFieldCode, SignupFormCode };
const isFieldCode = (c: string): c is SignupFieldCode => (signupFieldCodes as readonly string[]).includes(c);

const tabsToSpaces = (v: string) => v.replace(/\t/g, ' ');

export const signupSchema = z.strictObject({
  name: z.string({ error: 'name.required' satisfies SignupFieldCode }).check(
    z.overwrite(tabsToSpaces),
    z.trim(),
    z.minLength(1, 'name.required' satisfies SignupFieldCode),
    z.maxLength(signupLimits.name, 'name.tooLong' satisfies SignupFieldCode),
    z.refine((v) => !loneSurrogate.test(v), 'unreadable' satisfies SignupFieldCode),
    z.refine((v) => !lineBreak.test(v), 'name.lines' satisfies SignupFieldCode),
    z.refine((v) => !control.test(v), 'name.control' satisfies SignupFieldCode),
    z.refine((v) => !invisible.test(v.replace(joinerInWord, '')), 'name.invisible' satisfies SignupFieldCode),
    z.refine((v) => !urlLike.test(v), 'name.url' satisfies SignupFieldCode),
  ),
  email: z.string({ error: 'email.required' satisfies SignupFieldCode }).check(
    z.trim(),
    z.minLength(1, 'email.required' satisfies SignupFieldCode),
    z.refine((v) => !loneSurrogate.test(v), 'unreadable' satisfies SignupFieldCode),
    z.refine((v) => v.lastIndexOf('@') <= signupLimits.emailLocalPart, 'email.localTooLong' satisfies SignupFieldCode),
    z.refine(
      (v) => /^[\x21-\x7e]*$/.test(v.slice(0, Math.max(0, v.lastIndexOf('@')))),
      'email.localAscii' satisfies SignupFieldCode,
    ),
    z.overwrite(normaliseEmail),
    z.maxLength(signupLimits.email, 'email.tooLong' satisfies SignupFieldCode),
    z.email({ pattern: asciiEmail, error: 'email.invalid' satisfies SignupFieldCode }),
  ),
  comment: z._default(
    z.string({ error: 'comment.notText' satisfies SignupFieldCode }).check(
      // Browsers send a textarea's line breaks as CRLF; one kind is stored.
      z.overwrite((v) => tabsToSpaces(v).replace(/\r\n?/g, '\n')),
      z.trim(),
      z.maxLength(signupLimits.comment, 'comment.tooLong' satisfies SignupFieldCode),
      z.refine((v) => !loneSurrogate.test(v), 'unreadable' satisfies SignupFieldCode),
      z.refine((v) => !control.test(v.replace(/\n/g, '')), 'comment.control' satisfies SignupFieldCode),
    ),
    '',
  ),
  // The honeypot: hidden from people, so anything in it was typed by a bot. Never stored.
  website: z.optional(z.string()),
  // The language of the page the form is on (a hidden field): the answer, the confirmation email
  // and every later email are written in it. Missing means the default (English).
  locale: z.optional(z.enum(locales, { error: 'form.shape' satisfies SignupFormCode })),
  // The code of the friend's invite link the visitor came through (a hidden field). Any text is
  // taken (within the body's 16 KB) and a malformed or unknown code ignored, never refused, never
  // stored: the sign-up works as usual (server/features/referrals).
  invite: z.optional(z.string()),
});

export type SignupInput = z.output<typeof signupSchema>;
/** A sign-up as sent: a field with a default may be left out. */
export type SignupWireInput = z.input<typeof signupSchema>;

/**
 * The schema's fields that people never type: the honeypot (never stored, never shown), the
 * page's locale and a friend's invite code (hidden fields the form carries).
 */
const hidden = ['website', 'locale', 'invite'] as const;
type Hidden = (typeof hidden)[number];
/** The form's fields, in order, read from the schema: a field added there is one here. */
export type SignupField = Exclude<keyof typeof signupSchema.shape, Hidden>;
export const signupFields = Object.keys(signupSchema.shape).filter(
  (k): k is SignupField => !(hidden as readonly string[]).includes(k),
);

// The words' list of fields (SignupFieldName, which their types are written with) is the schema's:
// a field in one and not the other stops the compiler here.
const fieldListsAgree: [SignupField] extends [SignupFieldName]
  ? [SignupFieldName] extends [SignupField]
    ? true
    : never
  : never = true;
void fieldListsAgree;

/** How the form shows a field: its input's kind and the browser's hints. */
export interface SignupInputSpec {
  kind: 'text' | 'email' | 'textarea';
  required: boolean;
  maxLength: number;
  autoComplete?: string;
  inputMode?: 'email';
}

/**
 * The form's inputs, one per field, in the schema's order (signup-form.tsx renders them): a field
 * added to the schema does not compile until it has its line here, and its label and error words
 * in the locales' signup.ts (the English one; the drafts borrow English until translated).
 */
export const signupInputs: Record<SignupField, SignupInputSpec> = {
  name: { kind: 'text', required: true, maxLength: signupLimits.name, autoComplete: 'name' },
  email: { kind: 'email', required: true, maxLength: signupLimits.email, autoComplete: 'email', inputMode: 'email' },
  comment: { kind: 'textarea', required: false, maxLength: signupLimits.comment },
};

const isSignupField = (key: unknown): key is SignupField =>
  typeof key === 'string' && (signupFields as string[]).includes(key);
/** Why each field was refused (first problem wins), and `form` for the message as a whole: codes. */
export type SignupFieldErrors = Partial<Record<SignupField, SignupFieldCode>> & { form?: SignupFormCode };

export type SignupParse = { ok: true; data: SignupInput } | { ok: false; errors: SignupFieldErrors };

/** One problem with a message, as zod reports it (and as the server's validator passes it on). */
export interface SignupIssue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  keys?: readonly string[];
}

/**
 * One code per field (first problem wins), from a parse's issues, whose messages are the schema's
 * codes. Also reads a reply's `fields` back (as issues of one step each): anything that is not a
 * field or not a code of ours is said in general words, never shown as it came.
 */
export function signupFieldErrors(issues: readonly SignupIssue[]): SignupFieldErrors {
  const errors: SignupFieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (issue.code === 'unrecognized_keys' || issue.message === 'form.unknownFields')
      errors.form ??= 'form.unknownFields';
    else if (isSignupField(field)) errors[field] ??= isFieldCode(issue.message) ? issue.message : 'invalid';
    else errors.form ??= 'form.shape';
  }
  return errors;
}

/** The codes of a sign-up error reply's `fields`, as the form shows them. */
export const signupReplyErrors = (fields: Readonly<Record<string, string>> | undefined): SignupFieldErrors =>
  signupFieldErrors(Object.entries(fields ?? {}).map(([field, message]) => ({ path: [field], code: '', message })));

/** The words for a refused field's code, in the given locale's words; limits come from `signupLimits`. */
export function fieldErrorText(words: SignupMessages, code: SignupFieldCode): string {
  const text = words.fieldErrors[code];
  return typeof text === 'string' ? text : text(signupLimits);
}

/**
 * The words for what is wrong with a message as a whole. Both name the form's fields by their
 * labels, read from the field list, so a new field cannot leave them saying the old list.
 */
export function formErrorText(
  answers: SignupAnswers,
  words: SignupMessages,
  code: SignupFormCode,
  locale: Locale,
): string {
  const list = (fields: readonly SignupField[]) =>
    new Intl.ListFormat(localeTag(locale), { type: 'conjunction' }).format(fields.map((f) => words.labels[f]));
  return answers.formErrors[code]({
    fields: list(signupFields),
    required: list(signupFields.filter((f) => signupInputs[f].required)),
  });
}

/** Parses a sign-up; on failure returns one code per field (first problem wins). */
export function parseSignup(input: unknown): SignupParse {
  const result = signupSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: signupFieldErrors(result.error.issues) };
}

/** The JSON answer to an accepted sign-up (errors use the shared error shape, api-error.ts). */
const signupReplySchema = messageReplySchema;

/**
 * The hydrated form's JSON sign-up. The same address takes the no-JavaScript form post, which the
 * server answers with the page (src/server/features/signups/signup-routes.ts adds that to the reply).
 */
export const signupContract = defineContract({
  method: 'POST',
  path: pagePaths.signup,
  body: signupSchema,
  reply: signupReplySchema,
  errors: [
    'bad_request',
    'invalid_fields',
    'csrf',
    'forbidden',
    'payload_too_large',
    'unsupported_media_type',
    'rate_limited',
    'internal',
    'unavailable',
  ],
});

/** The query of a confirmation link (`/confirm?token=…`). */
export const confirmQuerySchema = z.object({ token: z.optional(z.string()) });
/** The form a confirmation page posts when its button is pressed (the token travels in the body). */
export const confirmFormSchema = z.object({ token: z.optional(z.string()) });
/** The query of an unsubscribe link (`/unsubscribe?id=…&sig=…`), also the address its POST goes to. */
export const unsubscribeQuerySchema = z.object({ id: z.optional(z.string()), sig: z.optional(z.string()) });

/** What the page shows about a sign-up: after a no-JavaScript post, or after the JSON answer. */
export interface SignupView {
  status: 'success' | 'error';
  message: string;
  values?: Record<SignupField, string>;
  errors?: SignupFieldErrors;
}
