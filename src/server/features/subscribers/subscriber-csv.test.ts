import { randomUUID } from 'node:crypto';
import { buffer, text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { neutraliseFormula } from '../../lib/csv.ts';
import { subscribersCsv } from './subscriber-csv.ts';
import { givenFields } from './given-fields.ts';
import { recordConsentWording } from '../signups/signup-store.ts';

// Today's columns, each where a spreadsheet reads it; a field the sign-up form gains comes after
// them all, headed by its English label, so adding one moves none of these.
const later = givenFields.filter((f) => !['email', 'name', 'comment'].includes(f.name));
const LATER_CELLS = later.map(() => ',""').join('');
const HEADER =
  '"Email","Name","Status","Signed up (UTC)","Confirmed (UTC)","Unsubscribed (UTC)","Consent version","Consent given (UTC)","Consent page","Country","Region","City","Comment","Language","Confirmed invites"' +
  later.map((f) => `,"${f.label}"`).join('');
/** Where the invites are: after the language, fifteenth. */
const INVITES = 14;

const FORMULA_START = /^[=+\-@\t\r]/;

describe('CSV injection', () => {
  it('prefixes every cell a spreadsheet would run, and nothing else', () => {
    for (const bad of ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\tX', '\rX', '=', '-', ' =x']) {
      expect(neutraliseFormula(bad)).toBe(`'${bad}`);
    }
    for (const fine of ['Ada', '', "'=x", '1-2', 'a=b', 'ada@example.com', '2026-11-21T12:00:00.000Z', 'a; b', 'x|y']) {
      expect(neutraliseFormula(fine)).toBe(fine);
    }
  });

  it('also defuses a formula right after a separator some reader might cut the cell at', () => {
    expect(neutraliseFormula('hi;=2+3')).toBe("hi;'=2+3");
    expect(neutraliseFormula('a,+1|@SUM(1)\t-2')).toBe("a,'+1|'@SUM(1)\t'-2");
    expect(neutraliseFormula('x; =1')).toBe("x; '=1");
    expect(neutraliseFormula('line\n=cmd')).toBe("line\n'=cmd");
    expect(neutraliseFormula('=a;=b')).toBe("'=a;'=b");
    // Wherever the neutralised cell is cut, no piece starts with a formula character.
    for (const raw of ['hi;=2+3', 'a,+1|@SUM(1)\t-2', 'x; =1', '=a;=b', 'p|-1', 'q,\t=1', 'r\r\n@x']) {
      for (const piece of neutraliseFormula(raw).split(/[,;|\t\r\n]/))
        expect(piece.trimStart(), JSON.stringify(raw)).not.toMatch(FORMULA_START);
    }
  });
});

/**
 * A reader of a locale whose list separator is `delimiter`: RFC 4180 quoting honoured (a quoted
 * cell is one cell whatever it holds), as Excel and LibreOffice read a CSV file.
 */
function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) endCell();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`subscribers CSV on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect);
      await recordConsentWording(store.db, new Date());
    });
    afterEach(() => store.destroy());

    async function add(i: number, name: string, comment = '', email = `p${i}@example.com`) {
      const at = new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString();
      await store.db
        .insertInto('subscribers')
        .values({
          id: randomUUID(),
          email,
          email_key: email.toLowerCase(),
          name,
          comment,
          status: 'pending',
          created_at: at,
          updated_at: at,
          confirmed_at: null,
          unsubscribed_at: null,
          last_confirmation_at: at,
          consent_version: '2026-11-21',
          consent_at: at,
          consent_page: '/',
          country: i % 2 ? 'FR' : null,
          region: i % 2 ? 'Île-de-France' : null,
          city: i % 2 ? 'Paris' : null,
        })
        .execute();
    }

    it('is RFC 4180 with a BOM and CRLF: quotes commas, quotes and line breaks; keeps Unicode; defuses formulas', async () => {
      await add(1, 'Zoë, "the" Ünïcødé 🚀', 'line one\nline two');
      await add(2, '=cmd|" /C calc"!A0', '+SUM(1)');
      await add(3, '@me', '-1', '-dash@example.com');
      // (consumers.text() would decode the BOM away: read the bytes)
      const bytes = await buffer(subscribersCsv(store, {}));
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const csv = bytes.subarray(3).toString('utf8');
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe(HEADER);
      expect(lines[1]).toBe(
        '"p1@example.com","Zoë, ""the"" Ünïcødé 🚀","pending","2026-11-01T00:01:00.000Z","","","2026-11-21","2026-11-01T00:01:00.000Z","/","FR","Île-de-France","Paris","line one\nline two","en","0"' +
          LATER_CELLS,
      );
      expect(lines[2]).toBe(
        `"p2@example.com","'=cmd|"" /C calc""!A0","pending","2026-11-01T00:02:00.000Z","","","2026-11-21","2026-11-01T00:02:00.000Z","/","","","","'+SUM(1)","en","0"${LATER_CELLS}`,
      );
      expect(lines[3]).toMatch(new RegExp(`^"'-dash@example\\.com","'@me","pending",.*,"'-1","en","0"${LATER_CELLS}$`));
      expect(lines[4]).toBe('');
      expect(lines).toHaveLength(5);
    });

    it('opens safely with `,` and with `;` as the separator: one cell per field, none starting a formula', async () => {
      await add(1, 'hi;=2+3', 'a,=1+1');
      await add(2, 'x|@SUM(A1)', 'tab\t-2;+3', 'semi@example.com');
      await add(3, 'Plain; name, here', '');
      const csv = (await text(subscribersCsv(store, {}))).replace(/^\uFEFF/, '');
      // A `,` reader: a cell a column, the cells as typed but for the apostrophes.
      const rows = parseCsv(csv, ',');
      expect(rows).toHaveLength(4);
      for (const row of rows) expect(row).toHaveLength(15 + later.length);
      expect(rows.map((r) => r[1])).toEqual(['Name', "hi;'=2+3", "x|'@SUM(A1)", 'Plain; name, here']);
      // A `;` reader (a spreadsheet in a locale whose list separator is `;`): no `;` typed into a
      // cell cuts it, since every cell is quoted; each line stays whole (what such a spreadsheet
      // shows for a `,` file), and nothing starts a formula.
      const semi = parseCsv(csv, ';');
      expect(semi).toHaveLength(4);
      for (const row of semi) expect(row, JSON.stringify(row)).toHaveLength(1);
      for (const row of [...rows, ...semi]) for (const c of row) expect(c.trimStart(), c).not.toMatch(FORMULA_START);
      // A reader that ignores quotes and cuts at `;` or `,` still finds no formula.
      for (const delimiter of [',', ';']) {
        for (const line of csv.split('\r\n')) {
          for (const piece of line.split(delimiter))
            expect(piece.replace(/^\s*"?/, ''), `${delimiter} ${piece}`).not.toMatch(FORMULA_START);
        }
      }
    });

    it("gives each row the person's confirmed invites after the language, counted, never pending or refused ones", async () => {
      for (let i = 1; i <= 4; i++) await add(i, `Person ${i}`);
      const at = '2026-11-02T00:00:00.000Z';
      const ids = new Map(
        (await store.db.selectFrom('subscribers').select(['id', 'email']).execute()).map((r) => [r.email, r.id]),
      );
      const id = (i: number) => ids.get(`p${i}@example.com`) ?? '';
      const attribution = (invited: number, status: 'counted' | 'pending' | 'same_network') => ({
        invited_id: id(invited),
        referrer_id: id(1),
        network_key: null,
        created_at: at,
        status,
        decided_at: status === 'pending' ? null : at,
        invited_domain: 'example.com',
      });
      await store.db
        .insertInto('referral_attributions')
        .values([attribution(2, 'counted'), attribution(3, 'pending'), attribution(4, 'same_network')])
        .execute();
      // Batches of 2: the counts are read per batch, and still land on their own rows.
      const rows = parseCsv((await text(subscribersCsv(store, {}, 2))).replace(/^\uFEFF/, ''), ',');
      expect(rows.map((r) => [r[0], r[INVITES]])).toEqual([
        ['Email', 'Confirmed invites'],
        ['p1@example.com', '1'],
        ['p2@example.com', '0'],
        ['p3@example.com', '0'],
        ['p4@example.com', '0'],
      ]);
    });

    it('streams every row in small batches, oldest first, honouring the status filter and search', async () => {
      for (let i = 0; i < 25; i++) await add(i, `Person ${i}`);
      await store.db
        .updateTable('subscribers')
        .set({ status: 'confirmed' })
        .where('email', 'in', ['p3@example.com', 'p20@example.com'])
        .execute();
      const all = (await text(subscribersCsv(store, {}, 4))).split('\r\n').slice(1, -1);
      const cell = (l: string, i: number) => l.split(',')[i]?.replace(/^"|"$/g, '');
      expect(all.map((l) => cell(l, 0))).toEqual(Array.from({ length: 25 }, (_, i) => `p${i}@example.com`));
      const confirmed = (await text(subscribersCsv(store, { status: 'confirmed' }, 1))).split('\r\n').slice(1, -1);
      expect(confirmed.map((l) => cell(l, 0))).toEqual(['p3@example.com', 'p20@example.com']);
      const searched = (await text(subscribersCsv(store, { q: 'person 2', sort: 'newest' }, 2)))
        .split('\r\n')
        .slice(1, -1);
      expect(searched.map((l) => cell(l, 1))).toEqual([
        'Person 24',
        'Person 23',
        'Person 22',
        'Person 21',
        'Person 20',
        'Person 2',
      ]);
    });

    it('fails the stream, not silently truncates it, when the database fails midway', async () => {
      for (let i = 0; i < 6; i++) await add(i, `Person ${i}`);
      const stream = subscribersCsv(store, {}, 2);
      const chunks: string[] = [];
      const done = new Promise<Error | undefined>((resolve) => {
        stream.on('data', (c: Buffer) => {
          chunks.push(c.toString());
          if (chunks.length === 1) void store.destroy();
        });
        stream.on('error', resolve);
        stream.on('end', () => resolve(undefined));
      });
      expect(await done).toBeInstanceOf(Error);
      store = await openTestStore(dialect); // for afterEach
    });
  });
}
