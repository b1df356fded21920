import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AllowlistPurpose, AllowlistStatus } from '../../../shared/allowlist/allowlist-schema.ts';
import type { Database } from '../../store/schema.ts';

// The allowlist's rows: its entries (one per address) and the nonces of the messages the server
// wrote. Times are ISO strings, as everywhere in the store.

type Db = Kysely<Database> | Transaction<Database>;

/** A used nonce is kept this long past its expiry, so a late replay is still named a replay. */
const USED_NONCE_KEEP_MS = 60 * 60 * 1000;

export async function issueNonce(
  db: Db,
  row: { nonce: string; address: string; purpose: AllowlistPurpose; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('allowlist_nonces')
    .values({
      nonce: row.nonce,
      address: row.address,
      purpose: row.purpose,
      issued_at: row.now.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      used_at: null,
    })
    .execute();
  // Old ones go as new ones come: the table holds about one hour of messages, whatever the load.
  await db
    .deleteFrom('allowlist_nonces')
    .where('expires_at', '<', new Date(row.now.getTime() - USED_NONCE_KEEP_MS).toISOString())
    .execute();
}

export type NonceOutcome = 'ok' | 'unknown' | 'used' | 'expired' | 'other-address' | 'other-purpose';

/**
 * Uses a nonce up, once: the first of two racing requests (on any instance) marks it used, the
 * other finds it used. Checked against what the server wrote it for.
 */
export async function useNonce(
  trx: Transaction<Database>,
  opts: { nonce: string; address: string; purpose: AllowlistPurpose; now: Date },
): Promise<NonceOutcome> {
  const now = opts.now.toISOString();
  const taken = await trx
    .updateTable('allowlist_nonces')
    .set({ used_at: now })
    .where('nonce', '=', opts.nonce)
    .where('used_at', 'is', null)
    .returning(['address', 'purpose', 'expires_at'])
    .executeTakeFirst();
  if (!taken) {
    const known = await trx
      .selectFrom('allowlist_nonces')
      .select('nonce')
      .where('nonce', '=', opts.nonce)
      .executeTakeFirst();
    return known ? 'used' : 'unknown';
  }
  if (taken.expires_at <= now) return 'expired';
  if (taken.address !== opts.address) return 'other-address';
  if (taken.purpose !== opts.purpose) return 'other-purpose';
  return 'ok';
}

/**
 * Puts an address on the list with the terms' version its message accepted; already there, it
 * keeps its first time and now holds the version just accepted. Returns that first time.
 */
export async function addEntry(
  trx: Transaction<Database>,
  entry: { address: string; now: Date; country: string | null; termsVersion: string },
): Promise<string> {
  await trx
    .insertInto('allowlist_entries')
    .values({
      address: entry.address,
      joined_at: entry.now.toISOString(),
      country: entry.country,
      terms_version: entry.termsVersion,
    })
    .onConflict((oc) => oc.column('address').doUpdateSet({ terms_version: entry.termsVersion }))
    .execute();
  const row = await trx
    .selectFrom('allowlist_entries')
    .select('joined_at')
    .where('address', '=', entry.address)
    .executeTakeFirstOrThrow();
  return row.joined_at;
}

export async function removeEntry(db: Db, address: string): Promise<boolean> {
  const result = await db.deleteFrom('allowlist_entries').where('address', '=', address).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function entryStatus(db: Db, address: string): Promise<AllowlistStatus> {
  const row = await db
    .selectFrom('allowlist_entries')
    .select('joined_at')
    .where('address', '=', address)
    .executeTakeFirst();
  return { address, since: row?.joined_at ?? null };
}

/**
 * How long the link token a join reply carries stays good: long enough to type an address after
 * signing, short enough that a token left in a closed tab is soon worth nothing.
 */
const LINK_TOKEN_TTL_MS = 30 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A fresh single-use link token for an address just proved by a signed join (in that join's
 * transaction). Only its digest is stored; a newer join replaces an older token.
 */
export async function issueLinkToken(trx: Transaction<Database>, address: string, now: Date): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await trx
    .updateTable('allowlist_entries')
    .set({
      link_token_hash: digest(token),
      link_token_expires_at: new Date(now.getTime() + LINK_TOKEN_TTL_MS).toISOString(),
    })
    .where('address', '=', address)
    .execute();
  return token;
}

/**
 * Spends a link token, once: the address it was given for, or null when it is unknown, spent,
 * expired, or its entry has left the list. Two racing requests: one UPDATE wins.
 */
export async function spendLinkToken(db: Db, token: string, now: Date): Promise<string | null> {
  const row = await db
    .updateTable('allowlist_entries')
    .set({ link_token_hash: null, link_token_expires_at: null })
    .where('link_token_hash', '=', digest(token))
    .where('link_token_expires_at', '>', now.toISOString())
    .returning('address')
    .executeTakeFirst();
  return row?.address ?? null;
}

/**
 * Counts one join refused because the lookup placed it in `country`: one upsert, so refusals
 * arriving together on any instance all count. Only the country is written, never who.
 */
export async function countCountryRefusal(db: Db, country: string): Promise<void> {
  await db
    .insertInto('allowlist_country_refusals')
    .values({ country, refused: 1 })
    .onConflict((oc) =>
      oc.column('country').doUpdateSet((eb) => ({ refused: eb('allowlist_country_refusals.refused', '+', 1) })),
    )
    .execute();
}

/** Joins refused by country, the most first. */
export async function countryRefusals(db: Db): Promise<{ country: string; refused: number }[]> {
  const rows = await db
    .selectFrom('allowlist_country_refusals')
    .select(['country', 'refused'])
    .orderBy('refused', 'desc')
    .orderBy('country')
    .execute();
  // PostgreSQL's integer comes back as a number, SQLite's too; Number() keeps a bigint driver honest.
  return rows.map((r) => ({ country: r.country, refused: Number(r.refused) }));
}
