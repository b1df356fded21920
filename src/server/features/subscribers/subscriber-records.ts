import type { Kysely } from 'kysely';
import type { PersonRecord, SubscriberDataExport, SubscriberEmail } from '../../../shared/admin/subscribers.ts';
import type { SignupField } from '../../../shared/signup-schema.ts';
import type { Database } from '../../store/schema.ts';
import { CONFIRMATION_COOLDOWN_MS } from '../signups/index.ts';
import { givenFields, type GivenField } from './given-fields.ts';

// What the console shows about one person, and the same as a data-subject export. What they typed
// is every field of the sign-up form (./given-fields.ts), so a field the form gains is in both.
// Outbox rows are read column by column: their link-token hash never leaves the database.

type Person = Omit<PersonRecord, 'resend'>;

async function readPerson(db: Kysely<Database>, id: string, fields: readonly GivenField[]): Promise<Person | null> {
  const s = await db
    .selectFrom('subscribers as s')
    .leftJoin('consent_wordings as w', 'w.version', 's.consent_version')
    .select(fields.map((f) => `s.${f.name}` as const))
    .select([
      's.id',
      's.status',
      's.created_at',
      's.updated_at',
      's.confirmed_at',
      's.unsubscribed_at',
      's.last_confirmation_at',
      's.consent_version',
      's.consent_at',
      's.consent_page',
      'w.text as consent_text',
      's.country',
      's.region',
      's.city',
      's.locale',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!s) return null;
  const emails = await db
    .selectFrom('outbox')
    .select(['id', 'kind', 'status', 'attempts', 'created_at', 'sent_at', 'last_error'])
    .where('subscriber_id', '=', id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    id: s.id,
    ...(Object.fromEntries(fields.map((f) => [f.name, s[f.name]])) as Record<SignupField, string>),
    status: s.status,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
    confirmedAt: s.confirmed_at,
    unsubscribedAt: s.unsubscribed_at,
    lastConfirmationAt: s.last_confirmation_at,
    consent: { version: s.consent_version, text: s.consent_text ?? null, at: s.consent_at, page: s.consent_page },
    location: { country: s.country, region: s.region, city: s.city },
    locale: s.locale,
    emails: emails.map((e): SubscriberEmail => ({
      id: e.id,
      kind: e.kind,
      status: e.status,
      attempts: Number(e.attempts),
      createdAt: e.created_at,
      sentAt: e.sent_at,
      lastError: e.last_error,
    })),
  };
}

/** When a confirmation could be resent: now, at the end of the cool-down, or never (not pending). */
function resendAvailability(
  person: { status: string; lastConfirmationAt: string | null },
  now: Date,
): PersonRecord['resend'] {
  if (person.status !== 'pending') return { allowed: false, availableAt: null };
  const at = person.lastConfirmationAt === null ? 0 : Date.parse(person.lastConfirmationAt) + CONFIRMATION_COOLDOWN_MS;
  return at <= now.getTime()
    ? { allowed: true, availableAt: null }
    : { allowed: false, availableAt: new Date(at).toISOString() };
}

/**
 * The detail view of one person, or null when there is no such person. `fields` are the sign-up
 * form's; a test passes one more, as a field added by the recipe would be.
 */
export async function subscriberDetail(
  db: Kysely<Database>,
  id: string,
  now: Date,
  fields = givenFields,
): Promise<PersonRecord | null> {
  const person = await readPerson(db, id, fields);
  return person && { ...person, resend: resendAvailability(person, now) };
}

/** Everything held about one person (a data-subject access request), or null when unknown. */
export async function subscriberDataExport(
  db: Kysely<Database>,
  id: string,
  now: Date,
  fields = givenFields,
): Promise<SubscriberDataExport | null> {
  const person = await readPerson(db, id, fields);
  return person && { exportedAt: now.toISOString(), person };
}
