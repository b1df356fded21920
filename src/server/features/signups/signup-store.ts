import { type Insertable, type Kysely, PostgresAdapter, sql, type Transaction, type Updateable } from 'kysely';
import { defaultLocale, type Locale } from '../../../../content/messages/locales.ts';
import type { SignupInput } from '../../../shared/signup-schema.ts';
import { allConsentWordings, consentWordingIn } from './consent-wordings.ts';
import type { BatchKind, Job } from '../../store/group-commit.ts';
import type { Database, SubscribersTable, SubscriberStatus } from '../../store/schema.ts';
import { newOutboxRow } from '../mail/index.ts';
import { hashToken } from './tokens.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { Suppressions } from '../mail/index.ts';

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

/** Keeps the wording of each consent version on record (sign-ups reference it). Idempotent. */
export async function recordConsentWording(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .insertInto('consent_wordings')
    .values(allConsentWordings().map((w) => ({ version: w.version, text: w.text, created_at: iso(now) })))
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
}

/**
 * What a sign-up stores of what was typed: every field of the schema but the honeypot and the locale. A field
 * added to the schema lands here by itself, and the compiler asks for its column (schema.ts).
 */
function typedFields(input: SignupInput): Omit<SignupInput, 'website' | 'locale'> {
  const fields = { ...input };
  delete fields.website;
  // Stored as the subscriber's locale from the sign-up's meta, which the route takes from here.
  delete fields.locale;
  return fields;
}

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
const CHUNK = 200;

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

type SignupItem = { input: SignupInput; meta: SignupMeta };

/** What a batch of sign-ups writes, decided from the batch's one read. */
interface SignupWrites {
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
async function planSignups(
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

const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The new people and their confirmation emails as one statement where it can be: on PostgreSQL
 * a data-modifying WITH (PostgreSQL checks the outbox rows' foreign key at the statement's end,
 * when the subscribers it names are in), within one chunk. SQLite has no INSERT inside WITH, and
 * no round trips to save.
 */
function insertsAsOne(db: Kysely<Database>, w: SignupWrites): { execute(): Promise<unknown> } | undefined {
  if (!isPostgres(db) || w.inserts.length === 0 || w.inserts.length > CHUNK || w.emails.length > CHUNK)
    return undefined;
  if (w.emails.length === 0) return db.insertInto('subscribers').values(w.inserts);
  return db
    .with('new_subscribers', (q) => q.insertInto('subscribers').values(w.inserts))
    .insertInto('outbox')
    .values(w.emails);
}

/** The batch's writes, inside the transaction `trx`: an UPDATE per known address, then the inserts. */
async function writeSignups(trx: Transaction<Database>, w: SignupWrites): Promise<void> {
  for (const [id, set] of w.updates) await trx.updateTable('subscribers').set(set).where('id', '=', id).execute();
  const one = insertsAsOne(trx, w);
  if (one) {
    await one.execute();
    return;
  }
  for (let i = 0; i < w.inserts.length; i += CHUNK) {
    await trx
      .insertInto('subscribers')
      .values(w.inserts.slice(i, i + CHUNK))
      .execute();
  }
  for (let i = 0; i < w.emails.length; i += CHUNK) {
    await trx
      .insertInto('outbox')
      .values(w.emails.slice(i, i + CHUNK))
      .execute();
  }
}

/**
 * Sign-ups as a batch for the group committer: one SELECT for every address in the batch (and
 * their suppressions), one multi-row INSERT for the new people and one for their confirmation
 * emails (one statement on PostgreSQL), and an UPDATE per known address (planSignups says which).
 *
 * On PostgreSQL a batch of sign-ups alone runs without the committer's transaction (runAlone):
 * its read needs none (under READ COMMITTED, PostgreSQL's default, which the app keeps, a SELECT
 * inside a transaction sees no more and locks no more than one just before it), and its writes
 * are atomic by themselves when they are one statement, the common case of new addresses only;
 * otherwise they get a transaction of their own. Two round trips instead of four: BEGIN and
 * COMMIT cost a busy machine a wake-up of the backend and of the server each
 * (docs/decisions/0053). A new address that another instance inserts between the read and the
 * write fails the statement on the unique key, and the committer retries each sign-up (even a
 * lone one) in a transaction of its own, where it is read again and found.
 */
export function signupBatchWith(suppressions?: Suppressions): BatchKind<SignupItem, SignupResult> {
  const run = async (trx: Transaction<Database>, items: SignupItem[]): Promise<SignupResult[]> => {
    const w = await planSignups(trx, suppressions, items);
    await writeSignups(trx, w);
    return w.results;
  };
  return {
    run,
    async runAlone(db, items) {
      // SQLite: one connection, no round trips to save; the batch keeps its one transaction.
      if (!isPostgres(db)) return db.transaction().execute((trx) => run(trx, items));
      const w = await planSignups(db, suppressions, items);
      const one = w.updates.size === 0 ? insertsAsOne(db, w) : undefined;
      if (one) await one.execute();
      else if (w.updates.size > 0 || w.inserts.length > 0)
        await db.transaction().execute((trx) => writeSignups(trx, w));
      return w.results;
    },
  };
}

/** Sign-ups without a suppression list (tests, scripts); the server's carries app.suppressions. */
export const signupBatch = signupBatchWith();

/** One sign-up on its own (tests, scripts); the server queues them through signupBatch. */
export function signupJob(input: SignupInput, meta: SignupMeta): Job<SignupResult> {
  return async (trx) => {
    const [result] = await signupBatch.run(trx, [{ input, meta }]);
    if (!result) throw new Error('signupBatch returned no result');
    return result;
  };
}

export type ConfirmResult = 'confirmed' | 'already-confirmed' | 'expired' | 'invalid';
export type ConfirmLinkState = 'pending' | 'already-confirmed' | 'expired' | 'invalid';

const wellFormedToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

function findConfirmLink(db: Kysely<Database>, token: string) {
  return db
    .selectFrom('outbox')
    .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
    .select(['outbox.subscriber_id', 'outbox.token_expires_at', 'subscribers.status'])
    .where('outbox.token_hash', '=', hashToken(token))
    .executeTakeFirst();
}

const isExpired = (expiresAt: string | null, now: Date) => expiresAt === null || Date.parse(expiresAt) < now.getTime();

/**
 * What a confirmation link would do if pressed, without doing it: opening a link (GET, HEAD, a
 * mail scanner) must change nothing and spend nothing.
 */
export async function inspectConfirmLink(db: Kysely<Database>, token: string, now: Date): Promise<ConfirmLinkState> {
  if (!wellFormedToken(token)) return 'invalid';
  const row = await findConfirmLink(db, token);
  if (!row) return 'invalid';
  if (isExpired(row.token_expires_at, now)) return 'expired';
  return row.status === 'confirmed' ? 'already-confirmed' : 'pending';
}

/** Presses a confirmation link: single use, valid for 7 days from sending. */
export async function confirmSubscriber(db: Kysely<Database>, token: string, now: Date): Promise<ConfirmResult> {
  if (!wellFormedToken(token)) return 'invalid';
  return db.transaction().execute(async (trx) => {
    const row = await findConfirmLink(trx, token);
    if (!row) return 'invalid';
    if (isExpired(row.token_expires_at, now)) return 'expired';
    // Single use: every outstanding confirmation link of this person stops working.
    await trx
      .updateTable('outbox')
      .set({ token_hash: null, token_expires_at: null })
      .where('subscriber_id', '=', row.subscriber_id)
      .where('kind', '=', CONFIRMATION_KIND)
      .execute();
    if (row.status === 'confirmed') return 'already-confirmed';
    await trx
      .updateTable('subscribers')
      .set({
        status: 'confirmed',
        confirmed_at: now.toISOString(),
        updated_at: now.toISOString(),
        unsubscribed_at: null,
      })
      .where('id', '=', row.subscriber_id)
      .execute();
    return 'confirmed';
  });
}

/** A subscriber's status, or null when there is no such subscriber (never was, or erased). */
export async function subscriberStatus(db: Kysely<Database>, subscriberId: string): Promise<SubscriberStatus | null> {
  const row = await db.selectFrom('subscribers').select('status').where('id', '=', subscriberId).executeTakeFirst();
  return row?.status ?? null;
}

/** Unsubscribes; pending mail to this person is cancelled in the same transaction. */
export async function unsubscribeSubscriber(
  db: Kysely<Database>,
  subscriberId: string,
  now: Date,
): Promise<'unsubscribed' | 'unknown'> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('subscribers')
      .set({ status: 'unsubscribed', unsubscribed_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', subscriberId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return 'unknown';
    await trx
      .updateTable('outbox')
      .set({ status: 'cancelled' })
      .where('subscriber_id', '=', subscriberId)
      .where('status', '=', 'pending')
      .execute();
    // A confirmation link from before must not quietly put them back on the list.
    await trx
      .updateTable('outbox')
      .set({ token_hash: null, token_expires_at: null })
      .where('subscriber_id', '=', subscriberId)
      .execute();
    return 'unsubscribed';
  });
}

/** Counts a bot caught by the honeypot or the time trap: nothing of theirs is stored. */
export function countAbuseJob(reason: 'honeypot' | 'too-fast', now: Date): Job<void> {
  return async (trx) => {
    await trx
      .insertInto('abuse_counters')
      .values({ day: now.toISOString().slice(0, 10), reason, count: 1 })
      .onConflict((oc) =>
        oc.columns(['day', 'reason']).doUpdateSet((eb) => ({ count: eb('abuse_counters.count', '+', 1) })),
      )
      .execute();
  };
}
