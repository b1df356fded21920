import type { Kysely } from 'kysely';
import type { BounceKind, Database } from '../store/schema.ts';
import type { BounceOutcome, Suppressions } from './suppression.ts';
import type { Verp } from './verp.ts';

// Where every bounce and complaint comes in, whoever heard it (a DSN in the bounce mailbox, a
// provider's webhook): it is matched to an address and handed to the suppression list.
// docs/decisions/0035-bounces-complaints-and-suppression.md

export interface HeardBounce {
  kind: BounceKind;
  /** dsn, arf, postmark, mailgun, sendgrid, ses. */
  source: string;
  /** Unique within the source (a provider's event id, a DSN's Message-ID). */
  eventId: string;
  detail?: string | null;
  now: Date;
}

/** Why a bounce changed nothing: logged with its source, never with an address. */
export type IgnoredBounce = 'not-ours' | 'forged' | 'never-sent' | 'erased';

export class BounceIntake {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly suppressions: Suppressions,
    private readonly verp: Verp,
    private readonly log: (msg: string, fields: Record<string, unknown>) => void,
  ) {}

  private ignore(why: IgnoredBounce, b: HeardBounce): IgnoredBounce {
    this.log('bounce ignored', { why, source: b.source, kind: b.kind });
    return why;
  }

  /**
   * A bounce sent back to a VERP envelope sender: it counts only when the signature holds and the
   * row it names was sent (or refused), and then for that row's person.
   */
  async byEnvelope(envelopeAddress: string, b: HeardBounce): Promise<BounceOutcome | IgnoredBounce> {
    if (!/^\s*(?:[^<>]*<)?bounces\+/i.test(envelopeAddress)) return this.ignore('not-ours', b);
    const outboxId = this.verp.outboxIdOf(envelopeAddress);
    if (!outboxId) return this.ignore('forged', b);
    const row = await this.db
      .selectFrom('outbox')
      .leftJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
      .select(['outbox.status', 'outbox.sent_at', 'subscribers.email'])
      .where('outbox.id', '=', outboxId)
      .executeTakeFirst();
    // 'failed' rows were handed to a server that took them and refused later, or at once.
    if (!row || !(row.sent_at !== null || row.status === 'failed')) return this.ignore('never-sent', b);
    if (!row.email) return this.ignore('erased', b);
    return this.suppressions.record(this.db, { ...b, address: row.email, outboxId });
  }

  /** A provider's event naming the recipient's address itself (providers send from their own envelope). */
  async byAddress(address: string, b: HeardBounce): Promise<BounceOutcome> {
    return this.suppressions.record(this.db, { ...b, address });
  }
}
