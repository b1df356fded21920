import { text } from 'node:stream/consumers';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataExportSchemaOf, subscriberDataExportSchema } from '../../../shared/admin/subscribers.ts';
import type { SignupField } from '../../../shared/signup-schema.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { givenFields, type GivenField } from './given-fields.ts';
import { csvColumns, subscribersCsv } from './subscriber-csv.ts';
import type { ListRow } from './subscriber-list.ts';
import { subscriberDataExport, subscriberDetail } from './subscriber-records.ts';

// What a person gave is in what they get back: every field of the sign-up form is stored, so it is
// in their console record, the CSV and their own data export. Today's fields, and a field added
// the way docs/architecture.md's field recipe adds one (its column added here).

const now = new Date('2026-11-21T12:00:00.000Z');
/** A distinct value for each field, so each is found where it belongs. */
const given = (f: string) => `given ${f} ✓`;

/** The CSV's header and first row, cell by header. */
async function csvRecord(csv: string): Promise<Record<string, string>> {
  const [header = '', row = ''] = csv.replace(/^\uFEFF/, '').split('\r\n');
  const cells = (line: string) => line.slice(1, -1).split('","');
  const values = cells(row);
  return Object.fromEntries(cells(header).map((h, i) => [h, values[i] ?? '']));
}

/**
 * A field as the recipe adds one (docs/architecture.md), named so that no real field will ever take
 * its name. The compiler knows only the form's fields, hence the cast.
 */
const added = { name: 'added_in_test' as SignupField, label: 'Added in a test' } satisfies GivenField;

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`what a person gave, back in their record, the CSV and their export, on ${label}`, () => {
    let store: TestStore;
    let id: string;
    beforeEach(async () => {
      store = await openTestStore(dialect);
      id = await insertSubscriber(store.db, 'ada@example.com', { now });
      const values = Object.fromEntries(givenFields.map((f) => [f.name, given(f.name)]));
      await store.db
        .updateTable('subscribers')
        .set(values as Record<SignupField, string>)
        .where('id', '=', id)
        .execute();
    });
    afterEach(() => store.destroy());

    it("has every field of today's form in all three, under the field's English label in the CSV", async () => {
      expect(givenFields.map((f) => f.name)).toEqual(expect.arrayContaining(['name', 'email', 'comment']));
      const record = await subscriberDetail(store.db, id, now);
      // The export as its route's reply schema writes it, which drops any key it does not name.
      const exported = subscriberDataExportSchema.parse(await subscriberDataExport(store.db, id, now));
      const csv = await csvRecord(await text(subscribersCsv(store, {})));
      for (const f of givenFields) {
        expect(record?.[f.name], f.name).toBe(given(f.name));
        expect(exported.person[f.name], f.name).toBe(given(f.name));
        expect(csv[f.label], f.label).toBe(given(f.name));
      }
    });

    it('has a field added by the recipe in all three, with no other edit', async () => {
      // The recipe's migration: the column, named as the field, with the schema's default.
      await sql`alter table subscribers add column added_in_test text not null default ''`.execute(store.db);
      await sql`update subscribers set added_in_test = ${'@ada_dh'}`.execute(store.db);
      const fields = [...givenFields, added];

      const record = await subscriberDetail(store.db, id, now, fields);
      expect(record).toMatchObject({ added_in_test: '@ada_dh', name: given('name') });
      const schema = dataExportSchemaOf(fields.map((f) => f.name));
      const exported = schema.parse(await subscriberDataExport(store.db, id, now, fields));
      expect(exported.person).toMatchObject({ added_in_test: '@ada_dh', email: given('email') });

      // The CSV: today's columns where a spreadsheet reads them, the new one last.
      const today = csvColumns().map(([header]) => header);
      const columns = csvColumns(fields);
      expect(columns.map(([header]) => header)).toEqual([...today, 'Added in a test']);
      const row = { ...Object.fromEntries(givenFields.map((f) => [f.name, given(f.name)])), added_in_test: '@ada_dh' };
      const [, cell] = columns.at(-1) ?? [];
      // Defused as every cell a spreadsheet would run (it starts with @).
      expect(cell?.(row as unknown as ListRow, 0)).toBe("'@ada_dh");
    });
  });
}
