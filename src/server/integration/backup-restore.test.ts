import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterAll, describe, expect, it } from 'vitest';
import { adminApiPaths, apiPaths } from '../../shared/paths.ts';
import { xsrf } from '../../shared/xsrf.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../../bench/lib/postgres.ts';
import { cookiesFrom, httpGet, httpRequest } from '../../../bench/lib/http.ts';
import { makeOperator, PASSWORD, type TestOperator } from '../test/admin-kit.ts';
import { totpCode } from '../features/operators/totp.ts';
import { repoRoot, startBuiltServer } from '../test/processes.ts';
import { unsubscribeUrl } from '../features/signups/index.ts';
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

const operator: TestOperator = { email: 'ops@example.com', secret: '', recoveryCodes: [] };

/**
 * A database with one confirmed subscriber and one operator, and the path of that subscriber's
 * unsubscribe link.
 */
async function seed(url: string): Promise<string> {
  const opened = await openStore(url);
  const store: TestStore = { ...opened, url, destroy: opened.close };
  try {
    await migrateToLatest(store.db, { secrets: testSecrets() });
    const id = await insertSubscriber(store.db, 'kept@example.com', { status: 'confirmed' });
    operator.secret = (await makeOperator(store.db, operator.email, new Date())).secret;
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

/** Signs in to the console as a browser would (CSRF cookie and header, password, code) and lists subscribers. */
async function signInAndList(origin: string): Promise<string[]> {
  const jar = new Map<string, string>();
  const keep = (res: Awaited<ReturnType<typeof httpRequest>>) => {
    for (const pair of cookiesFrom(res).split('; ').filter(Boolean)) {
      const [name = '', ...value] = pair.split('=');
      jar.set(name, value.join('='));
    }
  };
  const headers = () => ({
    'content-type': 'application/json',
    'sec-fetch-site': 'same-origin',
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    [xsrf.header]: jar.get(xsrf.cookie) ?? '',
  });
  keep(await httpGet(`${origin}${apiPaths.csrf}`));
  const password = await httpRequest(`${origin}${adminApiPaths.signIn}`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ email: operator.email, password: PASSWORD }),
  });
  expect(password.status, password.body.toString()).toBe(200);
  keep(password);
  const code = totpCode(operator.secret, new Date());
  const second = await httpRequest(`${origin}${adminApiPaths.secondFactor}`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ method: 'totp', code }),
  });
  expect(second.status, second.body.toString()).toBe(200);
  keep(second);
  const list = await httpRequest(`${origin}${adminApiPaths.subscribers}`, { headers: headers() });
  expect(list.status, list.body.toString()).toBe(200);
  // The list shows addresses masked (decision 0029): the restored person is there all the same.
  return (JSON.parse(list.body.toString()) as { items: { maskedEmail: string }[] }).items.map((i) => i.maskedEmail);
}

async function servesSubscriber(restoredUrl: string, link: string, signIn = false): Promise<void> {
  const site = await startBuiltServer({ DATABASE_URL: restoredUrl });
  try {
    const page = await httpGet(`${site.origin}${link}`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('Unsubscribe from our emails?');
    if (signIn) expect(await signInAndList(site.origin)).toEqual(['k•••@example.com']);
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
    await servesSubscriber(`sqlite:${restored}`, link, true);
  });

  it(
    `sqlite: npm run db:backup -- --encrypt-to (age), then npm run db:restore -- --identity; an operator signs in on the restored site`,
    { timeout: 120_000 },
    async () => {
      const liveFile = path.join(dir, 'live-age.sqlite');
      const link = await seed(`sqlite:${liveFile}`);
      const identity = await generateIdentity();
      const identityFile = path.join(dir, 'backup-identity.txt');
      writeFileSync(identityFile, `# created for the test\n${identity}\n`, { mode: 0o600 });
      const recipient = await identityToRecipient(identity);
      const backupFile = path.join(dir, 'dh-backup.sqlite.age');
      const node = (script: string, env: NodeJS.ProcessEnv, args: string[]) =>
        run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', script), ...args], {
          cwd: repoRoot,
          env: { ...process.env, ...env },
        });
      await whileLive(`sqlite:${liveFile}`, () =>
        node('db-backup.ts', { DATABASE_URL: `sqlite:${liveFile}` }, [backupFile, '--encrypt-to', recipient]),
      );
      expect(statSync(backupFile).mode & 0o777).toBe(0o600);
      const bytes = readFileSync(backupFile);
      expect(bytes.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
      expect(bytes.includes(Buffer.from('SQLite format 3'))).toBe(false);
      expect(bytes.includes(Buffer.from('kept@example.com'))).toBe(false);

      const restoredFile = path.join(dir, 'restored-age', 'dh.sqlite');
      const restoreEnv = {
        DATABASE_URL: `sqlite:${restoredFile}`,
        ERASURE_LEDGER: path.join(dir, 'restored-age', 'erasure-ledger'),
      };
      const noIdentity = await node('db-restore.ts', restoreEnv, [backupFile]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(noIdentity.stderr).toMatch(
        /encrypted with age: give the identity \(secret key\) file with --identity <file>/,
      );
      const otherIdentity = path.join(dir, 'other-identity.txt');
      writeFileSync(otherIdentity, `${await generateIdentity()}\n`, { mode: 0o600 });
      const wrong = await node('db-restore.ts', restoreEnv, [backupFile, '--identity', otherIdentity]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(wrong.stderr).toMatch(/could not be decrypted with the identity in .*encrypted to another recipient/);
      const { stdout } = await node('db-restore.ts', restoreEnv, [backupFile, '--identity', identityFile]);
      expect(stdout).toMatch(/Restored .* to .*restored-age\/dh\.sqlite\./);
      expect(stdout).toMatch(/0 erasure\(s\) on record/);
      expect(statSync(restoredFile).mode & 0o777).toBe(0o600);
      await servesSubscriber(`sqlite:${restoredFile}`, link, true);
    },
  );

  it.skipIf(!testPostgresUrl)(
    `${postgresLabel}: pg_dump while live, pg_restore into a new database`,
    { timeout: 120_000 },
    async () => {
      const source = await createScratchDatabase(testPostgresUrl ?? '');
      scratch.push(source);
      const link = await seed(source.url);
      const dump = path.join(dir, 'dh.dump');
      await whileLive(source.url, () => run('pg_dump', ['--format=custom', `--file=${dump}`, source.url]));
      const fresh = await createScratchDatabase(testPostgresUrl ?? '');
      scratch.push(fresh);
      await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', `--dbname=${fresh.url}`, dump]);
      await servesSubscriber(fresh.url, link, true);
    },
  );
});
