import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import { defaultLocale, type Locale } from '../../../shared/locales.ts';
import { signupFields, type SignupField, type SignupInput } from '../../../shared/signup-schema.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { Database, SubscribersTable, SubscriberStatus } from '../../store/schema.ts';
import { newOutboxRow, type Suppressions } from '../mail/index.ts';
import { consentWordingIn } from './consent-wordings.ts';

// What a batch of sign-ups means, decided before anything is written: who is new, who is known
// (and in which state), who is suppressed, and whose confirmation email is queued. The writes
// that carry it out, and the batch the group committer runs, are in signup-store.ts.

/** The outbox kind of the confirmation email (its composer: confirmation-composer.ts). */
export const CONFIRMATION_KIND = 'confirmation';

/** At most one confirmation email per address in this window, however often it signs up. */
export const CONFIRMATION_COOLDOWN_MS = 15 * 60 * 1000;
export const CONFIRM_LINK_VALID_MS = 7 * 24 * 60 * 60 * 1000;

export interface SignupMeta {
  now: Date;
  /** The page the form was on, e.g. "/". */
  page: string;
  location?: { country: string | null; region: string | null; city: string | null };
  /** The locale of that page: their emails are written in it. The default locale when not given. */
  locale?: Locale;
}

export interface SignupResult {
  outcome: 'created' | 'updated' | 'resubscribed';
  subscriberId: string;
  emailQueued: boolean;
}

const iso = (d: Date) => d.toISOString();

/**
 * What a sign-up stores of what was typed: the form's fields (signupFields), never a hidden one
 * (the honeypot; the locale, stored from the sign-up's meta). A field added to the schema lands
 * here by itself, in the column of its name (SubscribersTable takes its columns from the schema).
 */
const typedFields = (input: SignupInput): Pick<SignupInput, SignupField> =>
  Object.fromEntries(signupFields.map((field) => [field, input[field]])) as Pick<SignupInput, SignupField>;

const outboxRow = (subscriberId: string, now: Date) => newOutboxRow(CONFIRMATION_KIND, subscriberId, now);

type SubscriberRow = Insertable<SubscribersTable>;
type SubscriberUpdate = Updateable<SubscribersTable>;
interface Known {
  id: string;
  status: SubscriberStatus;
  last_confirmation_at: string | null;
  /** Inserted by this very batch: later sign-ups for it amend the pending insert. */
  pendingInsert?: SubscriberRow;
}

// Rows per multi-row statement: 18 columns × 200 stays far below SQLite's variable limit.
export const CHUNK = 200;

/**
 * The batch's one read: the subscribers it names and, in the same statement, which of their
 * addresses are suppressed (by keyed hash, `hashes`: hash → address). On PostgreSQL every
 * statement is a round trip, and each round trip costs the driver and the server more than the
 * rows it carries (docs/decisions/0047).
 */
async function readKnown(
  trx: Kysely<Database>,
  keys: string[],
  hashes: Map<string, string>,
): Promise<{
  known: { id: string; email_key: string; status: SubscriberStatus; last_confirmation_at: string | null }[];
  suppressed: string[];
}> {
  const subscribers = trx
    .selectFrom('subscribers')
    .select([sql.lit('subscriber').as('source'), 'id', 'email_key', 'status', 'last_confirmation_at'])
    .where('email_key', 'in', keys);
  const rows =
    hashes.size === 0
      ? await subscribers.execute()
      : await subscribers
          .unionAll(
            trx
              .selectFrom('suppressions')
              .select([
                sql.lit('suppression').as('source'),
                sql<string>`null`.as('id'),
                'address_hash as email_key',
                sql<SubscriberStatus>`null`.as('status'),
                sql<string | null>`null`.as('last_confirmation_at'),
              ])
              .where('address_hash', 'in', [...hashes.keys()])
              .where('lifted_at', 'is', null),
          )
          .execute();
  const known = [];
  const suppressed = [];
  for (const { source, ...row } of rows) {
    if (source === 'subscriber') known.push(row);
    else suppressed.push(hashes.get(row.email_key) ?? '');
  }
  return { known, suppressed: suppressed.filter(Boolean) };
}

export type SignupItem = { input: SignupInput; meta: SignupMeta };

/** What a batch of sign-ups writes, decided from the batch's one read. */
export interface SignupWrites {
  inserts: SubscriberRow[];
  updates: Map<string, SubscriberUpdate>;
  emails: ReturnType<typeof outboxRow>[];
  results: SignupResult[];
}

/**
 * Reads what the batch's addresses already are (one SELECT, their suppressions with it) and
 * decides each sign-up's writes and answer. A new address is stored pending with its consent, its
 * confirmation email queued with it. A known address (the caller cannot tell the difference: no
 * enumeration) that is not yet confirmed has its name and comment updated and gets another
 * confirmation email once the cooldown has passed; a confirmed one is left exactly as it is.
 */
export async function planSignups(
  reader: Kysely<Database>,
  suppressions: Suppressions | undefined,
  items: SignupItem[],
): Promise<SignupWrites> {
  const keys = [...new Set(items.map((i) => i.input.email.toLowerCase()))];
  // A suppressed address is stored as any sign-up and answered alike (no enumeration), but is
  // never mailed: its confirmation is not queued.
  const suppressed = new Set<string>();
  const known = new Map<string, Known>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    const read = await readKnown(reader, chunk, suppressions?.hashesOf(chunk) ?? new Map<string, string>());
    for (const r of read.known) known.set(r.email_key, r);
    for (const address of read.suppressed) suppressed.add(address);
  }

  const inserts: SubscriberRow[] = [];
  const updates = new Map<string, SubscriberUpdate>();
  const emails: ReturnType<typeof outboxRow>[] = [];
  const results: SignupResult[] = [];
  for (const { input, meta } of items) {
    const key = input.email.toLowerCase();
    const now = iso(meta.now);
    const row = known.get(key);
    if (!row) {
      // Time-ordered: new rows land at the end of the key's index, not on a random page of it.
      const id = timeOrderedId();
      const insert: SubscriberRow = {
        id,
        ...typedFields(input),
        email_key: key,
        status: 'pending',
        created_at: now,
        updated_at: now,
        confirmed_at: null,
        unsubscribed_at: null,
        last_confirmation_at: now,
        consent_version: consentWordingIn(meta.locale ?? defaultLocale).version,
        consent_at: now,
        consent_page: meta.page,
        country: meta.location?.country ?? null,
        region: meta.location?.region ?? null,
        city: meta.location?.city ?? null,
        locale: meta.locale ?? defaultLocale,
      };
      const mail = !suppressed.has(key);
      if (!mail) insert.last_confirmation_at = null;
      inserts.push(insert);
      if (mail) emails.push(outboxRow(id, meta.now));
      known.set(key, {
        id,
        status: 'pending',
        last_confirmation_at: insert.last_confirmation_at ?? null,
        pendingInsert: insert,
      });
      results.push({ outcome: 'created', subscriberId: id, emailQueued: mail });
      continue;
    }
    if (row.pendingInsert) {
      // The same address twice in one batch: the second is an update, mailed already.
      Object.assign(row.pendingInsert, { ...typedFields(input), updated_at: now });
      results.push({ outcome: 'updated', subscriberId: row.id, emailQueued: false });
      continue;
    }

    if (row.status === 'confirmed') {
      // Whoever types a confirmed person's address cannot change their record: only the person
      // consented to what is stored. Same answer as any sign-up (the caller cannot tell).
      results.push({ outcome: 'updated', subscriberId: row.id, emailQueued: false });
      continue;
    }

    const cooledDown =
      row.last_confirmation_at === null ||
      meta.now.getTime() - Date.parse(row.last_confirmation_at) >= CONFIRMATION_COOLDOWN_MS;
    const wasUnsubscribed = row.status === 'unsubscribed';
    const sendAgain = cooledDown && !suppressed.has(key);
    const status: SubscriberStatus = wasUnsubscribed ? 'pending' : row.status;
    updates.set(row.id, {
      ...updates.get(row.id),
      ...typedFields(input),
      status,
      updated_at: now,
      // Asking again is consenting again, to the wording shown now.
      consent_version: consentWordingIn(meta.locale ?? defaultLocale).version,
      consent_at: now,
      consent_page: meta.page,
      locale: meta.locale ?? defaultLocale,
      ...(sendAgain ? { last_confirmation_at: now } : {}),
    });
    row.status = status;
    if (sendAgain) {
      row.last_confirmation_at = now;
      emails.push(outboxRow(row.id, meta.now));
    }
    results.push({
      outcome: wasUnsubscribed ? 'resubscribed' : 'updated',
      subscriberId: row.id,
      emailQueued: sendAgain,
    });
  }
  return { inserts, updates, emails, results };
}
