import { z } from 'zod/mini';
import { locales, type Locale } from '../locales.ts';
import { localeEnglishNames } from './locale-names.ts';
import { roleAllows, type OperatorRole } from './roles.ts';

// A launch broadcast as the console writes and reads it (docs/decisions/0015-launch-broadcast.md).

const broadcastLimits = { subject: 200, body: 20_000 } as const;

/**
 * How a fault names the field: English's as it always has; another locale's by its version ("the
 * Spanish version’s subject"), since an error reply names a field by its top-level key only
 * (`translations`).
 */
const named = (language?: string) =>
  language
    ? {
        a: `the ${language} version’s subject`,
        subject: `the ${language} version’s subject`,
        message: `the ${language} version’s message`,
      }
    : { a: 'a subject', subject: 'the subject', message: 'the message' };
const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const subjectSchema = (language?: string) => {
  const n = named(language);
  return z.string({ error: `Write ${n.a}.` }).check(
    z.trim(),
    z.minLength(1, `Write ${n.a}.`),
    z.maxLength(broadcastLimits.subject, `Keep ${n.subject} under ${broadcastLimits.subject} characters.`),
    z.refine((s) => !/[\r\n]/.test(s), `${capital(n.subject)} must be one line.`),
  );
};
const bodySchema = (language?: string) => {
  const n = named(language);
  return z.string({ error: `Write ${n.message}.` }).check(
    z.minLength(1, `Write ${n.message}.`),
    z.maxLength(broadcastLimits.body, `Keep ${n.message} under ${broadcastLimits.body} characters.`),
    z.refine((s) => s.trim().length > 0, `Write ${n.message}.`),
  );
};

/** One locale's version of a broadcast: its subject and Markdown body. */
const versionSchema = (locale: Locale) => {
  const language = locale === 'en' ? undefined : localeEnglishNames[locale];
  return z.strictObject(
    { subject: subjectSchema(language), body: bodySchema(language) },
    { error: `The ${localeEnglishNames[locale]} version has a subject and a message, and nothing else.` },
  );
};
export const broadcastVersionSchema = versionSchema('en');
export type BroadcastVersion = z.output<typeof broadcastVersionSchema>;

/**
 * The locales a broadcast may have a version in besides English. English is the broadcast's own
 * subject and body (every broadcast has it, and it is what the rest may fall back to), so it is
 * named here rather than through `defaultLocale`, whose type is any locale.
 */
export type TranslatedLocale = Exclude<Locale, 'en'>;
export const translatedLocales: readonly TranslatedLocale[] = locales.filter((l): l is TranslatedLocale => l !== 'en');

/** The other locales' versions, each optional: `{ es: { subject, body } }`. */
export const broadcastTranslationsSchema = z.strictObject(
  Object.fromEntries(translatedLocales.map((l) => [l, z.optional(versionSchema(l))])) as Record<
    TranslatedLocale,
    z.ZodMiniOptional<typeof broadcastVersionSchema>
  >,
  { error: `Versions are written for ${translatedLocales.join(', ')} only, each with a subject and a message.` },
);
export type BroadcastTranslations = z.output<typeof broadcastTranslationsSchema>;

/**
 * A broadcast as the operator writes it: the English version (`subject`, `body`), the other
 * locales' versions, and whether a locale without one gets English (decision 0048). Older clients
 * that send only the English text keep their meaning: no translations, English to everyone.
 */
export const broadcastDraftSchema = z.strictObject({
  subject: subjectSchema(),
  body: bodySchema(),
  translations: z._default(broadcastTranslationsSchema, {}),
  englishFallback: z._default(
    z.boolean({ error: 'Say whether English goes to the other locales (true or false).' }),
    true,
  ),
});
export type BroadcastDraft = z.output<typeof broadcastDraftSchema>;
/** What the store is given: an English-only draft may leave the versions out. */
export type BroadcastDraftInput = z.input<typeof broadcastDraftSchema>;

/** The version a subscriber of `locale` gets, and in which locale it is written; null when none. */
export function versionFor(
  draft: { subject: string; body: string; translations: BroadcastTranslations; englishFallback: boolean },
  locale: Locale,
): { locale: Locale; version: BroadcastVersion } | null {
  const own = locale === 'en' ? draft : draft.translations[locale];
  if (own) return { locale, version: { subject: own.subject, body: own.body } };
  return draft.englishFallback ? { locale: 'en', version: { subject: draft.subject, body: draft.body } } : null;
}

/** The locales a draft has a version of its own in, English first. */
export const versionLocales = (draft: { translations: BroadcastTranslations }): Locale[] => [
  'en',
  ...translatedLocales.filter((l) => draft.translations[l]),
];

export const broadcastIdParamsSchema = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/** 'done' is 'sending' with nothing left to send. */
const broadcastStates = ['draft', 'sending', 'paused', 'cancelled', 'done'] as const;
export type BroadcastState = (typeof broadcastStates)[number];

const broadcastProgressSchema = z.object({
  /** Confirmed subscribers when it was sent (0 for a draft). */
  recipients: z.number(),
  /** Waiting to be sent (paused ones included). */
  queued: z.number(),
  sent: z.number(),
  failed: z.number(),
  /** Unsubscribed (or removed) between the send and their turn: not sent, on purpose. */
  skipped: z.number(),
  /** Not sent because an operator cancelled the broadcast. */
  cancelled: z.number(),
  /** Seconds until the queue is sent at the current pace; null when nothing is moving. */
  etaSeconds: z.nullable(z.number()),
  /** The last failures, with the mail server's reason. */
  failures: z.array(z.object({ reason: z.string(), count: z.number() })),
  /**
   * Sent and not (yet) heard back as a hard bounce: delivered as far as we know. Opens are not
   * tracked, so "delivered" never means "read"; a bounce can still arrive days later.
   */
  delivered: z.number(),
  /**
   * Rows heard back from as a bounce (each row once), by kind; `policy`: refused by a receiver's
   * policy or content filter (5.7.x), which says nothing of the address and is no hard bounce.
   */
  bounced: z.object({ hard: z.number(), soft: z.number(), policy: z.number() }),
  /** Rows whose recipient complained (marked it as spam). */
  complained: z.number(),
  /** Not sent because the address was suppressed (an earlier bounce or complaint). */
  suppressed: z.number(),
});
export type BroadcastProgress = z.output<typeof broadcastProgressSchema>;

/** A broadcast's progress before any row is counted: what the store adds to, and what a draft shows. */
export const noProgress = (recipients = 0): BroadcastProgress => ({
  recipients,
  queued: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  cancelled: 0,
  etaSeconds: null,
  failures: [],
  delivered: 0,
  bounced: { hard: 0, soft: 0, policy: 0 },
  complained: 0,
  suppressed: 0,
});

/** BROADCAST_APPROVALS: 2 (a second operator approves every send) or 1 (a team of one). */
export type BroadcastApprovals = 1 | 2;

/** A SHA-256 of every version of a broadcast and its fallback, in hex: what an approval is bound to. */
const textHashSchema = z
  .string()
  .check(z.regex(/^[0-9a-f]{64}$/, 'That is not the text’s fingerprint; reload the broadcast.'));

/** Approve: the fingerprint of the text the approver read, so a text changed meanwhile is not approved. */
export const broadcastApprovalSchema = z.strictObject({ textHash: textHashSchema });

export const broadcastSchema = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  state: z.enum(broadcastStates),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Who changed the text last, and when: the author until another operator edits it. */
  updatedBy: z.string(),
  updatedAt: z.string(),
  /**
   * Who changed the text since an approval last covered their change (the author among them when
   * they edited it too): none of them may approve it (decision 0028, amended by migration 0026).
   */
  editors: z.array(z.string()),
  sentBy: z.nullable(z.string()),
  sentAt: z.nullable(z.string()),
  /** Why it may not be sent as it stands (the address guard), or null. */
  refusal: z.nullable(z.string()),
  /** SHA-256 of every version (and the fallback) as stored now; an approval names the one it was given for. */
  textHash: z.string(),
  /** How many people must be involved in a send: 2, or 1 when a team of one set BROADCAST_APPROVALS=1. */
  approvalsRequired: z.union([z.literal(1), z.literal(2)]),
  /** The approval of this very text, or null. */
  approval: z.nullable(z.object({ by: z.string(), at: z.string() })),
  /** The approval that lapsed last: voided by someone's edit, or revoked. */
  lapsedApproval: z.nullable(
    z.object({
      approvedBy: z.string(),
      approvedAt: z.string(),
      by: z.string(),
      at: z.string(),
      reason: z.enum(['edit', 'revoked']),
    }),
  ),
  /** The other locales' versions (English is `subject` and `body`). */
  translations: broadcastTranslationsSchema,
  /** Whether a locale without a version of its own gets the English one. */
  englishFallback: z.boolean(),
  progress: broadcastProgressSchema,
  /**
   * The broadcast paused itself (its bounce or complaint rate passed a threshold): why, in words,
   * when, and the operator who resumed it over that pause (null while it stands). Null when it
   * never did, or when an operator paused it since.
   */
  automaticPause: z.nullable(z.object({ reason: z.string(), at: z.string(), overriddenBy: z.nullable(z.string()) })),
});
export type Broadcast = z.output<typeof broadcastSchema>;

// An operator is one address whatever its case (operators.ts keys them lower-cased).
const sameOperator = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Why this operator may not approve this broadcast, in words, or null when they may. The server
 * decides with it (the approve route); the console uses it only to show or hide the button.
 */
export function approvalRefusal(
  operator: { email: string; role: OperatorRole },
  b: Pick<Broadcast, 'state' | 'createdBy' | 'updatedBy' | 'editors' | 'approval'>,
): string | null {
  if (!roleAllows(operator.role, 'sender')) return 'Approving a broadcast needs a sender or an owner of the console.';
  if (b.state !== 'draft') return 'Only a draft can be approved; this broadcast has been sent or cancelled.';
  if (sameOperator(b.createdBy, operator.email))
    return 'You wrote this broadcast: a second operator, who neither wrote nor edited it, must approve it.';
  if (sameOperator(b.updatedBy, operator.email))
    return 'You edited this broadcast last: a second operator, who neither wrote nor edited it, must approve it.';
  // Not only the last edit: a change of yours that nobody has approved since is still in the text,
  // whoever edited after you (A writes, B adds a paragraph, A changes the subject: B may not approve).
  if (b.editors.some((e) => sameOperator(e, operator.email)))
    return 'You edited this broadcast since it was last approved: a second operator, who neither wrote nor edited it, must approve it.';
  if (b.approval) return `It is approved already (by ${b.approval.by}).`;
  return null;
}

export const broadcastListSchema = z.object({
  broadcasts: z.array(z.pick(broadcastSchema, { id: true, subject: true, state: true, createdAt: true, sentAt: true })),
});
export type BroadcastList = z.output<typeof broadcastListSchema>;

const localeSchema = z.enum(locales, { error: `The locale must be one of ${locales.join(', ')}.` });

/** Preview and test send: the version a subscriber of this locale would get (English when left out). */
export const broadcastLocaleQuerySchema = z.strictObject({ locale: z.optional(localeSchema) });
export const broadcastTestSchema = z.strictObject({ locale: z.optional(localeSchema) });

export const broadcastPreviewSchema = z.object({
  /** The locale asked for, and the locale of the version shown (English when it falls back). */
  locale: localeSchema,
  versionLocale: localeSchema,
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  refusal: z.nullable(z.string()),
});
export type BroadcastPreview = z.output<typeof broadcastPreviewSchema>;

export const testSentSchema = z.object({ sentTo: z.string(), locale: localeSchema, versionLocale: localeSchema });
