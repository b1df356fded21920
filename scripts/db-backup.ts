// `npm run db:backup -- <file>`: a consistent copy of the SQLite list, taken while the server runs.
// SQLite's online backup API (through better-sqlite3) copies page by page and starts over by
// itself when a write lands in between, so the copy is one moment's state, never a torn file; a
// plain `cp` of a live WAL database can be. PostgreSQL has its own tools: pg_dump (docs/deploy.md).
import { chmodSync, existsSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { parseDatabaseUrl } from '../src/server/store/database.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

try {
  const dest = process.argv[2];
  if (!dest) fail('Usage: npm run db:backup -- <file>   (a new file, e.g. /var/backups/dh/dh-$(date +%F).sqlite)');
  const { dialect, target } = parseDatabaseUrl(loadEnv().DATABASE_URL);
  if (dialect !== 'sqlite') fail('DATABASE_URL is PostgreSQL: back it up with pg_dump (see docs/deploy.md, "Backups").');
  if (existsSync(dest)) fail(`${dest} exists already; choose a new file name (a backup never overwrites another).`);
  if (!existsSync(target)) fail(`There is no database at ${target} to back up.`);
  const db = new SqliteDatabase(target, { fileMustExist: true });
  try {
    // Waits for a writer's lock like the server does, instead of failing at once.
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(dest);
    // The list holds people's email addresses: the copy is as private as the original.
    chmodSync(dest, 0o600);
    const copy = new SqliteDatabase(dest, { readonly: true });
    const check = copy.pragma('quick_check', { simple: true });
    copy.close();
    if (check !== 'ok') fail(`The copy in ${dest} failed SQLite's check (${String(check)}); keep the previous backup and try again.`);
    console.log(`Backed up ${target} to ${dest} (${totalPages} pages, checked).`);
  } finally {
    db.close();
  }
} catch (error) {
  fail(error instanceof EnvError ? error.message : `The backup failed: ${errorText(error)}`);
}
