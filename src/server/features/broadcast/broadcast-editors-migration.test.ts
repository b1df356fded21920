import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { broadcastEditorsMigration } from '../../store/migrations/0026-broadcast-editors.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { approve } from './broadcast-approval.ts';
import { startSend } from './broadcast-sending.ts';
import { createDraft, editorsOf, saveDraft } from './broadcast-store.ts';
import { textHash } from './broadcast-text.ts';

// Migration 0026 fills the editors of drafts written before it from the audit log, by the rule the
// store now applies as edits happen: the same drafts, edited through the store, read the same
// editors after the column is dropped and the migration run again.

const ann = { email: 'ann@example.com', via: 'console' as const };
const bob = { email: 'bob@example.com', via: 'console' as const };
const cat = { email: 'cat@example.com', via: 'console' as const };
const dan = { email: 'dan@example.com', via: 'console' as const };

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`migration 0026 on ${label}`, () => {
    let store: TestStore;
    const clock = testClock();
    beforeEach(async () => {
      store = await openTestStore(dialect);
    });
    afterEach(() => store.destroy());

    const text = (body: string) => ({ subject: 'The presale', body });

    it('replays the audit log: every editor since an approval last covered them, for drafts only', async () => {
      const db = store.db;
      // A writes, B adds a paragraph, A changes the subject.
      const aba = await createDraft(db, text('Soon.'), ann.email, clock());
      await saveDraft(db, aba, text('Soon.\n\nB.'), bob, clock());
      await saveDraft(db, aba, { subject: 'The presale is here', body: 'Soon.\n\nB.' }, ann, clock());
      // B edits, D approves, C edits (voiding D's approval, which covered B's edit).
      const voided = await createDraft(db, text('Soon.'), ann.email, clock());
      await saveDraft(db, voided, text('Soon.\n\nB.'), bob, clock());
      expect(await approve(db, voided, { ...dan, role: 'sender' }, textHash(text('Soon.\n\nB.')), clock())).toEqual({
        outcome: 'approved',
      });
      await saveDraft(db, voided, text('Soon.\n\nB.\n\nC.'), cat, clock());
      // Sent: nobody can approve it any more.
      const sent = await createDraft(db, text('Soon.'), ann.email, clock());
      await saveDraft(db, sent, text('Soon!'), bob, clock());
      expect((await startSend(db, sent, ann, clock(), { approvals: 1, refusalOf: () => null })).outcome).toBe(
        'started',
      );

      const read = async () =>
        Object.fromEntries(
          (await db.selectFrom('broadcasts').select(['id', 'editors']).execute()).map((b) => [b.id, editorsOf(b)]),
        );
      const asEdited = await read();
      expect(asEdited[aba]).toEqual([bob.email, ann.email]);
      expect(asEdited[voided]).toEqual([cat.email]);

      await broadcastEditorsMigration.down?.(db);
      await broadcastEditorsMigration.up(db);
      const migrated = await read();
      expect(migrated[aba]).toEqual(asEdited[aba]);
      expect(migrated[voided]).toEqual(asEdited[voided]);
      expect(migrated[sent]).toEqual([]);
    });
  });
}
