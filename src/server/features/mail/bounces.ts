import type { Kysely } from 'kysely';
import type { BounceKind, Database } from '../../store/schema.ts';
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
    return this.byReference([envelopeAddress], b);
  }

  /**
   * A report naming the email by one or more of our references, in the order the report's
   * structure makes them likely (its recipient, then the returned copy's Return-Path and
   * Message-ID): a VERP address (`bounces+<signed id>@…`) or a Message-ID (`<dh.<signed id>@…>`).
   * The first whose signature holds decides; text that merely looks like one never does.
   */
  async byReference(references: readonly string[], b: HeardBounce): Promise<BounceOutcome | IgnoredBounce> {
    const ours = references.filter((r) => /^\s*(?:[^<>]*<)?bounces\+/i.test(r) || /^\s*<?dh\.[0-9a-f]{48}@/i.test(r));
    if (ours.length === 0) return this.ignore('not-ours', b);
    let outboxId: string | null = null;
    for (const r of ours) {
      outboxId = /^\s*<?dh\./i.test(r) ? this.verp.outboxIdOfMessageId(r) : this.verp.outboxIdOf(r);
      if (outboxId) break;
    }
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
