import type { Kysely, Migration } from 'kysely';

// Four eyes over every edit, not only the last (amends docs/decisions/0028-roles-and-four-eyes.md):
// `broadcasts.editors` is a JSON array of the operators who changed a draft's text since an
// approval last covered their change — reset to the one editor when an edit voids a standing
// approval (the approval had covered every earlier edit), added to by every other edit, and left as
// it is by an approval or a revoke (a revoked approval covers nothing). None of them may approve.
// Before this column only the last editor was barred: A writes, B adds a paragraph, A changes the
// subject, and B could approve B's own paragraph.
//
// Existing drafts are filled from the audit log, which has recorded every edit since migration
// 0012 (`broadcast.edited`, its actor, and "voided the approval by …" when it did), replayed by the
// same rule; the last editor is kept in any case. Sent and cancelled broadcasts cannot be approved
// any more and keep '[]'.
interface Row {
  id: string;
  created_by: string;
  updated_by: string | null;
}
interface Edit {
  actor: string | null;
  detail: string | null;
}

export const broadcastEditorsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('broadcasts')
      .addColumn('editors', 'text', (col) => col.notNull().defaultTo('[]'))
      .execute();
    // Kysely<unknown> at migration time: the tables are named as strings and the rows typed here.
    const any = db as Kysely<{
      broadcasts: Row & { status: string; editors: string };
      audit_log: Edit & { seq: number; action: string; subject: string | null };
    }>;
    const drafts = await any
      .selectFrom('broadcasts')
      .select(['id', 'created_by', 'updated_by'])
      .where('status', '=', 'draft')
      .execute();
    for (const b of drafts) {
      const edits = await any
        .selectFrom('audit_log')
        .select(['actor', 'detail'])
        .where('action', '=', 'broadcast.edited')
        .where('subject', '=', b.id)
        .orderBy('seq')
        .execute();
      let editors: string[] = [];
      for (const e of edits) {
        if (!e.actor) continue;
        if (e.detail?.includes('voided the approval by')) editors = [e.actor];
        else if (!editors.some((x) => x.toLowerCase() === e.actor?.toLowerCase())) editors.push(e.actor);
      }
      const last = b.updated_by;
      if (
        last &&
        last.toLowerCase() !== b.created_by.toLowerCase() &&
        !editors.some((x) => x.toLowerCase() === last.toLowerCase())
      )
        editors.push(last);
      if (editors.length > 0)
        await any
          .updateTable('broadcasts')
          .set({ editors: JSON.stringify(editors) })
          .where('id', '=', b.id)
          .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('broadcasts').dropColumn('editors').execute();
  },
};
