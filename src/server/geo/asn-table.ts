/**
 * Address → "AS15169 Google LLC" from the CSVs of @ip-location-db/asn.
 *
 * Hand-written because the npm registry has no maintained ASN database in MaxMind format (the
 * ip-location-db ASN mmdb is not published there). The CSVs are sorted inclusive ranges, so a
 * binary search over typed arrays answers in well under a microsecond. The 515k rows cost 8.7 MB
 * of typed arrays plus about 11 MB for the 91k distinct labels; as objects they would cost several
 * times that.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PublicAddress } from './address.ts';

type AsnTableStats = {
  v4Ranges: number;
  v6Ranges: number;
  orgs: number;
  /** Rows dropped because they were malformed or had AS0 ("not routed"). */
  skippedRows: number;
  /** Rows cut short because the next row starts inside them (the data has such bugs). */
  clippedOverlaps: number;
  /** Bytes held by the typed arrays; the org labels are extra. */
  arrayBytes: number;
};

export type AsnTable = {
  lookup(address: PublicAddress): string | undefined;
  readonly stats: AsnTableStats;
};

export type AsnFiles = { v4: string; v6: string };

function defaultAsnFiles(): AsnFiles {
  // Resolved at run time rather than bundled: the server bundle keeps packages external, and
  // these files are tens of MB.
  const require = createRequire(import.meta.url);
  return {
    v4: require.resolve('@ip-location-db/asn/asn-ipv4-num.csv'),
    v6: require.resolve('@ip-location-db/asn/asn-ipv6-num.csv'),
  };
}

export async function loadAsnTable(files: AsnFiles = defaultAsnFiles()): Promise<AsnTable> {
  const [v4, v6] = await Promise.all([readFile(files.v4), readFile(files.v6)]);
  // Plain views: slices of a Buffer are Buffers, which cost more to make than they save here.
  return buildAsnTable(
    new Uint8Array(v4.buffer, v4.byteOffset, v4.byteLength),
    new Uint8Array(v6.buffer, v6.byteOffset, v6.byteLength),
  );
}

/** Builds the table from the "-num" CSVs: start,end,asn,name with inclusive decimal bounds. */
export function buildAsnTable(v4Csv: Uint8Array, v6Csv: Uint8Array): AsnTable {
  const orgs = new OrgInterner();
  const counters = { skipped: 0, clipped: 0 };
  const v4 = RangeTable.fromCsv(v4Csv, 1, orgs, counters);
  const v6 = RangeTable.fromCsv(v6Csv, 4, orgs, counters);
  orgs.done();
  const names = orgs.names;
  // Reused for every lookup: lookups are synchronous, so no two share them at once.
  const v4Key = new Uint32Array(1);
  const v6Key = new Uint32Array(4);
  const nameAt = (table: RangeTable, row: number) => (row < 0 ? undefined : names[table.org[row] ?? 0]);
  return {
    lookup(address) {
      if (address.version === 4) {
        v4Key[0] = address.value;
        return nameAt(v4, v4.find(v4Key));
      }
      v6Key.set(address.words);
      return nameAt(v6, v6.find(v6Key));
    },
    stats: {
      v4Ranges: v4.length,
      v6Ranges: v6.length,
      orgs: names.length,
      skippedRows: counters.skipped,
      clippedOverlaps: counters.clipped,
      arrayBytes: v4.byteLength + v6.byteLength,
    },
  };
}

/**
 * One label per distinct (ASN, name): about 91k labels for 515k rows. A row is compared by its raw
 * bytes with the name last seen for its ASN, so most rows decode no string and hash nothing.
 */
class OrgInterner {
  readonly names: string[] = [];
  private readonly byLabel = new Map<string, number>();
  private readonly lastForAsn = new Map<number, number>();
  // Where each label's name bytes sit in the CSV it came from. Offsets rather than copies: a small
  // typed array per label made loading twice as slow. done() lets go of the CSVs.
  private source: Uint8Array[] = [];
  private offset: number[] = [];
  private size: number[] = [];

  intern(asn: number, csv: Uint8Array, from: number, to: number): number {
    const last = this.lastForAsn.get(asn);
    if (last !== undefined && this.sameName(last, csv, from, to)) return last;
    const name = decodeName(csv, from, to);
    const label = name === '' ? `AS${asn}` : `AS${asn} ${name}`;
    let index = this.byLabel.get(label);
    if (index === undefined) {
      index = this.names.length;
      this.names.push(label);
      this.byLabel.set(label, index);
      this.source.push(csv);
      this.offset.push(from);
      this.size.push(to - from);
    }
    this.lastForAsn.set(asn, index);
    return index;
  }

  /** Drops what only loading needed. */
  done(): void {
    this.byLabel.clear();
    this.lastForAsn.clear();
    this.source = [];
    this.offset = [];
    this.size = [];
  }

  private sameName(index: number, csv: Uint8Array, from: number, to: number): boolean {
    const src = this.source[index];
    const at = this.offset[index] ?? 0;
    if (src === undefined || this.size[index] !== to - from) return false;
    for (let k = 0; k < to - from; k++) if (src[at + k] !== csv[from + k]) return false;
    return true;
  }
}

/**
 * Inclusive ranges over unsigned integers of `width` 32-bit words (1 for IPv4, 4 for IPv6, most
 * significant first), sorted by start and disjoint, so the last start ≤ key is the only candidate.
 */
class RangeTable {
  private constructor(
    readonly width: number,
    readonly length: number,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    readonly org: Uint32Array,
  ) {}

  get byteLength(): number {
    return this.starts.byteLength + this.ends.byteLength + this.org.byteLength;
  }

  static fromCsv(
    csv: Uint8Array,
    width: number,
    orgs: OrgInterner,
    counters: { skipped: number; clipped: number },
  ): RangeTable {
    const capacity = countLines(csv);
    let starts = new Uint32Array(capacity * width);
    let ends = new Uint32Array(capacity * width);
    let org = new Uint32Array(capacity);
    const asnWord = new Uint32Array(1);
    const len = csv.length;
    let n = 0;
    let sorted = true;

    // One pass over the bytes rather than over a decoded string: names sliced out of one big string
    // would keep all of it alive, and numbers read from bytes need no BigInt for IPv6. (The string
    // and BigInt version took 5 s to load; this one about half a second.)
    let i = 0;
    while (i < len) {
      const c1 = readNumber(csv, i, width, starts, n);
      const c2 = c1 < 0 ? -1 : readNumber(csv, c1 + 1, width, ends, n);
      const c3 = c2 < 0 ? -1 : readNumber(csv, c2 + 1, 1, asnWord, 0);
      let eol = c3 < 0 ? i : c3;
      while (eol < len && csv[eol] !== NL) eol++;
      const nameEnd = eol > i && csv[eol - 1] === CR ? eol - 1 : eol;
      const blank = nameEnd === i;
      i = eol + 1;
      if (blank) continue;

      const asn = asnWord[0] ?? 0;
      if (c3 < 0 || asn === 0 || compare(ends, n, starts, n, width) < 0) {
        counters.skipped++;
        continue;
      }
      if (n > 0 && compare(starts, n, starts, n - 1, width) < 0) sorted = false;
      org[n] = orgs.intern(asn, csv, c3 + 1, nameEnd);
      n++;
    }

    if (!sorted) ({ starts, ends, org } = sortByStart(starts, ends, org, n, width));

    // Make the ranges disjoint: where a row starts inside the previous one, the later (usually
    // narrower) row wins and the previous one ends just before it; one left empty is dropped.
    let out = 0;
    for (let r = 0; r < n; r++) {
      if (out > 0 && compare(starts, r, ends, out - 1, width) <= 0) {
        counters.clipped++;
        if (compare(starts, r, starts, out - 1, width) === 0) {
          out--;
        } else {
          ends.set(starts.subarray(r * width, (r + 1) * width), (out - 1) * width);
          decrement(ends, out - 1, width);
        }
      }
      if (out !== r) {
        starts.copyWithin(out * width, r * width, (r + 1) * width);
        ends.copyWithin(out * width, r * width, (r + 1) * width);
        org[out] = org[r] ?? 0;
      }
      out++;
    }
    // Copies trimmed to size, so that the spare capacity is freed and the memory figure is real.
    return new RangeTable(width, out, starts.slice(0, out * width), ends.slice(0, out * width), org.slice(0, out));
  }

  /** Row whose range holds `key`, or -1. */
  find(key: Uint32Array): number {
    const w = this.width;
    let lo = 0;
    let hi = this.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKey(this.starts, mid, key, w) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && compareKey(this.ends, found, key, w) >= 0 ? found : -1;
  }
}

const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const ZERO = 0x30;
const WORD = 0x1_0000_0000;

function countLines(csv: Uint8Array): number {
  let n = 1;
  for (let i = csv.indexOf(NL); i >= 0; i = csv.indexOf(NL, i + 1)) n++;
  return n;
}

/**
 * Reads the decimal field at `from` into row `row` of `target` as `width` big-endian 32-bit words
 * (long multiplication, so IPv6 needs no BigInt). Returns the index of the comma that ends it, or
 * -1 when the field is empty, not digits, too large, or not followed by a comma.
 */
function readNumber(csv: Uint8Array, from: number, width: number, target: Uint32Array, row: number): number {
  const base = row * width;
  let i = from;
  if (width === 1) {
    let v = 0;
    for (let d = (csv[i] ?? 0) - ZERO; d >= 0 && d <= 9; d = (csv[++i] ?? 0) - ZERO) v = v * 10 + d;
    if (v > 0xffffffff) return -1;
    target[base] = v;
  } else {
    for (let k = 0; k < width; k++) target[base + k] = 0;
    // Six digits at a time: a 32-bit word times 10^6 plus a carry still fits a double exactly.
    for (;;) {
      let chunk = 0;
      let scale = 1;
      for (let d = (csv[i] ?? 0) - ZERO; d >= 0 && d <= 9 && scale < 1e6; d = (csv[++i] ?? 0) - ZERO) {
        chunk = chunk * 10 + d;
        scale *= 10;
      }
      if (scale === 1) break;
      let carry = chunk;
      for (let k = width - 1; k >= 0; k--) {
        const t = (target[base + k] ?? 0) * scale + carry;
        carry = Math.floor(t / WORD);
        target[base + k] = t - carry * WORD;
      }
      if (carry !== 0) return -1;
    }
  }
  return i > from && csv[i] === COMMA ? i : -1;
}

const utf8 = new TextDecoder();

/** The name column: plain, or RFC 4180 quoted with "" standing for a quote. */
function decodeName(csv: Uint8Array, from: number, to: number): string {
  const quoted = to - from >= 2 && csv[from] === QUOTE && csv[to - 1] === QUOTE;
  const start = quoted ? from + 1 : from;
  const end = quoted ? to - 1 : to;
  // Nearly all names are ASCII, and building those directly is several times cheaper than a
  // TextDecoder call per name.
  let text = '';
  for (let k = start; k < end; k++) {
    const b = csv[k] ?? 0;
    if (b >= 0x80) {
      text = utf8.decode(csv.subarray(start, end));
      break;
    }
    text += String.fromCharCode(b);
  }
  return (quoted ? text.replaceAll('""', '"') : text).trim();
}

function compare(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): number {
  for (let k = 0; k < width; k++) {
    const x = a[i * width + k] ?? 0;
    const y = b[j * width + k] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function compareKey(a: Uint32Array, i: number, key: Uint32Array, width: number): number {
  for (let k = 0; k < width; k++) {
    const x = a[i * width + k] ?? 0;
    const y = key[k] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Subtracts one from row `row`. Only called on an end above its row's start, so never below 0. */
function decrement(a: Uint32Array, row: number, width: number): void {
  for (let k = width - 1; k >= 0; k--) {
    const idx = row * width + k;
    const v = a[idx] ?? 0;
    a[idx] = v === 0 ? 0xffffffff : v - 1;
    if (v !== 0) return;
  }
}

function sortByStart(starts: Uint32Array, ends: Uint32Array, org: Uint32Array, n: number, width: number) {
  const order = Array.from({ length: n }, (_, i) => i);
  // Ties keep file order, so that the later row still wins when overlaps are clipped.
  order.sort((i, j) => compare(starts, i, starts, j, width) || i - j);
  const s = new Uint32Array(n * width);
  const e = new Uint32Array(n * width);
  const o = new Uint32Array(n);
  order.forEach((from, to) => {
    s.set(starts.subarray(from * width, (from + 1) * width), to * width);
    e.set(ends.subarray(from * width, (from + 1) * width), to * width);
    o[to] = org[from] ?? 0;
  });
  return { starts: s, ends: e, org: o };
}
