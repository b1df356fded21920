import { type Kysely, sql } from 'kysely';
import { isInviteCode } from '../../../shared/referrals.ts';
import type { Database } from '../../store/schema.ts';
import { decideInvite } from './referral-decision.ts';
import type { ReferralCaps } from './referrals-config.ts';
import { newInviteCode } from './invite-code.ts';
import { domainOf } from './mailbox.ts';

// Invite codes and attributions in the store. Counts are never stored: they are counted from the
// attributions, so erasing a person (the foreign keys cascade) takes their code, their invites and
// what they counted for someone else with them.

const dayStart = (now: Date): string => `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;

/** The person whose invite code this is, or null (malformed, unknown, or erased). */
export async function referrerOfCode(db: Kysely<Database>, code: unknown): Promise<string | null> {
  if (!isInviteCode(code)) return null;
  const row = await db.selectFrom('referral_codes').select('subscriber_id').where('code', '=', code).executeTakeFirst();
  return row?.subscriber_id ?? null;
}

/**
 * Notes that `invitedId` signed up through `code`: once per person (the first code they came
 * with), and only while they have not confirmed. A malformed or unknown code, or one's own, is
 * ignored: the sign-up is the same either way.
 */
export async function attributeSignup(
  db: Kysely<Database>,
  a: { code: unknown; invitedId: string; invitedEmail: string; networkKey: string | null; now: Date },
): Promise<'attributed' | 'ignored'> {
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

/**
 * Decides a pending attribution when the invited person confirms (inside the confirmation's
 * transaction, `db`): counted, or refused with its reason. Nothing when there is none.
 */
export async function decideOnConfirm(
  db: Kysely<Database>,
  d: { invitedId: string; networkKey: string | null; now: Date; caps: ReferralCaps },
): Promise<void> {
  const pending = await db
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
    .where('a.invited_id', '=', d.invitedId)
    .where('a.status', '=', 'pending')
    .executeTakeFirst();
  if (!pending) return;
  const since = dayStart(d.now);
  const countedSince = (column: 'referrer_id' | 'network_key', value: string | null) =>
    value === null
      ? Promise.resolve(0)
      : db
          .selectFrom('referral_attributions')
          .select(sql<number>`count(*)`.as('n'))
          .where(column, '=', value)
          .where('status', '=', 'counted')
          .where('decided_at', '>=', since)
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
  const status = decideInvite(
    {
      invitedNetworks: [pending.network_key, d.networkKey],
      referrerNetworks: [pending.code_network, pending.referrer_signup_network],
      invitedEmail: pending.invited_email,
      referrerEmail: pending.referrer_email,
      countedTodayForReferrer: await countedSince('referrer_id', pending.referrer_id),
      countedTodayFromNetwork: await countedSince('network_key', pending.network_key),
    },
    d.caps,
  );
  await db
    .updateTable('referral_attributions')
    .set({ status, decided_at: d.now.toISOString() })
    .where('invited_id', '=', d.invitedId)
    .where('status', '=', 'pending')
    .execute();
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
