import { createHmac } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { deriveKey, type DataKey, type SecretBox } from './secret-box.ts';

// The erasure ledger: who was erased, as keyed hashes, so that restoring a backup taken before an
// erasure cannot bring the person back (docs/decisions/0031-data-key-and-erasure-ledger.md).
// An entry is HMAC-SHA256 of the lower-cased address under a key derived from the data key (never
// the address, and useless for guessing one without the key), and names that data key. It is kept
// twice: in the database (table erasure_ledger, so it travels with newer backups) and in an
// append-only file outside it (ERASURE_LEDGER), which a restore of an older backup cannot roll back.

export interface LedgerEntry {
  keyId: string;
  hash: string;
  erasedAt: string;
}

const LEDGER_PURPOSE = 'erasure-ledger/v1';
const LINE = /^v1 ([0-9a-f]{16}) ([A-Za-z0-9_-]{43}) (\S+)$/;

/** A ledger in a state we cannot use, in words. */
export class LedgerError extends Error {}

// Derived once per data key: a restore hashes every subscriber's address under each key in use.
const ledgerKeys = new WeakMap<DataKey, Buffer>();
function ledgerHash(key: DataKey, emailKey: string): string {
  let k = ledgerKeys.get(key);
  if (!k) ledgerKeys.set(key, (k = deriveKey(key.key, LEDGER_PURPOSE)));
  return createHmac('sha256', k).update(emailKey).digest('base64url');
}

/** The entry for erasing the person with this email_key, under the current data key. */
export function ledgerEntryFor(secrets: SecretBox, emailKey: string, now: Date): LedgerEntry {
  return { keyId: secrets.current.id, hash: ledgerHash(secrets.current, emailKey), erasedAt: now.toISOString() };
}

/**
 * Appends entries to the ledger file: created owner-only (0600) from its first byte, appended to
 * (O_APPEND, so two processes never overwrite each other's lines), and flushed to disk before the
 * erasure is reported done.
 */
export function appendToLedgerFile(file: string, entries: readonly LedgerEntry[]): void {
  if (entries.length === 0) return;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, 'a', 0o600);
  try {
    writeSync(fd, entries.map((e) => `v1 ${e.keyId} ${e.hash} ${e.erasedAt}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readLedgerFile(file: string): LedgerEntry[] {
  if (!existsSync(file)) return [];
  const entries: LedgerEntry[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const m = LINE.exec(line.trim());
      // A line cut short by a crash mid-append is the only damage an append-only file takes; any
      // other is refused, since skipping it could bring someone back.
      if (!m)
        throw new LedgerError(
          `Line ${i + 1} of the erasure ledger ${file} is not a ledger entry; fix or remove that line and run again.`,
        );
      entries.push({ keyId: m[1] ?? '', hash: m[2] ?? '', erasedAt: m[3] ?? '' });
    });
  return entries;
}

async function readLedgerTable(db: Kysely<Database>): Promise<LedgerEntry[]> {
  const rows = await db.selectFrom('erasure_ledger').select(['key_id', 'hash', 'erased_at']).execute();
  return rows.map((r) => ({ keyId: r.key_id, hash: r.hash, erasedAt: r.erased_at }));
}

/** Records entries in the database's copy (one already there is left as it is). */
export async function recordInLedgerTable(db: Kysely<Database>, entries: readonly LedgerEntry[]): Promise<void> {
  for (const e of entries) {
    await db
      .insertInto('erasure_ledger')
      .values({ hash: e.hash, key_id: e.keyId, erased_at: e.erasedAt })
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
}

export interface LedgerOutcome {
  /** People found in the database and erased again. */
  erased: number;
  /** Entries in the ledger, all copies together. */
  entries: number;
  /** Data keys some entries were made under that this configuration does not have. */
  unknownKeys: string[];
}

/**
 * Erases again everyone the ledger names who signed up before their erasure, and makes the
 * database's copy of the ledger hold every entry. A person who signed up again after being erased
 * (a row made later than the entry) chose to come back, and stays. Every subscriber's address is
 * hashed under each data key the ledger uses, in batches.
 */
async function applyLedger(
  db: Kysely<Database>,
  secrets: SecretBox,
  entries: readonly LedgerEntry[],
): Promise<LedgerOutcome> {
  const unique = [...new Map(entries.map((e) => [`${e.keyId}:${e.hash}`, e])).values()];
  // The latest erasure of each hash: a row made before it is one the erasure removed.
  const wanted = new Map<string, string>();
  for (const e of unique) {
    const k = `${e.keyId}:${e.hash}`;
    if ((wanted.get(k) ?? '') < e.erasedAt) wanted.set(k, e.erasedAt);
  }
  const usedKeyIds = new Set(unique.map((e) => e.keyId));
  const keys = secrets.keys.filter((k) => usedKeyIds.has(k.id));
  const unknownKeys = [...usedKeyIds].filter((id) => !secrets.keys.some((k) => k.id === id));
  let erased = 0;
  await db.transaction().execute(async (trx) => {
    await recordInLedgerTable(trx, unique);
    let after = '';
    for (;;) {
      const batch = await trx
        .selectFrom('subscribers')
        .select(['id', 'email_key', 'created_at'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (batch.length === 0) break;
      after = batch[batch.length - 1]?.id ?? after;
      const erasedAt = (s: { email_key: string }) =>
        keys
          .map((k) => wanted.get(`${k.id}:${ledgerHash(k, s.email_key)}`) ?? '')
          .reduce((a, b) => (a > b ? a : b), '');
      const gone = batch.filter((s) => s.created_at <= erasedAt(s)).map((s) => s.id);
      if (gone.length === 0) continue;
      await trx.deleteFrom('outbox').where('subscriber_id', 'in', gone).execute();
      await trx.deleteFrom('subscribers').where('id', 'in', gone).execute();
      erased += gone.length;
    }
  });
  return { erased, entries: unique.length, unknownKeys };
}

/**
 * What a restore (and `npm run db:restore -- --ledger-only`) runs: every entry of the ledger file,
 * of the database's table and of `alsoFrom` (the table of the database being replaced) is applied
 * to the database, and the file gains every entry it lacked, so the copy outside the database
 * stays the complete one.
 */
export async function reapplyErasureLedger(
  db: Kysely<Database>,
  secrets: SecretBox,
  file: string,
  alsoFrom: readonly LedgerEntry[] = [],
): Promise<LedgerOutcome> {
  const fromFile = readLedgerFile(file);
  const all = [...fromFile, ...(await readLedgerTable(db)), ...alsoFrom];
  const inFile = new Set(fromFile.map((e) => e.hash));
  const missing = [...new Map(all.filter((e) => !inFile.has(e.hash)).map((e) => [e.hash, e])).values()];
  appendToLedgerFile(file, missing);
  return applyLedger(db, secrets, all);
}
