import { type Kysely, type Migration, sql } from 'kysely';

// Four eyes on a broadcast (docs/decisions/0028-roles-and-four-eyes.md): who edited the draft
// last, the approval of a second operator bound to a SHA-256 of the exact subject and body, and
// the last approval that lapsed (voided by an edit, or revoked) so the console can say by whom.
export const broadcastApprovalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const columns = [
      // The last operator who changed the text; the author until someone else edits it.
      'updated_by',
      'approved_by',
      'approved_at',
      // SHA-256 (hex) of the subject and body the approver read (textHash in broadcast-text.ts).
      'approved_hash',
      // The approval that lapsed last, and what ended it: 'edit' (its text changed) or 'revoked'.
      'lapsed_approved_by',
      'lapsed_approved_at',
      'lapsed_by',
      'lapsed_at',
      'lapsed_reason',
    ];
    // One ALTER per column: SQLite adds one column per statement.
    for (const column of columns) await db.schema.alterTable('broadcasts').addColumn(column, 'text').execute();
    await sql`update broadcasts set updated_by = created_by`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const column of [
      'lapsed_reason',
      'lapsed_at',
      'lapsed_by',
      'lapsed_approved_at',
      'lapsed_approved_by',
      'approved_hash',
      'approved_at',
      'approved_by',
      'updated_by',
    ]) {
      await db.schema.alterTable('broadcasts').dropColumn(column).execute();
    }
  },
};
