import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../../bench/lib/postgres.ts';
import { httpGet } from '../../../bench/lib/http.ts';
import { repoRoot, startBuiltServer } from '../../../bench/lib/processes.ts';
import { unsubscribeUrl } from '../signups/unsubscribe-link.ts';
import { insertSubscriber } from '../test/fixtures.ts';
import { buildTestApp } from '../test/built-app.ts';
import { dialectCases, testPostgresUrl, testSecrets, type TestStore } from '../test/test-store.ts';
import { openStore } from '../store/database.ts';
import { migrateToLatest } from '../store/migrate.ts';

// docs/deploy.md, "Backups": each store's backup, taken while the site runs, restored into a fresh
// database, and the built site started on the copy serves what was stored: a subscriber's
// unsubscribe link, which needs the subscriber's row and the link keys kept in the database.
const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-backup-'));
const scratch: ScratchDatabase[] = [];
const postgresLabel = dialectCases.find((c) => c.dialect === 'postgres')?.label ?? 'postgres';
afterAll(async () => {
  for (const db of scratch) await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A database with one confirmed subscriber, and the path of that subscriber's unsubscribe link. */
async function seed(url: string): Promise<string> {
  const opened = await openStore(url);
  const store: TestStore = { ...opened, url, destroy: opened.close };
  try {
    await migrateToLatest(store.db, { secrets: testSecrets() });
    const id = await insertSubscriber(store.db, 'kept@example.com', { status: 'confirmed' });
    // The app makes the link keys on its first start, as the live site would have.
    const { app, close } = await buildTestApp({ store });
    try {
      const link = new URL(unsubscribeUrl('http://x', app.keys, id));
      return `${link.pathname}${link.search}`;
    } finally {
      await close();
    }
  } finally {
    await opened.close();
  }
}

/** Takes the backup while the built site runs on `liveUrl`. */
async function whileLive(liveUrl: string, backup: () => Promise<unknown>): Promise<void> {
  const live = await startBuiltServer({ DATABASE_URL: liveUrl });
  try {
    await backup();
  } finally {
    await live.stop();
  }
}

async function servesSubscriber(restoredUrl: string, link: string): Promise<void> {
  const site = await startBuiltServer({ DATABASE_URL: restoredUrl });
  try {
    const page = await httpGet(`${site.origin}${link}`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('Unsubscribe from our emails?');
  } finally {
    await site.stop();
  }
}

describe('a backup restored into a fresh database: the site starts on it and serves a stored subscriber', () => {
  it(`sqlite: npm run db:backup while live, then the copy put in place`, { timeout: 120_000 }, async () => {
    const liveFile = path.join(dir, 'live.sqlite');
    const link = await seed(`sqlite:${liveFile}`);
    const backupFile = path.join(dir, 'dh-backup.sqlite');
    await whileLive(`sqlite:${liveFile}`, () =>
      run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/db-backup.ts'), backupFile], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: `sqlite:${liveFile}` },
      }),
    );
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    // Restore (docs/deploy.md): with the server stopped, the backup becomes the database file, in
    // a folder of its own here as on a new machine.
    const restored = path.join(dir, 'restored', 'dh.sqlite');
    mkdirSync(path.dirname(restored), { mode: 0o700 });
    copyFileSync(backupFile, restored);
    await servesSubscriber(`sqlite:${restored}`, link);
  });

  it.skipIf(!testPostgresUrl)(`${postgresLabel}: pg_dump while live, pg_restore into a new database`, { timeout: 120_000 }, async () => {
    const source = await createScratchDatabase(testPostgresUrl ?? '');
    scratch.push(source);
    const link = await seed(source.url);
    const dump = path.join(dir, 'dh.dump');
    await whileLive(source.url, () => run('pg_dump', ['--format=custom', `--file=${dump}`, source.url]));
    const fresh = await createScratchDatabase(testPostgresUrl ?? '');
    scratch.push(fresh);
    await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', `--dbname=${fresh.url}`, dump]);
    await servesSubscriber(fresh.url, link);
  });
});
