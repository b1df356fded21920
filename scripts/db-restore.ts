// `npm run db:restore -- <backup> [--identity <file>] [--force]`: puts a backup made by
// `npm run db:backup` (encrypted with age or not) in place of the SQLite database in DATABASE_URL,
// migrates it, and re-applies the erasure ledger, so nobody erased since the backup was taken
// comes back. `npm run db:restore -- --ledger-only` re-applies the ledger alone, to either store
// (PostgreSQL: run it before pg_restore, so the live database's ledger is kept in the file, and
// after). See docs/deploy.md, "Restore" and docs/decisions/0031-data-key-and-erasure-ledger.md.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { armor, Decrypter } from 'age-encryption';
import SqliteDatabase from 'better-sqlite3';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { DataKeyError, erasureLedgerPath, secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import { checkpointAfterErasure, openStore, parseDatabaseUrl, type Store } from '../src/server/store/database.ts';
import {
  LedgerError,
  reapplyErasureLedger,
  type LedgerEntry,
  type LedgerOutcome,
} from '../src/server/store/erasure-ledger.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import type { SecretBox } from '../src/server/store/secret-box.ts';
import { unreadableSecrets } from '../src/server/store/secret-rotation.ts';

process.umask(0o077);

const usage = `Usage:
  npm run db:restore -- <backup file> [--identity <age identity file>] [--force]
      SQLite: the backup replaces the database in DATABASE_URL (--force when one is there; it is
      moved aside, not deleted), then the erasure ledger is re-applied.
  npm run db:restore -- --ledger-only
      Either store: re-applies the erasure ledger to the database in DATABASE_URL.`;

class RestoreError extends Error {}

const AGE_BINARY = 'age-encryption.org/v1\n';
const AGE_ARMOR = '-----BEGIN AGE ENCRYPTED FILE-----';
const SQLITE_MAGIC = 'SQLite format 3\0';

async function plainBackup(file: string, identityFile: string | undefined): Promise<Buffer> {
  if (!existsSync(file)) throw new RestoreError(`There is no backup at ${file}.`);
  const bytes = readFileSync(file);
  const head = bytes.subarray(0, 40).toString('latin1');
  let plain = bytes;
  if (head.startsWith(AGE_BINARY) || head.startsWith(AGE_ARMOR)) {
    if (!identityFile)
      throw new RestoreError(
        `${file} is encrypted with age: give the identity (secret key) file with --identity <file>.`,
      );
    if (!existsSync(identityFile)) throw new RestoreError(`There is no identity file at ${identityFile}.`);
    const decrypter = new Decrypter();
    const identities = readFileSync(identityFile, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    try {
      for (const id of identities) decrypter.addIdentity(id);
    } catch {
      throw new RestoreError(`${identityFile} does not hold an age identity (a line starting AGE-SECRET-KEY-1).`);
    }
    if (identities.length === 0)
      throw new RestoreError(`${identityFile} does not hold an age identity (a line starting AGE-SECRET-KEY-1).`);
    try {
      plain = Buffer.from(
        await decrypter.decrypt(head.startsWith(AGE_ARMOR) ? armor.decode(bytes.toString('latin1')) : bytes),
      );
    } catch (error) {
      throw new RestoreError(
        `${file} could not be decrypted with the identity in ${identityFile} (${errorText(error)}): it was encrypted to another recipient, or is damaged.`,
      );
    }
  }
  if (plain.subarray(0, SQLITE_MAGIC.length).toString('latin1') !== SQLITE_MAGIC)
    throw new RestoreError(`${file} is not a backup made by npm run db:backup (not a SQLite database).`);
  // In memory for the check; a WAL-mode header cannot be opened there (see db-backup.ts).
  const copy = Buffer.from(plain);
  copy[18] = 1;
  copy[19] = 1;
  const check = new SqliteDatabase(copy, { readonly: true });
  try {
    const ok = check.pragma('quick_check', { simple: true });
    if (ok !== 'ok')
      throw new RestoreError(`${file} failed SQLite's check (${String(ok)}); nothing was changed. Use another backup.`);
  } finally {
    check.close();
  }
  return copy;
}

/** The ledger kept in the database about to be replaced: it may hold erasures the file lacks. */
function liveLedger(target: string): LedgerEntry[] {
  const live = new SqliteDatabase(target, { readonly: true, fileMustExist: true });
  try {
    const has = live.prepare("select 1 from sqlite_master where type = 'table' and name = 'erasure_ledger'").get();
    if (!has) return [];
    return (
      live.prepare('select key_id, hash, erased_at from erasure_ledger').all() as {
        key_id: string;
        hash: string;
        erased_at: string;
      }[]
    ).map((r) => ({
      keyId: r.key_id,
      hash: r.hash,
      erasedAt: r.erased_at,
    }));
  } finally {
    live.close();
  }
}

function ledgerWords(outcome: LedgerOutcome, file: string): string {
  const lines = [
    `Erasure ledger (${file}, and the database's copy): ${outcome.entries} erasure(s) on record; ${outcome.erased} person(s) in this database erased again.`,
  ];
  if (outcome.unknownKeys.length) {
    lines.push(
      `WARNING: some erasures were recorded under data key(s) ${outcome.unknownKeys.join(', ')}, which this configuration does not have, so they could not be checked: put those keys in DATA_KEY_PREVIOUS and run npm run db:restore -- --ledger-only.`,
    );
  }
  return lines.join('\n');
}

async function afterRestore(
  store: Store,
  secrets: SecretBox,
  ledgerFile: string,
  alsoFrom: LedgerEntry[],
): Promise<string> {
  await migrateToLatest(store.db, { secrets });
  const outcome = await reapplyErasureLedger(store.db, secrets, ledgerFile, alsoFrom);
  await checkpointAfterErasure(store);
  const lines = [ledgerWords(outcome, ledgerFile)];
  const unreadable = await unreadableSecrets(store.db, secrets);
  if (unreadable.length)
    lines.push(
      `WARNING: ${unreadable.length} stored secret(s) cannot be opened with this configuration's data keys:\n  - ${unreadable.join('\n  - ')}`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { identity: { type: 'string' }, force: { type: 'boolean' }, 'ledger-only': { type: 'boolean' } },
    });
  } catch (error) {
    throw new RestoreError(`${errorText(error)}\n\n${usage}`);
  }
  const { values, positionals } = parsed;
  const env = loadEnv();
  const secrets = secretBoxFromEnv(env);
  const ledgerFile = erasureLedgerPath(env);

  if (values['ledger-only']) {
    if (positionals.length) throw new RestoreError(`--ledger-only takes no backup file.\n\n${usage}`);
    const store = await openStore(env.DATABASE_URL, { longStatements: true });
    try {
      console.log(`${store.description}:\n${await afterRestore(store, secrets, ledgerFile, [])}`);
    } finally {
      await store.close();
    }
    return;
  }

  const [backup, ...extra] = positionals;
  if (!backup || extra.length) throw new RestoreError(usage);
  const { dialect, target } = parseDatabaseUrl(env.DATABASE_URL);
  if (dialect !== 'sqlite') {
    throw new RestoreError(
      'DATABASE_URL is PostgreSQL: restore with pg_restore (docs/deploy.md, "Restore"), running npm run db:restore -- --ledger-only before it (to keep the live ledger) and after it (to erase again whoever the backup brings back).',
    );
  }
  const plain = await plainBackup(backup, values.identity);
  const present = existsSync(target);
  if (present && !values.force) {
    throw new RestoreError(
      `There is a database at ${target} already. Stop every server using it, then run again with --force: it is moved aside (to ${target}.before-restore-<time>), not deleted. Nothing was changed.`,
    );
  }
  const alsoFrom = present ? liveLedger(target) : [];
  // Into a new private file first, then moved into place: never a half-written database file.
  const incoming = `${target}.restoring-${process.pid}`;
  // A new machine: the folder made owner-only, as the server makes it.
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true, mode: 0o700 });
  const fd = openSync(incoming, 'wx', 0o600);
  try {
    writeSync(fd, plain);
  } finally {
    closeSync(fd);
  }
  let aside = '';
  if (present) {
    aside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const side of ['', '-wal', '-shm'])
      if (existsSync(`${target}${side}`)) renameSync(`${target}${side}`, `${aside}${side}`);
  }
  for (const side of ['-wal', '-shm', '-journal']) rmSync(`${target}${side}`, { force: true });
  renameSync(incoming, target);
  const store = await openStore(`sqlite:${target}`, { longStatements: true });
  try {
    const report = await afterRestore(store, secrets, ledgerFile, alsoFrom);
    console.log(
      `Restored ${backup} to ${target}.${aside ? ` The database it replaced is in ${aside} (delete it once the restore is checked).` : ''}\n${report}`,
    );
  } finally {
    await store.close();
  }
}

try {
  await main();
} catch (error) {
  const known =
    error instanceof RestoreError ||
    error instanceof EnvError ||
    error instanceof DataKeyError ||
    error instanceof LedgerError;
  console.error(known ? (error as Error).message : `The restore failed: ${errorText(error)}`);
  process.exitCode = 1;
}
