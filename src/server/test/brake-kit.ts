// Tests of the broadcast brake: the mail feature's bounce path wired as admin-plugin.ts wires it,
// over a fresh store of each dialect, and a broadcast started on it. Events go through the real
// intake (a report matched by its VERP address), which the admin feature's own code never imports.
import type { Kysely } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import { brakeBroadcasts } from '../features/broadcast/index.ts';
import { startSend } from '../features/broadcast/broadcast-sending.ts';
import { createDraft } from '../features/broadcast/broadcast-store.ts';
import { BounceIntake } from '../features/mail/bounces.ts';
import { Suppressions } from '../features/mail/index.ts';
import { Verp } from '../features/mail/verp.ts';
import type { Dialect } from '../store/database.ts';
import type { Database } from '../store/schema.ts';
import { insertConfirmedSubscribers } from './fixtures.ts';
import { openTestStore, testSecrets, type TestStore } from './test-store.ts';

export interface BrakeKit {
  verp: Verp;
  suppressions: Suppressions;
  intake: BounceIntake;
}

export function brakeKit(db: Kysely<Database>): BrakeKit {
  const secrets = testSecrets();
  const verp = new Verp(secrets, 'dh.example');
  const suppressions = new Suppressions(secrets);
  suppressions.onStored(brakeBroadcasts);
  return { verp, suppressions, intake: new BounceIntake(db, suppressions, verp, () => {}) };
}

/** A fresh store of this dialect, and the kit over it, for each test of the enclosing describe. */
export function brakeStore(dialect: Dialect): { db: TestStore; kit: BrakeKit } {
  const s = {} as { db: TestStore; kit: BrakeKit };
  beforeEach(async () => {
    s.db = await openTestStore(dialect);
    s.kit = brakeKit(s.db.db);
  });
  afterEach(() => s.db.destroy());
  return s;
}

/** A broadcast to `n` confirmed subscribers, started (sending); its id and its rows in id order. */
export async function startedBroadcast(
  db: Kysely<Database>,
  now: Date,
  n = 1_000,
): Promise<{ id: string; rows: { id: string; email: string }[] }> {
  await insertConfirmedSubscribers(
    db,
    Array.from({ length: n }, (_, i) => `fan${i}@example.com`),
    now,
  );
  const sender = { email: 'ann@example.com', via: 'console' as const };
  const id = await createDraft(db, { subject: 'The presale', body: 'Soon.' }, sender.email, now);
  const started = await startSend(db, id, sender, now, { approvals: 1, refusalOf: () => null });
  if (started.outcome !== 'started') throw new Error(`the broadcast did not start: ${started.outcome}`);
  const rows = await db
    .selectFrom('outbox')
    .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
    .select(['outbox.id', 'subscribers.email'])
    .where('outbox.broadcast_id', '=', id)
    .orderBy('outbox.id')
    .execute();
  return { id, rows };
}
