import { z } from 'zod/mini';
import { locales } from '../locales.ts';
import { signupFields, type SignupField, type SignupInput } from '../signup-schema.ts';
import { mailStatusSchema } from './mail-status.ts';

// The operators' console, Subscribers screen: the list's query and every reply, shared by the
// console and the server's routes (which declare them as their querystring/response schemas).
// Times are ISO-8601 UTC strings, as stored.

export const subscriberStatuses = ['pending', 'confirmed', 'unsubscribed'] as const;
const subscriberStatusSchema = z.enum(subscriberStatuses);
export type SubscriberStatusName = z.output<typeof subscriberStatusSchema>;

const subscriberSorts = ['newest', 'oldest'] as const;

const subscriberListLimits = { q: 100, cursor: 200, pageSize: 200, defaultPageSize: 50 } as const;

/**
 * Search terms of this many characters or more match anywhere in the name or the email address
 * (case-insensitive substring); shorter ones match the start of the email address.
 */
export const SUBSTRING_SEARCH_MIN = 3;

const optionalText = (max: number, what: string) =>
  z.optional(
    z.string({ error: `${what} must be text.` }).check(
      z.trim(),
      z.maxLength(max, `${what} can be at most ${max} characters.`),
      // Control characters never occur in a name or address; refusing them also keeps the
      // search's separator between name and address (a line feed) out of every term.
      // eslint-disable-next-line no-control-regex
      z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), `${what} cannot contain control characters.`),
    ),
  );

/**
 * How the list shows an address: its first character, •••, and the whole domain. The domain stays:
 * support ("I signed up with my work address"), spotting a burst of sign-ups from one throwaway
 * domain, and bounces by provider need it; the local part is what names a person.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  const first = [...local][0] ?? '';
  return `${first}•••${at < 0 ? '' : email.slice(at)}`;
}

/** `GET` list query: search, status filter, sort by sign-up date, keyset page. */
export const subscriberListQuerySchema = z.object({
  q: optionalText(subscriberListLimits.q, 'The search'),
  status: z.optional(z.enum(subscriberStatuses, { error: 'The status must be pending, confirmed or unsubscribed.' })),
  /** The language they signed up in (src/shared/locales.ts). */
  locale: z.optional(z.enum(locales, { error: `The language must be one of ${locales.join(', ')}.` })),
  sort: z._default(z.enum(subscriberSorts, { error: 'The sort must be newest or oldest.' }), 'newest'),
  /** Opaque: the `nextCursor` of the previous page, unchanged. */
  cursor: z.optional(
    z
      .string()
      .check(z.maxLength(subscriberListLimits.cursor, 'That page link is not valid; start from the first page.')),
  ),
  limit: z._default(
    z.coerce.number({ error: 'The page size must be a number.' }).check(
      z.refine((n) => Number.isInteger(n), 'The page size must be a whole number.'),
      z.minimum(1, 'The page size must be at least 1.'),
      z.maximum(subscriberListLimits.pageSize, `The page size can be at most ${subscriberListLimits.pageSize}.`),
    ),
    subscriberListLimits.defaultPageSize,
  ),
});

const time = z.string();
const optionalTime = z.nullable(z.string());

/**
 * One row of the list: no name, city or comment, and the address masked (`a•••@example.com`, see
 * maskEmail). A person's details are read on purpose, one at a time (decision 0029).
 */
const subscriberListItemSchema = z.object({
  id: z.string(),
  maskedEmail: z.string(),
  status: subscriberStatusSchema,
  createdAt: time,
  confirmedAt: optionalTime,
  unsubscribedAt: optionalTime,
  /** Coarse (the Audience report counts by country for every operator): tells two masked rows apart. */
  country: z.nullable(z.string()),
  /**
   * The locale they signed up in: their emails' language. Any string: a row may hold a locale
   * this build no longer speaks (its emails then go out in the default).
   */
  locale: z.string(),
});
export type SubscriberListItem = z.output<typeof subscriberListItemSchema>;

export const subscriberListReplySchema = z.object({
  items: z.array(subscriberListItemSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type SubscriberListReply = z.output<typeof subscriberListReplySchema>;

/** One email of the outbox as the console shows it (never its link token). */
const subscriberEmailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(['pending', 'sent', 'failed', 'cancelled']),
  attempts: z.number(),
  createdAt: time,
  sentAt: optionalTime,
  lastError: z.nullable(z.string()),
});
export type SubscriberEmail = z.output<typeof subscriberEmailSchema>;

const consentRecordSchema = z.object({
  version: z.string(),
  /** The wording agreed to; null only if that version's text was never recorded. */
  text: z.nullable(z.string()),
  at: time,
  /** The page the form was on, e.g. "/". */
  page: z.string(),
});

const coarseLocationSchema = z.object({
  country: z.nullable(z.string()),
  region: z.nullable(z.string()),
  city: z.nullable(z.string()),
});

/**
 * What the person typed: one text per field of the sign-up form, read from the schema's field list.
 * A reply is written through its schema, which drops every key it does not name, so a list written
 * here by hand would leave a new field out of the person's record and export without a word.
 */
const givenShape = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, z.string()])) as Record<F, z.ZodMiniString>;
// Every field the form stores is text today; a field of another kind stops the compiler here, to
// be given its own schema above.
const givenAreText: SignupInput[SignupField] extends string ? true : never = true;
void givenAreText;

const personFieldsOf = <F extends string>(fields: readonly F[]) => ({
  id: z.string(),
  ...givenShape(fields),
  status: subscriberStatusSchema,
  createdAt: time,
  updatedAt: time,
  confirmedAt: optionalTime,
  unsubscribedAt: optionalTime,
  lastConfirmationAt: optionalTime,
  consent: consentRecordSchema,
  location: coarseLocationSchema,
  /** The locale they signed up in, which their emails follow (held about them, so exported too). */
  locale: z.string(),
  emails: z.array(subscriberEmailSchema),
});
const personFields = personFieldsOf(signupFields);

/** One person's record: who they are, their consent, place and emails (read on purpose, audited). */
export const personRecordSchema = z.object({
  ...personFields,
  /** Whether "resend the confirmation" would queue an email now, and if not, from when. */
  resend: z.object({
    allowed: z.boolean(),
    /** When it becomes possible (cool-down); null when it is allowed now or never (not pending). */
    availableAt: optionalTime,
  }),
});
export type PersonRecord = z.output<typeof personRecordSchema>;

/** The details route's reply: the record, and how many personal records this operator read today. */
export const subscriberDetailSchema = z.extend(personRecordSchema, {
  /** Personal records this operator has read today (this one included), and the daily allowance. */
  reads: z.object({ today: z.number(), allowance: z.number() }),
  /**
   * Whether mail reaches them: their address's standing suppression (since when, why, heard from
   * where) and the last bounce or complaint heard for it. While suppressed, `resend.allowed` is false.
   */
  mail: mailStatusSchema,
});
export type SubscriberDetail = z.output<typeof subscriberDetailSchema>;

/**
 * Everything held about one person, for a data-subject access request (a JSON download), with
 * `fields` the sign-up form's (a test passes one more, as a field added by the recipe would be).
 */
export const dataExportSchemaOf = <F extends string>(fields: readonly F[]) =>
  z.object({ exportedAt: time, person: z.object(personFieldsOf(fields)) });
export const subscriberDataExportSchema = dataExportSchemaOf(signupFields);
export type SubscriberDataExport = z.output<typeof subscriberDataExportSchema>;

// ---- Console routes' own messages (the routes in src/server/features/subscribers/subscriber-routes.ts) ----

/** The `:id` of a person's routes. */
export const subscriberIdParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64, 'That subscriber link is not valid.')),
});

/**
 * Erasing a person: the operator types the person's email address back, a safety catch against
 * erasing the wrong row (compared ignoring case and surrounding spaces).
 */
export const eraseSubscriberSchema = z.strictObject({
  confirmEmail: z
    .string({ error: 'Type the person’s email address to confirm.' })
    .check(
      z.trim(),
      z.minLength(1, 'Type the person’s email address to confirm.'),
      z.maxLength(254, 'That is longer than any email address.'),
    ),
});

/** The answer to resend (whatever happened) and erase: a sentence for the operator. */
export const subscriberActionReplySchema = z.object({
  message: z.string(),
  /** After a resend: whether an email was queued. After an erasure: always true. */
  done: z.boolean(),
  /** After a resend that was queued: the earliest time another one can be sent. */
  nextAllowedAt: z.optional(z.string()),
});

/** The CSV download's filter (a POST body: the export is audited, so never a GET). */
export const subscribersCsvRequestSchema = z.strictObject({
  q: subscriberListQuerySchema.shape.q,
  status: subscriberListQuerySchema.shape.status,
  locale: subscriberListQuerySchema.shape.locale,
});
