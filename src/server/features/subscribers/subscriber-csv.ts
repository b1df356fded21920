import type { Readable } from 'node:stream';
import { csvStream, neutraliseFormula } from '../../lib/csv.ts';
import { confirmedInvitesOf } from '../referrals/index.ts';
import { givenFields, type GivenField } from './given-fields.ts';
import { allRows, type ListFilter, type ListRow, type ListStore } from './subscriber-list.ts';

// The list as a spreadsheet (the writer: src/server/lib/csv.ts). Streamed from keyset batches
// with back-pressure, so a million rows cost one batch of memory, not a million.

// What we recorded, in the places a spreadsheet already reads by position. What the person typed
// is every field of the form (./given-fields.ts), headed by its English label: the email, the name
// and the comment where they have always been; a field the form gains goes after the invites,
// last, so no column moves.
const FIRST_FIELDS: readonly string[] = ['email', 'name'];
const RECORDED_COLUMNS = [
  ['status', 'Status'],
  ['created_at', 'Signed up (UTC)'],
  ['confirmed_at', 'Confirmed (UTC)'],
  ['unsubscribed_at', 'Unsubscribed (UTC)'],
  ['consent_version', 'Consent version'],
  ['consent_at', 'Consent given (UTC)'],
  ['consent_page', 'Consent page'],
  ['country', 'Country'],
  ['region', 'Region'],
  ['city', 'City'],
] as const satisfies readonly (readonly [keyof ListRow, string])[];
const MIDDLE_FIELDS: readonly string[] = ['comment'];
// After the comment, so the columns a spreadsheet already reads by position keep their places.
const LANGUAGE_COLUMN = ['locale', 'Language'] as const;

// After the language: people who came through the person's invite link, confirmed and counted
// (docs/decisions/0060-referral-invites.md). Counted from the attributions per batch.
const INVITES_HEADER = 'Confirmed invites';

/** A column: its header and the row's cell (the invites are counted apart from the row). */
type Column = readonly [header: string, cell: (row: ListRow, invites: number) => string];

/** The CSV's columns for the form's `fields` (a test passes one more, as the recipe would add). */
export function csvColumns(fields: readonly GivenField[] = givenFields): Column[] {
  const field = (f: GivenField): Column => [f.label, (row) => neutraliseFormula(row[f.name])];
  const placed = (names: readonly string[]) => names.flatMap((n) => fields.filter((f) => f.name === n)).map(field);
  const recorded = ([key, header]: readonly [keyof ListRow, string]): Column => [
    header,
    (row) => neutraliseFormula(row[key] ?? ''),
  ];
  return [
    ...placed(FIRST_FIELDS),
    ...RECORDED_COLUMNS.map(recorded),
    ...placed(MIDDLE_FIELDS),
    recorded(LANGUAGE_COLUMN),
    [INVITES_HEADER, (_row, invites) => String(invites)],
    ...fields.filter((f) => !FIRST_FIELDS.includes(f.name) && !MIDDLE_FIELDS.includes(f.name)).map(field),
  ];
}

/**
 * Rows per keyset query. Fewer rows wait in the stream's buffers at a time, so fewer survive long
 * enough for V8 to move them to the old generation, where garbage waits for a full collection:
 * on PostgreSQL, a million rows exported with 250 a batch grew the peak RSS by about 55–63 MB,
 * against 66–76 MB with 1,000 (decision 0022), for about the same time.
 */
const CSV_BATCH = 250;

/**
 * The filtered list, oldest first unless told otherwise, as a CSV byte stream. `onRow` hears of
 * each row as it is read (the console counts the personal records handed out).
 */
export function subscribersCsv(
  store: ListStore,
  filter: Omit<ListFilter, 'sort'> & { sort?: ListFilter['sort'] },
  batch = CSV_BATCH,
  onRow?: () => void,
): Readable {
  const rows = allRows(store, { ...filter, sort: filter.sort ?? 'oldest' }, batch);
  const columns = csvColumns();
  // Rows wait in a batch for one query of their invite counts, then go out in order.
  async function* withInvites(held: ListRow[]) {
    const counts = await confirmedInvitesOf(
      store.db,
      held.map((r) => r.id),
    );
    for (const row of held) yield columns.map(([, cell]) => cell(row, counts.get(row.id) ?? 0));
  }
  return csvStream(
    columns.map(([header]) => header),
    (async function* () {
      let held: ListRow[] = [];
      for await (const row of rows) {
        onRow?.();
        held.push(row);
        if (held.length >= batch) {
          yield* withInvites(held);
          held = [];
        }
      }
      if (held.length > 0) yield* withInvites(held);
    })(),
  );
}
