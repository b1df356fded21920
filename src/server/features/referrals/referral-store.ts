import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { isInviteCode } from '../../../shared/referrals.ts';
import type { Database } from '../../store/schema.ts';
import { decideInvite } from './referral-decision.ts';
import type { ReferralCaps } from './referrals-config.ts';
import { newInviteCode } from './invite-code.ts';
import { domainOf } from './mailbox.ts';
import { isLargePublicProvider, siteOf } from './invite-domains.ts';
import { dayOf } from '../../lib/days.ts';

// Invite codes and attributions in the store. Counts shown are never stored: they are counted from
// the attributions, so erasing a person (the foreign keys cascade) takes their code, their invites
// and what they counted for someone else with them. The one stored number is the network's slots
// used today (referral_network_days), a keyed hash and a count, gone after its day.

const dayStart = (now: Date): string => `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;

/** The person whose invite code this is, or null (malformed, unknown, or erased). */
export async function referrerOfCode(db: Kysely<Database>, code: unknown): Promise<string | null> {
  if (!isInviteCode(code)) return null;
  const row = await db.selectFrom('referral_codes').select('subscriber_id').where('code', '=', code).executeTakeFirst();
  return row?.subscriber_id ?? null;
}

/**
 * Notes that `invitedId` signed up through `code`: once per person, and only by the sign-up that
 * created their row (`created`). A second submission of a pending address cannot attach a code to
 * someone else's sign-up and have their confirmation count for it. A malformed or
 * unknown code, or one's own, is ignored: the sign-up is the same either way.
 */
export async function attributeSignup(
  db: Kysely<Database>,
  a: { code: unknown; invitedId: string; invitedEmail: string; networkKey: string | null; now: Date; created: boolean },
): Promise<'attributed' | 'ignored'> {
  if (!a.created) return 'ignored';
  const referrerId = await referrerOfCode(db, a.code);
  if (referrerId === null || referrerId === a.invitedId) return 'ignored';
  const invited = await db.selectFrom('subscribers').select('status').where('id', '=', a.invitedId).executeTakeFirst();
  if (invited?.status !== 'pending') return 'ignored';
  const result = await db
    .insertInto('referral_attributions')
    .values({
      invited_id: a.invitedId,
      referrer_id: referrerId,
      network_key: a.networkKey,
      created_at: a.now.toISOString(),
      status: 'pending',
      decided_at: null,
      invited_domain: domainOf(a.invitedEmail),
    })
    .onConflict((oc) => oc.column('invited_id').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n ? 'attributed' : 'ignored';
}

/** What deciding an invite needs besides the store: now, the caps, and the keyed hashes. */
export interface DecisionContext {
  invitedId: string;
  /** The confirmation's client network, keyed (and as keyed before the /48, see referrals-plugin.ts). */
  networkKeys: readonly string[];
  /** The keyed hash of the mailbox an address reaches (mailboxOf's spelling); never the address. */
  mailboxKey: (email: string) => string;
  now: Date;
  caps: ReferralCaps;
}

/**
 * Decides a pending attribution when the invited person confirms (inside the confirmation's
 * transaction, `db`): counted, or refused with its reason. Nothing when there is none.
 *
 * Every limit is taken in the store, never read in one step and written in another
 * (docs/decisions/0063): the referrer's row is locked first, so confirmations of one referrer's
 * invitees are decided one after another and each reads what the one before wrote (the
 * one-mailbox rule, the one-domain rule and the referrer's daily cap are read from the
 * attributions, so an erasure makes them fall); the network's daily cap, which spans referrers,
 * is a counter row taken by one conditional upsert.
 */
export async function decideOnConfirm(db: Kysely<Database>, d: DecisionContext): Promise<void> {
  const before = await pendingInvite(db, d.invitedId);
  if (!before) return;
  await lockReferrer(db, before.referrer_id);
  // Read again under the lock: a second press of the same link may have decided it meanwhile, and
  // must not take a network slot for nothing.
  const pending = await pendingInvite(db, d.invitedId);
  if (!pending) return;
  const referrerId = pending.referrer_id;
  const mailboxKey = d.mailboxKey(pending.invited_email);
  const domain = domainOf(pending.invited_email);
  let status = decideInvite(
    {
      invitedNetworks: [pending.network_key, ...d.networkKeys],
      referrerNetworks: [pending.code_network, pending.referrer_signup_network],
      invitedEmail: pending.invited_email,
      referrerEmail: pending.referrer_email,
      mailboxCounted: await mailboxCounted(db, referrerId, mailboxKey, d.mailboxKey),
      countedAtDomain: domain === null || isLargePublicProvider(domain) ? 0 : await countedAt(db, referrerId, domain),
      countedTodayForReferrer: await countedToday(db, referrerId, dayStart(d.now)),
    },
    d.caps,
  );
  if (status === 'counted' && !(await takeNetworkSlot(db, pending.network_key, d.now, d.caps.perNetworkDaily)))
    status = 'capped';
  await db
    .updateTable('referral_attributions')
    .set({ status, decided_at: d.now.toISOString(), mailbox_key: mailboxKey })
    .where('invited_id', '=', d.invitedId)
    .where('status', '=', 'pending')
    .execute();
}

function pendingInvite(db: Kysely<Database>, invitedId: string) {
  return db
    .selectFrom('referral_attributions as a')
    .innerJoin('subscribers as invited', 'invited.id', 'a.invited_id')
    .innerJoin('subscribers as referrer', 'referrer.id', 'a.referrer_id')
    .leftJoin('referral_codes as c', 'c.subscriber_id', 'a.referrer_id')
    .leftJoin('referral_attributions as own', 'own.invited_id', 'a.referrer_id')
    .select([
      'a.referrer_id',
      'a.network_key',
      'invited.email as invited_email',
      'referrer.email as referrer_email',
      'c.network_key as code_network',
      'own.network_key as referrer_signup_network',
    ])
    .where('a.invited_id', '=', invitedId)
    .where('a.status', '=', 'pending')
    .executeTakeFirst();
}

/**
 * Holds the referrer's invite-code row until the transaction ends (PostgreSQL: FOR UPDATE), so a
 * second confirmation of their invitees waits here and then reads this one's decision (READ
 * COMMITTED reads afresh at each statement). SQLite needs nothing: the app opens every
 * transaction with BEGIN IMMEDIATE (store/database.ts), so one writer runs at a time.
 */
async function lockReferrer(db: Kysely<Database>, referrerId: string): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db
    .selectFrom('referral_codes')
    .select('subscriber_id')
    .where('subscriber_id', '=', referrerId)
    .forUpdate()
    .execute();
}

/**
 * Whether another of the referrer's invitees in this mailbox has counted. Invitees counted before
 * mailbox keys were kept (migration 0030) get theirs now, under the referrer's lock, from their
 * stored address: no second spelling of anyone's address is stored.
 */
async function mailboxCounted(
  db: Kysely<Database>,
  referrerId: string,
  key: string,
  keyOf: (email: string) => string,
): Promise<boolean> {
  const unkeyed = await db
    .selectFrom('referral_attributions as a')
    .innerJoin('subscribers as s', 's.id', 'a.invited_id')
    .select(['a.invited_id', 's.email'])
    .where('a.referrer_id', '=', referrerId)
    .where('a.status', '=', 'counted')
    .where('a.mailbox_key', 'is', null)
    .execute();
  for (const u of unkeyed)
    await db
      .updateTable('referral_attributions')
      .set({ mailbox_key: keyOf(u.email) })
      .where('invited_id', '=', u.invited_id)
      .execute();
  const row = await db
    .selectFrom('referral_attributions')
    .select('invited_id')
    .where('referrer_id', '=', referrerId)
    .where('mailbox_key', '=', key)
    .where('status', '=', 'counted')
    .executeTakeFirst();
  return row !== undefined;
}

/** The referrer's counted invitees, ever, at `domain`'s registered domain or any domain under it. */
async function countedAt(db: Kysely<Database>, referrerId: string, domain: string): Promise<number> {
  const site = siteOf(domain);
  const row = await db
    .selectFrom('referral_attributions')
    .select(sql<number>`count(*)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .where('status', '=', 'counted')
    .where((eb) => eb.or([eb('invited_domain', '=', site), eb('invited_domain', 'like', `%.${site}`)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function countedToday(db: Kysely<Database>, referrerId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('referral_attributions')
    .select(sql<number>`count(*)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .where('status', '=', 'counted')
    .where('decided_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes one of the network's invites for today, or says there is none left: one upsert on the
 * (day, network) row that adds 1 only while it is below the cap, and returns a row only when it
 * did. Concurrent confirmations from one network queue on that row; exactly `cap` get a row back.
 * The row holds slots, not people: it is not lowered when a counted person is erased (a slot
 * used today stays used today), and it is deleted after its day (purgeNetworkDays).
 */
async function takeNetworkSlot(
  db: Kysely<Database>,
  networkKey: string | null,
  now: Date,
  cap: number,
): Promise<boolean> {
  if (networkKey === null) return true;
  if (cap <= 0) return false;
  const taken = await db
    .insertInto('referral_network_days')
    .values({ day: dayOf(now), network_key: networkKey, counted: 1 })
    .onConflict((oc) =>
      oc
        .columns(['day', 'network_key'])
        .doUpdateSet((eb) => ({ counted: eb('referral_network_days.counted', '+', 1) }))
        .where('referral_network_days.counted', '<', cap),
    )
    .returning('counted')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Deletes the network counters of days before `now`'s (an hourly job): they decide nothing. */
export async function purgeNetworkDays(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('referral_network_days').where('day', '<', dayOf(now)).execute();
}

/** The person's invite code, or null when they have none yet. */
export async function inviteCodeOf(db: Kysely<Database>, subscriberId: string): Promise<string | null> {
  const row = await db
    .selectFrom('referral_codes')
    .select('code')
    .where('subscriber_id', '=', subscriberId)
    .executeTakeFirst();
  return row?.code ?? null;
}

/**
 * The person's invite code, made now if they have none (a confirmed person's, at confirmation or
 * when they ask for it: always on a POST). `networkKey` is where it was made from.
 */
export async function ensureInviteCode(
  db: Kysely<Database>,
  subscriberId: string,
  networkKey: string | null,
  now: Date,
): Promise<string> {
  await db
    .insertInto('referral_codes')
    .values({
      subscriber_id: subscriberId,
      code: newInviteCode(),
      network_key: networkKey,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('subscriber_id').doNothing())
    .execute();
  const code = await inviteCodeOf(db, subscriberId);
  if (code === null) throw new Error('invite code vanished as it was made');
  return code;
}

/** How many people came through this person's link, confirmed and counted. */
export async function confirmedInvites(db: Kysely<Database>, referrerId: string): Promise<number> {
  const row = await db
    .selectFrom('referral_attributions')
    .select(sql<number>`count(*)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .where('status', '=', 'counted')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Confirmed, counted invites for each of `ids` (absent: none), for a list or an export. */
export async function confirmedInvitesOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('referral_attributions')
      .select(['referrer_id', sql<number>`count(*)`.as('n')])
      .where('referrer_id', 'in', ids.slice(i, i + 500))
      .where('status', '=', 'counted')
      .groupBy('referrer_id')
      .execute();
    for (const r of rows) counts.set(r.referrer_id, Number(r.n));
  }
  return counts;
}
