import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { BatchKind, Job } from '../../store/group-commit.ts';
import type { Database } from '../../store/schema.ts';
import type { Suppressions } from '../mail/index.ts';
import type { SignupInput } from '../../../shared/signup-schema.ts';
import { allConsentWordings } from './consent-wordings.ts';
import {
  CHUNK,
  CONFIRMATION_COOLDOWN_MS,
  planSignups,
  type SignupItem,
  type SignupMeta,
  type SignupResult,
  type SignupWrites,
} from './signup-plan.ts';

// Sign-ups as the group committer's batch: the plan (signup-plan.ts) carried out in as few
// statements as the store allows. What an email's links do (confirm, unsubscribe) is in
// link-store.ts. The sign-up's policy is named here too, as the feature's other files know it.
export {
  CONFIRM_LINK_VALID_MS,
  CONFIRMATION_COOLDOWN_MS,
  CONFIRMATION_KIND,
  type SignupMeta,
  type SignupResult,
} from './signup-plan.ts';

const iso = (d: Date) => d.toISOString();

/** Keeps the wording of each consent version on record (sign-ups reference it). Idempotent. */
export async function recordConsentWording(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .insertInto('consent_wordings')
    .values(allConsentWordings().map((w) => ({ version: w.version, text: w.text, created_at: iso(now) })))
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
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

/**
 * Claims a known address's confirmation email: one conditional UPDATE that sets the time of the
 * last one only while the cool-down has passed and the person is not confirmed. The plan decided
 * from a read that another instance may have acted on since (on PostgreSQL two instances read the
 * same row at once); the row's lock and PostgreSQL's re-check of the WHERE clause after it let
 * exactly one of them through, so one email goes out per cool-down (docs/decisions/0063).
 */
async function claimConfirmationEmail(trx: Kysely<Database>, id: string, at: string): Promise<boolean> {
  const cutoff = new Date(Date.parse(at) - CONFIRMATION_COOLDOWN_MS).toISOString();
  const claimed = await trx
    .updateTable('subscribers')
    .set({ last_confirmation_at: at })
    .where('id', '=', id)
    .where('status', '!=', 'confirmed')
    .where((eb) => eb.or([eb('last_confirmation_at', 'is', null), eb('last_confirmation_at', '<=', cutoff)]))
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/**
 * The known addresses' updates. A person who confirmed since the plan's read is left as they are
 * (a sign-up never changes a confirmed record), and an email whose cool-down another instance
 * claimed first is dropped from the batch's emails and answers.
 */
async function writeUpdates(trx: Kysely<Database>, w: SignupWrites): Promise<void> {
  const lost = new Set<string>();
  for (const [id, { last_confirmation_at: at, ...set }] of w.updates) {
    if (typeof at === 'string' && !(await claimConfirmationEmail(trx, id, at))) lost.add(id);
    await trx.updateTable('subscribers').set(set).where('id', '=', id).where('status', '!=', 'confirmed').execute();
  }
  if (lost.size === 0) return;
  w.emails = w.emails.filter((e) => !lost.has(e.subscriber_id ?? ''));
  for (const r of w.results) if (lost.has(r.subscriberId)) r.emailQueued = false;
}

/** The batch's writes, inside the transaction `trx`: an UPDATE per known address, then the inserts. */
async function writeSignups(trx: Transaction<Database>, w: SignupWrites): Promise<void> {
  await writeUpdates(trx, w);
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
