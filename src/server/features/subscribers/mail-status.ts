import type { Kysely } from 'kysely';
import type { MailStatus, StandingSuppression } from '../../../shared/admin/mail-status.ts';
import type { Suppressions } from '../mail/index.ts';
import type { Database } from '../../store/schema.ts';

// Whether mail reaches one person, for their record and for a resend (decision 0035). The
// suppression list and the bounce events hold no address, only keyed hashes of it under each data
// key of the ring, so a person is matched by their address's hashes, as the outbox worker matches
// the recipient it is about to mail: the same answer, whoever the row was linked to when it was
// written (a suppression heard before they signed up, or kept across an erasure and a new sign-up).

type Hashing = Pick<Suppressions, 'hashesOf'>;

const hashesOf = (suppressions: Hashing, address: string): string[] => [...suppressions.hashesOf([address]).keys()];

/** The address's standing suppression (the newest, should a lifted one stand beside it), or null. */
export async function standingSuppression(
  db: Kysely<Database>,
  suppressions: Hashing,
  address: string,
): Promise<StandingSuppression | null> {
  const row = await db
    .selectFrom('suppressions')
    .select(['created_at', 'reason', 'source', 'detail'])
    .where('address_hash', 'in', hashesOf(suppressions, address))
    .where('lifted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { since: row.created_at, reason: row.reason, source: row.source, detail: row.detail } : null;
}

/** The standing suppression and the last bounce or complaint heard for this address. */
export async function mailStatusOf(db: Kysely<Database>, suppressions: Hashing, address: string): Promise<MailStatus> {
  const last = await db
    .selectFrom('bounce_events')
    .select(['created_at', 'kind', 'source'])
    .where('address_hash', 'in', hashesOf(suppressions, address))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    suppressed: await standingSuppression(db, suppressions, address),
    lastBounce: last ? { at: last.created_at, kind: last.kind, source: last.source } : null,
  };
}
