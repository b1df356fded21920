import { type KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { newOutboxRow } from '../mail/index.ts';
import type { Keys } from '../../plugins/core.ts';
import { GroupCommitter } from '../../store/group-commit.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { confirmationComposer } from './confirmation-composer.ts';
import { hashToken } from './tokens.ts';

// The token's hash is written through the group committer, so that it shares the commit (one
// fsync, on SQLite on the event loop) of the sign-ups of the moment rather than costing one of its
// own per email (docs/decisions/0047-signup-cost-round-trips.md, second session); and, as before,
// it is stored before the email exists.
describe('the confirmation composer', () => {
  let store: TestStore;
  const clock = testClock();
  beforeEach(async () => {
    clock.set('2026-11-26T12:00:00.000Z');
    store = await openTestStore('sqlite');
  });
  afterEach(async () => {
    await store.destroy();
  });

  it("writes the link token's hash in a group commit, never as a write of its own, before the email is made", async () => {
    const id = await insertSubscriber(store.db, 'a@example.com', { now: clock() });
    const row = newOutboxRow('confirmation', id, clock());
    await store.db.insertInto('outbox').values(row).execute();

    // The composer's own handle may read, and refuses any write: writes must go through the committer.
    const readOnly: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (node.kind !== 'SelectQueryNode') throw new Error(`a ${node.kind} outside the group committer`);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const committer = new GroupCommitter(store.db);
    let jobs = 0;
    const keys = { sign: () => 'sig' } as unknown as Keys; // only unsubscribeUrl's sign is used
    const compose = confirmationComposer({
      db: store.db.withPlugin(readOnly),
      committer: {
        runIn: (kind, input) => {
          jobs++;
          return committer.runIn(kind, input);
        },
      },
      content: parseSiteContent(siteContent),
      publicUrl: 'https://dh.example',
      keys,
    });

    const mail = await compose({ ...row, attempts: 0 }, clock());
    if (mail === 'cancel' || mail === 'hold') throw new Error(`composed ${mail}`);
    expect(jobs).toBe(1);
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';
    const stored = await store.db
      .selectFrom('outbox')
      .select(['token_hash', 'token_expires_at'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(token));
    expect(stored.token_expires_at).toBe('2026-12-03T12:00:00.000Z');
    await committer.idle();
  });
});
