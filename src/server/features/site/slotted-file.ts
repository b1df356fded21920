import { once } from 'node:events';
import {
  brotliDecompressSync,
  constants,
  crc32,
  createBrotliCompress,
  createDeflateRaw,
  gunzipSync,
  type BrotliCompress,
  type DeflateRaw,
} from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pickEncoding } from './memory-file.ts';

// A page kept in memory with a slot where a short value goes (a friend's invite code): the page is
// rendered and compressed once, and each request only splices its value in, so a visit through an
// invite link costs what a visit to the page from memory costs (issue 38).
//
// How the compressed forms are spliced. The page is compressed as one stream, flushed (byte-aligned)
// just before each slot and just after it, with stand-in bytes in the slot that appear nowhere in
// the page, so no later part of the stream can refer back into the slot. Per request, the slot's
// compressed stretch is replaced by the value stored as is: a deflate "stored" block for gzip, an
// "uncompressed meta-block" for brotli (RFC 1951 §3.2.4, RFC 7932 §9.2). Everything around it keeps
// its bytes and its back-references, since the value is exactly as long as the stand-in. Brotli
// picks a literal's code by the two bytes before it, so the stored stretch also carries the first
// bytes after the slot (fixed bytes of the page): the bytes that follow it are then read with the
// same codes they were written with. Each coding is checked by decompressing it once when it is
// built; one that does not come back byte for byte is not offered (the page goes out in the other
// coding, or as is). gzip's checksum is joined from the parts' own (crc32 combine), so a request
// never runs a checksum over the page.

/** A compressed form of a slotted page: its stretches around the slots. */
interface Spliced {
  /** The compressed stream up to the first slot (brotli's stream header). */
  head: Buffer;
  /** Per slot: the page's bytes stored with the value (after it), and the compressed stretch to the next slot. */
  after: { tail: Buffer; rest: Buffer }[];
}

/**
 * One form of the page, whole, with a stand-in value in each slot and where each slot starts: a
 * request copies it and writes its value in (one copy of a few KB, no other work).
 */
interface Template {
  bytes: Buffer;
  at: readonly number[];
}

export interface SlottedFile {
  type: string;
  /** The page's bytes around the slots: `parts[0]`, the value, `parts[1]`, … */
  parts: readonly Buffer[];
  /** How long a value is, in bytes: every value fills the slot exactly. */
  slotBytes: number;
  raw: Template;
  br: Template | undefined;
  gzip: Template | undefined;
  /** Set once the compressed forms are asked for (`compressed`): settles when both are made or found wanting. */
  compressing: Promise<void> | undefined;
}

/**
 * A page whose `marker` (a value of the slot's length, found nowhere else in it) marks each place
 * a value goes. The uncompressed form is usable at once; the compressed forms are made off the
 * main thread when first asked for (`compressed`), so a page no one visits costs no compression.
 */
export function slottedFile(body: string, marker: string, type: string): SlottedFile {
  const pieces = body.split(marker);
  if (pieces.length < 2) throw new Error('A slotted page needs its marker at least once.');
  const parts = pieces.map((p) => Buffer.from(p, 'utf8'));
  const slotBytes = Buffer.byteLength(marker);
  const file: SlottedFile = {
    type,
    parts,
    slotBytes,
    raw: template(
      parts.flatMap((p, i) => (i === 0 ? [p] : [VALUE, p])),
      slotBytes,
    ),
    br: undefined,
    gzip: undefined,
    compressing: undefined,
  };
  return file;
}

/** Makes `file`'s compressed forms, once; settles when both are made (or found wanting). */
export function compressed(file: SlottedFile): Promise<void> {
  file.compressing ??= Promise.all([
    spliceable(file, 'br').then((form) => {
      file.br = form;
    }),
    spliceable(file, 'gzip').then((form) => {
      file.gzip = form;
    }),
  ]).then(() => undefined);
  return file.compressing;
}

const VALUE: unique symbol = Symbol('the value');
type Piece = Buffer | typeof VALUE;

/** A form of the page from its pieces, the value's places left as stand-ins. */
function template(pieces: readonly Piece[], slotBytes: number): Template {
  const at: number[] = [];
  let length = 0;
  const buffers = pieces.map((p) => {
    if (p !== VALUE) {
      length += p.length;
      return p;
    }
    at.push(length);
    length += slotBytes;
    return Buffer.alloc(slotBytes, 0x20);
  });
  return { bytes: Buffer.concat(buffers, length), at };
}

/** `form` with `value` in each slot (a fresh buffer: the template is shared by every request). */
function withValue(file: SlottedFile, form: Template, value: string): Buffer {
  if (Buffer.byteLength(value) !== file.slotBytes) throw new Error('A value must fill its slot exactly.');
  const out = Buffer.allocUnsafe(form.bytes.length);
  form.bytes.copy(out);
  for (const at of form.at) out.write(value, at, 'utf8');
  return out;
}

/** The page with `value` in each slot, uncompressed. */
export const filled = (file: SlottedFile, value: string): Buffer => withValue(file, file.raw, value);

// Stand-ins are control characters the page does not carry (an HTML page of ours carries none but
// tab, line feed and carriage return), so no part of the page can match them. Each slot gets its
// own run, and no pair of bytes comes twice in all the runs (s0 s1 s0 s2 … s0 sN s1 s2 s1 s3 …), so
// the compressor cannot match a slot against another or against itself either.
function standIns(parts: readonly Buffer[], count: number, length: number): Buffer[] {
  const inPage = new Uint8Array(32);
  for (const part of parts) for (const byte of part) if (byte < 32) inPage[byte] = 1;
  const symbols = [...Array(32).keys()].filter((b) => b > 0 && b !== 9 && b !== 10 && b !== 13 && !inPage[b]);
  const bytes = symbols.flatMap((a, i) => symbols.slice(i + 1).flatMap((b) => [a, b]));
  if (bytes.length < count * length) throw new Error('The page leaves too few stand-in bytes for its slots.');
  return Array.from({ length: count }, (_, i) => Buffer.from(bytes.slice(i * length, (i + 1) * length)));
}

type Coding = 'br' | 'gzip';
// How many of the page's bytes after a slot go stored with the value. Two suffice for brotli's
// literal context; more are tried only if the compressor happened to copy those two from earlier.
const TAILS = [2, 3, 4, 6, 8, 12];

async function spliceable(file: SlottedFile, coding: Coding): Promise<Template | undefined> {
  const probe = 'x'.repeat(file.slotBytes);
  try {
    for (const tail of TAILS) {
      if (file.parts.slice(1).some((p) => p.length < tail)) return undefined;
      const form = compressedTemplate(file, await compressAround(file, coding, tail), coding);
      if (comesBack(file, form, coding, probe)) return form;
    }
  } catch {
    // No stand-ins left, or the compressor failed: this form is not offered.
  }
  return undefined;
}

/** Whether the spliced form decompresses to the page with `value` in it, byte for byte. */
function comesBack(file: SlottedFile, form: Template, coding: Coding, value: string): boolean {
  try {
    const sent = splice(file, form, coding, value);
    return (coding === 'br' ? brotliDecompressSync(sent) : gunzipSync(sent)).equals(filled(file, value));
  } catch {
    return false; // not a stream a browser could read: this form is not offered
  }
}

function compressor(coding: Coding, size: number): BrotliCompress | DeflateRaw {
  return coding === 'br'
    ? createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      })
    : createDeflateRaw({ level: 9 });
}

/** The page compressed as one stream, flushed around each slot; the slots' own stretches dropped. */
async function compressAround(file: SlottedFile, coding: Coding, tail: number): Promise<Spliced> {
  const [first = Buffer.alloc(0), ...others] = file.parts;
  const stream = compressor(
    coding,
    file.parts.reduce((n, p) => n + p.length, 0),
  );
  const flushKind = coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
  let chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  /** What the stream has put out since the last call. */
  const taken = (): Buffer => {
    const out = Buffer.concat(chunks);
    chunks = [];
    return out;
  };
  const flushed = async (bytes: Buffer): Promise<Buffer> => {
    stream.write(bytes);
    await new Promise<void>((resolve) => stream.flush(flushKind, () => resolve()));
    // The flush's output is pushed before its callback; a turn of the loop lets any of it still
    // queued for the 'data' listener arrive.
    await new Promise((resolve) => setImmediate(resolve));
    return taken();
  };
  const ends = once(stream, 'end');
  const head = await flushed(first);
  const slots = standIns(file.parts, others.length, file.slotBytes);
  const after: Spliced['after'] = [];
  for (const [i, part] of others.entries()) {
    await flushed(Buffer.concat([slots[i] ?? Buffer.alloc(0), part.subarray(0, tail)]));
    const last = i === others.length - 1;
    if (!last) after.push({ tail: part.subarray(0, tail), rest: await flushed(part.subarray(tail)) });
    else {
      stream.end(part.subarray(tail));
      await ends;
      after.push({ tail: part.subarray(0, tail), rest: taken() });
    }
  }
  return { head, after };
}

/** A brotli meta-block of `length` bytes stored as they are (ISLAST 0, four nibbles of MLEN − 1). */
function brotliStoredHeader(length: number): Buffer {
  const bits = ((length - 1) << 3) | (1 << 19);
  return Buffer.from([bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff]);
}

/** A deflate stored block of `length` bytes, not the last (starts byte-aligned after a sync flush). */
function deflateStoredHeader(length: number): Buffer {
  return Buffer.from([0, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff]);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The compressed page, each slot's stretch stored as is (its checksum and size after, for gzip). */
function compressedTemplate(file: SlottedFile, spliced: Spliced, coding: Coding): Template {
  const n = file.slotBytes;
  const stored = (tail: Buffer) =>
    coding === 'br' ? brotliStoredHeader(n + tail.length) : deflateStoredHeader(n + tail.length);
  const body = spliced.after.flatMap(({ tail, rest }): Piece[] => [stored(tail), VALUE, tail, rest]);
  if (coding === 'br') return template([spliced.head, ...body], n);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(file.parts.reduce((sum, p) => sum + p.length, n * spliced.after.length) % 2 ** 32);
  return template([GZIP_HEADER, spliced.head, ...body, Buffer.alloc(4), size], n);
}

/** The compressed page with `value` in each slot. */
function splice(file: SlottedFile, form: Template, coding: Coding, value: string): Buffer {
  const out = withValue(file, form, value);
  if (coding === 'gzip') out.writeUInt32LE(gzipChecksum(file, value), out.length - 8);
  return out;
}

// CRC-32 of the whole page from its parts': crc(A‖B) = crc(A)·x^(8·|B|) ⊕ crc(B) over GF(2), as
// zlib's crc32_combine; the parts' checksums and shifts are worked out once per page.
const POLY = 0xedb88320;
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
/** x^(8·bytes) mod P, the shift that moves a checksum past `bytes` bytes. */
function shiftFor(bytes: number): number {
  let p = 0x80000000; // x^0
  let square = 0x40000000; // x^1
  for (let n = bytes * 8; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) p = multModP(square, p);
    square = multModP(square, square);
  }
  return p;
}

const checksums = new WeakMap<SlottedFile, { first: number; later: { crc: number; shift: number }[] }>();
/** The CRC-32 of the page with `value` in each slot, from the parts' (worked out once). */
function gzipChecksum(file: SlottedFile, value: string): number {
  let sums = checksums.get(file);
  if (!sums) {
    const [first = Buffer.alloc(0), ...later] = file.parts;
    sums = { first: crc32(first), later: later.map((p) => ({ crc: crc32(p), shift: shiftFor(p.length) })) };
    checksums.set(file, sums);
  }
  let crc = sums.first;
  for (const part of sums.later) crc = (multModP(part.shift, crc32(value, crc)) ^ part.crc) >>> 0;
  return crc;
}

/**
 * Sends the page with `value` in its slots, compressed as asked where that form is ready. No ETag:
 * the page is one visitor's (the code is a friend's), so `cacheControl` should keep shared caches out.
 */
export function sendSlottedFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: SlottedFile,
  value: string,
  { cacheControl }: { cacheControl: string },
): FastifyReply {
  reply.header('content-type', file.type).header('cache-control', cacheControl).header('vary', 'Accept-Encoding');
  const encoding = pickEncoding(request.headers['accept-encoding']);
  const form = encoding === null ? undefined : file[encoding];
  if (encoding && form) return reply.header('content-encoding', encoding).send(splice(file, form, encoding, value));
  // The first visit starts the compression (a few hundred ms on the thread pool); until it is
  // done, the page goes out as it is.
  void compressed(file);
  return reply.send(filled(file, value));
}
