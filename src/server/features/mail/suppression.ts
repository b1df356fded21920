import { createHmac, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BounceKind, Database, SuppressionReason } from '../../store/schema.ts';
import { deriveKey, type DataKey, type SecretBox } from '../../store/secret-box.ts';

// The suppression list (docs/decisions/0035-bounces-complaints-and-suppression.md): addresses
// never mailed again. Kept as keyed hashes of the normalised address (HMAC-SHA256 under a key
// derived from the data key, as the erasure ledger does), naming the data key, so a future
// sign-up of the same address is matched under every key in the ring, and the list itself holds
// no address.

/** Soft bounces of one address within SOFT_WINDOW_MS that suppress it. */
const SOFT_BOUNCE_LIMIT = 3;
const SOFT_WINDOW_MS = 7 * 24 * 60 * 60_000;

/**
 * Policy and content refusals (5.7.x: a receiver's filter, a blocklist, "not authorised") say
 * more about our mail than about the address, so one never suppresses and the brake does not count
 * them as hard bounces. An address is suppressed only when its receiver has refused
 * POLICY_REFUSAL_LIMIT different emails of ours, the first and the latest at least
 * POLICY_MIN_SPAN_MS apart, all within POLICY_WINDOW_MS: by then the refusal has outlasted a
 * campaign's content and the usual blocklist delisting or reputation repair (days), and mailing on
 * into a standing refusal is itself what providers count against a sender. A launch's emails
 * (confirmation, broadcast, a resend, within days) never reach it.
 */
const POLICY_REFUSAL_LIMIT = 3;
const POLICY_MIN_SPAN_MS = 14 * 24 * 60 * 60_000;
const POLICY_WINDOW_MS = 60 * 24 * 60 * 60_000;

const PURPOSE = 'suppression/v1';

/**
 * A provider's event naming only an address counts towards the latest broadcast row sent to that
 * address within this long (docs/decisions/0040): longer than mail servers keep retrying (Postfix
 * gives up after 5 days; providers' retries stop within 72 hours), so a late bounce still finds
 * its broadcast; short enough that a complaint about an old email does not land on a new one.
 */
const ADDRESS_ATTRIBUTION_MS = 7 * 24 * 60 * 60_000;

/** Lower-cased, trimmed, angle brackets and display name dropped: as subscribers.email_key. */
export function normaliseAddress(address: string): string {
  const bracketed = /<([^<>]+)>\s*$/.exec(address);
  return (bracketed?.[1] ?? address).trim().toLowerCase();
}

export interface BounceEvent {
  /** smtp, dsn, arf, postmark, mailgun, sendgrid, ses. */
  source: string;
  /** Unique within its source: the same event heard twice counts once. */
  eventId: string;
  kind: BounceKind;
  address: string;
  outboxId?: string | null;
  /** A mail server's status ("5.1.1") or a provider's bounce type; never an address. */
  detail?: string | null;
  now: Date;
}

export type BounceOutcome = 'duplicate' | 'counted' | 'suppressed';

type Db = Kysely<Database>;

/** Runs inside the transaction that stored a new (not duplicate) event; a throw rolls it back. */
export type StoredEventHook = (trx: Db, e: BounceEvent) => Promise<unknown>;

export class Suppressions {
  private readonly derived = new WeakMap<DataKey, Buffer>();
  private readonly hooks: StoredEventHook[] = [];

  constructor(private readonly secrets: SecretBox) {}

  private hashUnder(key: DataKey, address: string): string {
    let k = this.derived.get(key);
    if (!k) this.derived.set(key, (k = deriveKey(key.key, PURPOSE)));
    return createHmac('sha256', k).update(normaliseAddress(address)).digest('base64url');
  }

  /** Calls `hook` for every event stored from now on (the admin feature's broadcast brake). */
  onStored(hook: StoredEventHook): void {
    this.hooks.push(hook);
  }

  /** The address's hash under the current data key (what new rows store). */
  current(address: string): { keyId: string; hash: string } {
    return { keyId: this.secrets.current.id, hash: this.hashUnder(this.secrets.current, address) };
  }

  /** Its hash under every key in the ring, for lookups that must match rows made before a rotation. */
  private all(address: string): string[] {
    return this.secrets.keys.map((k) => this.hashUnder(k, address));
  }

  async isSuppressed(db: Db, address: string): Promise<boolean> {
    return (await this.suppressedAmong(db, [address])).size > 0;
  }

  /**
   * Each address's hash under every key in the ring, with the normalised address it stands for:
   * what a caller that reads `suppressions` in a statement of its own (the sign-up batch, in the
   * same round trip as its other read) matches `address_hash` against, `lifted_at` null.
   */
  hashesOf(addresses: readonly string[]): Map<string, string> {
    const byHash = new Map<string, string>();
    for (const a of addresses) for (const h of this.all(a)) byHash.set(h, normaliseAddress(a));
    return byHash;
  }

  /** Of these addresses, the normalised ones with a standing suppression. */
  async suppressedAmong(db: Db, addresses: readonly string[]): Promise<Set<string>> {
    const byHash = this.hashesOf(addresses);
    const found = new Set<string>();
    const hashes = [...byHash.keys()];
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await db
        .selectFrom('suppressions')
        .select('address_hash')
        .where('address_hash', 'in', hashes.slice(i, i + 500))
        .where('lifted_at', 'is', null)
        .execute();
      for (const r of rows) found.add(byHash.get(r.address_hash) ?? '');
    }
    found.delete('');
    return found;
  }

  /**
   * Suppresses an address now (unless it already is). Its subscriber, when known, has every
   * pending email cancelled in the same transaction.
   */
  async suppress(
    db: Db,
    s: { address: string; reason: SuppressionReason; source: string; detail?: string | null; now: Date },
  ): Promise<boolean> {
    const write = async (trx: Db) => {
      const already = await this.isSuppressed(trx, s.address);
      const { keyId, hash } = this.current(s.address);
      const subscriber = await trx
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', normaliseAddress(s.address))
        .executeTakeFirst();
      if (!already)
        await trx
          .insertInto('suppressions')
          .values({
            id: randomUUID(),
            key_id: keyId,
            address_hash: hash,
            subscriber_id: subscriber?.id ?? null,
            reason: s.reason,
            source: s.source,
            detail: s.detail?.slice(0, 200) ?? null,
            created_at: s.now.toISOString(),
            lifted_at: null,
            lifted_by: null,
          })
          .execute();
      if (subscriber) {
        await trx
          .updateTable('outbox')
          .set({ status: 'cancelled', last_error: `suppressed (${s.reason})` })
          .where('subscriber_id', '=', subscriber.id)
          .where('status', '=', 'pending')
          .execute();
        if (s.reason === 'complaint') {
          // A complaint is the plainest "stop": the person is unsubscribed, not merely not mailed.
          const at = s.now.toISOString();
          await trx
            .updateTable('subscribers')
            .set({ status: 'unsubscribed', unsubscribed_at: at, updated_at: at })
            .where('id', '=', subscriber.id)
            .where('status', '!=', 'unsubscribed')
            .execute();
        }
      }
      return !already;
    };
    return db.isTransaction ? write(db) : db.transaction().execute(write);
  }

  /**
   * The outbox row of the latest broadcast email handed to a mail server for this address within
   * ADDRESS_ATTRIBUTION_MS (or being handed over now), or null (never mailed by a broadcast, or
   * erased: no address to match). A person has one row per broadcast, so the newest row is the
   * newest broadcast's.
   */
  private async latestBroadcastRow(db: Db, address: string, now: Date): Promise<string | null> {
    const row = await db
      .selectFrom('outbox')
      .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
      .select('outbox.id')
      .where('subscribers.email_key', '=', normaliseAddress(address))
      .where('outbox.broadcast_id', 'is not', null)
      .where((w) =>
        w.or([
          w('outbox.sent_at', '>=', new Date(now.getTime() - ADDRESS_ATTRIBUTION_MS).toISOString()),
          // In its SMTP exchange now (leased, not yet marked): a provider may report before our mark commits.
          w.and([w('outbox.status', '=', 'pending'), w('outbox.locked_until', '>', now.toISOString())]),
        ]),
      )
      .orderBy('outbox.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Whether this address's policy refusals, this one included, now call for suppressing it. */
  private async policyLimitReached(trx: Db, e: BounceEvent): Promise<boolean> {
    const refusals = await trx
      .selectFrom('bounce_events')
      .select(['outbox_id', 'event_id', 'created_at'])
      .where('address_hash', 'in', this.all(e.address))
      .where('kind', '=', 'policy')
      .where('created_at', '>', new Date(e.now.getTime() - POLICY_WINDOW_MS).toISOString())
      .execute();
    // Different emails: a DSN and the SMTP answer for one email are one refusal.
    const emails = new Set(refusals.map((r) => r.outbox_id ?? `event:${r.event_id}`));
    if (emails.size < POLICY_REFUSAL_LIMIT) return false;
    const first = Math.min(...refusals.map((r) => Date.parse(r.created_at)));
    return e.now.getTime() - first >= POLICY_MIN_SPAN_MS;
  }

  /**
   * Records a bounce or complaint once (by source and event id) and suppresses as it calls for: a
   * hard bounce or a complaint at once, soft bounces at the third within seven days. The one place
   * every source goes through, so it is also where a broadcast re-checks its rates (broadcast-brake.ts).
   */
  async record(db: Db, heard: BounceEvent): Promise<BounceOutcome> {
    const write = async (trx: Db): Promise<BounceOutcome> => {
      // A provider's event names no email of ours: the latest broadcast email to the address stands in.
      const e = heard.outboxId
        ? heard
        : { ...heard, outboxId: await this.latestBroadcastRow(trx, heard.address, heard.now) };
      const { keyId, hash } = this.current(e.address);
      const inserted = await trx
        .insertInto('bounce_events')
        .values({
          source: e.source,
          event_id: e.eventId.slice(0, 300),
          kind: e.kind,
          key_id: keyId,
          address_hash: hash,
          outbox_id: e.outboxId ?? null,
          created_at: e.now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['source', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!inserted) return 'duplicate';
      // What must see every event, in its transaction: a broadcast re-counts its rates (and pauses
      // itself past a threshold; admin/broadcast/broadcast-brake.ts). Before the suppression's writes to the
      // outbox, so every writer takes the broadcast's row first and the outbox's rows after, as a
      // pause from the console does.
      for (const hook of this.hooks) await hook(trx, e);
      let reason: SuppressionReason | null =
        e.kind === 'hard' ? 'hard-bounce' : e.kind === 'complaint' ? 'complaint' : null;
      if (e.kind === 'policy') {
        if (await this.policyLimitReached(trx, e)) reason = 'policy-refusals';
      } else if (!reason) {
        const since = new Date(e.now.getTime() - SOFT_WINDOW_MS).toISOString();
        const soft = await trx
          .selectFrom('bounce_events')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('address_hash', 'in', this.all(e.address))
          .where('kind', '=', 'soft')
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(soft.n) >= SOFT_BOUNCE_LIMIT) reason = 'soft-bounce-limit';
      }
      if (!reason) return 'counted';
      await this.suppress(trx, { address: e.address, reason, source: e.source, detail: e.detail ?? null, now: e.now });
      return 'suppressed';
    };
    return db.isTransaction ? write(db) : db.transaction().execute(write);
  }
}
