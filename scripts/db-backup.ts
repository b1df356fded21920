// `npm run db:backup -- <file> [--encrypt-to <age recipient>]…`: a consistent copy of the SQLite
// list, taken while the server runs. SQLite's online backup API (through better-sqlite3) copies page
// by page and starts over by itself when a write lands in between, so the copy is one moment's
// state, never a torn file; a plain `cp` of a live WAL database can be. PostgreSQL has its own
// tools: pg_dump (docs/deploy.md).
//
// The copy holds people's addresses: it is owner-only (0600) from its first byte (umask and the
// file's creation mode, never a chmod afterwards). With --encrypt-to it is encrypted with age
// (https://age-encryption.org) to each recipient given, and no unencrypted copy touches the disk:
// the snapshot is taken in memory. `npm run db:restore` reads either kind.
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Encrypter } from 'age-encryption';
import SqliteDatabase from 'better-sqlite3';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { parseDatabaseUrl } from '../src/server/store/database.ts';

// Nothing this process creates is readable by anyone else, whatever the caller's umask.
process.umask(0o077);

const usage =
  'Usage: npm run db:backup -- <file> [--encrypt-to <age recipient>]   (a new file, e.g. /var/backups/dh/dh-$(date +%F).sqlite.age)';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Writes `bytes` to a new file made 0600 by this open (never an existing file). */
function writeNewPrivateFile(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

function checked(bytes: Buffer): void {
  const copy = new SqliteDatabase(bytes, { readonly: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') fail(`The snapshot failed SQLite's check (${String(check)}); nothing was written. Try again.`);
  } finally {
    copy.close();
  }
}

try {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { 'encrypt-to': { type: 'string', multiple: true } } });
  } catch (error) {
    fail(`${errorText(error)}\n${usage}`);
  }
  const dest = parsed.positionals[0];
  const recipients = parsed.values['encrypt-to'] ?? [];
  if (!dest || parsed.positionals.length > 1) fail(usage);
  const { dialect, target } = parseDatabaseUrl(loadEnv().DATABASE_URL);
  if (dialect !== 'sqlite')
    fail('DATABASE_URL is PostgreSQL: back it up with pg_dump (see docs/deploy.md, "Backups").');
  if (existsSync(dest)) fail(`${dest} exists already; choose a new file name (a backup never overwrites another).`);
  if (!existsSync(target)) fail(`There is no database at ${target} to back up.`);
  const encrypter = new Encrypter();
  for (const r of recipients) {
    try {
      encrypter.addRecipient(r.trim());
    } catch {
      fail(
        `--encrypt-to ${r.slice(0, 12)}… is not an age recipient (it starts with age1; \`age-keygen -y identity.txt\` prints yours). Nothing was written.`,
      );
    }
  }
  const db = new SqliteDatabase(target, { fileMustExist: true });
  try {
    // Waits for a writer's lock like the server does, instead of failing at once.
    db.pragma('busy_timeout = 5000');
    if (recipients.length > 0) {
      // One read transaction's view of the whole file, in memory. Its header still says WAL, which
      // an in-memory copy cannot open; bytes 18–19 set to 1 say "rollback journal", and the server
      // turns WAL back on when it opens the restored file (https://www.sqlite.org/fileformat2.html).
      const snapshot = db.serialize();
      snapshot[18] = 1;
      snapshot[19] = 1;
      checked(snapshot);
      writeNewPrivateFile(dest, await encrypter.encrypt(snapshot));
      console.log(
        `Backed up ${target} to ${dest} (${snapshot.length} bytes, checked, encrypted with age to ${recipients.length} recipient(s)).`,
      );
    } else {
      // Created here, 0600, so the backup writes into a file that was never readable by others.
      writeNewPrivateFile(dest, new Uint8Array(0));
      const { totalPages } = await db.backup(dest);
      const copy = new SqliteDatabase(dest, { readonly: true });
      const check = copy.pragma('quick_check', { simple: true });
      copy.close();
      if (check !== 'ok')
        fail(`The copy in ${dest} failed SQLite's check (${String(check)}); keep the previous backup and try again.`);
      console.log(`Backed up ${target} to ${dest} (${totalPages} pages, checked, not encrypted: see --encrypt-to).`);
    }
  } finally {
    db.close();
  }
} catch (error) {
  fail(error instanceof EnvError ? error.message : `The backup failed: ${errorText(error)}`);
}
