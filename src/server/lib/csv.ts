import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

// The console's spreadsheets (the subscribers, the suppression list): RFC 4180 with every cell
// quoted (csv-stringify), UTF-8 with a byte-order mark so Excel reads the accents, CRLF line ends,
// and no cell a spreadsheet would run as a formula.

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection",
 * https://owasp.org/www-community/attacks/CSV_Injection) gets an apostrophe before it, which
 * spreadsheets show as text and do not evaluate. Names and comments are typed by visitors.
 *
 * Every cell is also quoted, so a conforming reader never splits one. But a spreadsheet opened in
 * a locale whose list separator is `;` (or a person's "text to columns", or a reader that ignores
 * quotes) may cut `hi;=2+3` into `hi` and `=2+3`, a formula. So a formula character right after
 * any separator such a reader might cut at (`,` `;` `|` tab, a line break; spaces between are
 * skipped as some readers trim them) gets the same apostrophe: wherever the cell is cut, no piece
 * starts with a formula. Every character typed is kept; the apostrophe is the only change, and
 * one a person reading the export can see and understand.
 */
export function neutraliseFormula(value: string): string {
  const inner = value.replace(/([,;|\t\r\n] *)(?=[=+\-@\t\r])/g, "$1'");
  return /^ *[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
}

/**
 * Rows (each cell already passed through neutraliseFormula by its caller, or text the server
 * wrote) as a CSV byte stream under one header row, with back-pressure: the rows are read only as
 * fast as the reply is sent.
 */
export function csvStream(
  headers: readonly string[],
  rows: AsyncIterable<readonly string[]> | Iterable<readonly string[]>,
): Readable {
  const source = Readable.from(rows, { objectMode: true, highWaterMark: 64 });
  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    header: true,
    columns: [...headers],
    // Every cell quoted, empty ones too: a reader whose separator is `;` (or `|`, or a tab) then
    // keeps `a,b` and `hi;=2+3` as one cell each, as a `,` reader does; and no reader trims a
    // cell's edge spaces or splits it at a lone LF or CR.
    quoted: true,
    quoted_empty: true,
  });
  // An error in the database half destroys the CSV stream with it: the download fails visibly
  // instead of ending early and looking complete.
  pipeline(source, csv, () => undefined);
  return csv;
}

/** A download's time in its file name, to the minute in UTC: `20261126-1205`. */
export const fileStamp = (now: Date): string => now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
