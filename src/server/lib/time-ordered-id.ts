import { randomFillSync } from 'node:crypto';

// Row ids for the tables a sign-up writes (subscribers, outbox): UUIDs of version 7 (RFC 9562
// §5.7), whose first 48 bits are the Unix time in milliseconds and whose other 74 free bits are
// random. A random (version 4) primary key puts each new row on a random page of every index that
// holds it (the key itself, the outbox's subscriber_id), so a batch of 50 sign-ups dirties ~50
// pages per index and each is written to the WAL at the commit and again at the checkpoint;
// time-ordered keys land on the last page or two. Measured on SQLite with the app's schema, 50
// sign-ups per transaction (bench/signup-insert-ids.ts): 60–112 µs of CPU per sign-up with
// version 4 ids, 37–56 µs with these (docs/decisions/0047-signup-cost-round-trips.md, second
// session).
//
// What they give away: the millisecond the row was made, which every such row also stores in
// created_at. They are still unguessable (74 random bits; links that carry one are signed
// anyway), and they are ids, not secrets. Older rows keep their version 4 ids: both are UUIDs in
// the same text column, and nothing orders by id except as a tie-breaker.

// 10 random bytes per id (74 of their bits used), drawn 256 ids at a time, as crypto.randomUUID
// pools its own, rather than a call into the system's random source per id.
const RANDOM_BYTES = 10;
const POOL = RANDOM_BYTES * 256;
const pool = Buffer.alloc(POOL);
let offset = POOL;
const id = Buffer.alloc(16);

/** A new UUID version 7: time-ordered to the millisecond, random within it. */
export function timeOrderedId(now: number = Date.now()): string {
  if (offset === POOL) {
    randomFillSync(pool);
    offset = 0;
  }
  // 48 bits of milliseconds, big-endian, then the random bytes.
  id.writeUIntBE(Math.max(0, Math.floor(now)) % 2 ** 48, 0, 6);
  pool.copy(id, 6, offset, offset + RANDOM_BYTES);
  offset += RANDOM_BYTES;
  id.writeUInt8(0x70 | (id.readUInt8(6) & 0x0f), 6); // version 7, then 12 random bits
  id.writeUInt8(0x80 | (id.readUInt8(8) & 0x3f), 8); // variant 10, then 62 random bits
  const h = id.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
