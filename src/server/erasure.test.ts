import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiPaths, subscriberApiPath } from '../shared/paths.ts';
import { repoRoot } from './test/processes.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../bench/lib/postgres.ts';
import { ConsoleClient, makeOperator, type TestOperator } from './test/admin-kit.ts';
import { openStore } from './store/database.ts';
import { insertSubscriber } from './test/fixtures.ts';
import { buildTestApp, memoryMailer, type TestApp } from './test/built-app.ts';
import { inviteCodeIn, joinFrom, referralTestEnv } from './test/referral-kit.ts';
import {
  dialectCases,
  openTestStore,
  serverDatabaseUrl,
  tablesOf,
  testPostgresUrl,
  testSecrets,
  type TestStore,
} from './test/test-store.ts';
import { migrateToLatest } from './store/migrate.ts';
import { postSignupJson, visitPage } from './test/visitor.ts';

// An erased person is gone from everything the app keeps: the database file and its WAL (SQLite
// zeroes deleted pages and the WAL is emptied), a backup taken afterwards, the outbox's .eml files;
// and a restore of a backup taken before the erasure erases them again from the ledger
// (docs/decisions/0031-data-key-and-erasure-ledger.md).
const run = promisify(execFile);
// Stored as typed with the domain lower-cased; the list's key is all lower-case: both are searched.
const ERASED = 'Erin.Gone@example.com';
const KEPT = 'kept.here@example.org';
const forms = [ERASED, ERASED.toLowerCase()];

const script = (name: string, env: NodeJS.ProcessEnv, args: string[] = []) =>
  run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', name), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });

function* files(d: string): Generator<string> {
  if (!existsSync(d)) return;
  for (const name of readdirSync(d)) {
    const full = path.join(d, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

const holds = (file: string, text: string) => readFileSync(file).includes(Buffer.from(text));

describe.each(dialectCases)('erasure ($label)', ({ dialect, skip }) => {
  let dir: string;
  let outbox: string;
  let ledger: string;
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let oldBackup: string;
  let reply: { statusCode: number; message: string };

  beforeAll(async () => {
    if (skip) return;
    dir = mkdtempSync(path.join(os.tmpdir(), 'dh-erasure-'));
    outbox = path.join(dir, 'outbox');
    ledger = path.join(dir, 'erasure-ledger');
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, mailer: 'from-env', env: { OUTBOX_DIR: outbox, ERASURE_LEDGER: ledger } });
    let visitor = await visitPage(t.app);
    for (const email of [ERASED, KEPT]) {
      t.clock.advance(60_000);
      const res = await postSignupJson(t.app, visitor, { name: 'Erin', email });
      expect(res.statusCode, res.body).toBe(200);
      visitor = await visitPage(t.app, visitor);
    }
    await t.app.jobs.runOnce('outbox');
    // Before the erasure: the confirmation emails are in the outbox, and a backup holds both people.
    expect([...files(outbox)].filter((f) => holds(f, ERASED))).toHaveLength(1);
    oldBackup = path.join(dir, 'before-erasure.sqlite');
    if (dialect === 'sqlite') await script('db-backup.ts', { DATABASE_URL: store.url }, [oldBackup]);

    op = await makeOperator(store.db, `eraser-${dialect}@example.com`, t.clock());
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const id = (
      await store.db
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', ERASED.toLowerCase())
        .executeTakeFirstOrThrow()
    ).id;
    const res = await c.post(subscriberApiPath(adminApiPaths.subscriberErase, id), { confirmEmail: ERASED });
    reply = { statusCode: res.statusCode, message: String(res.json().message ?? res.body) };
  });

  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(skip)('the answer says what was erased and, in words, what lies outside the app’s reach', () => {
    expect(reply.statusCode, reply.message).toBe(200);
    expect(reply.message).toMatch(/1 email file\(s\) written to them from the outbox folder/);
    expect(reply.message).toMatch(/mail provider logged/);
    expect(reply.message).toMatch(/backups taken before now, until those expire/);
    expect(reply.message).toMatch(/Restoring any backup with npm run db:restore erases them again/);
  });

  it.skipIf(skip)(
    'the outbox keeps no email to them (the other person’s stays); the ledger is owner-only and holds no address',
    () => {
      const left = [...files(outbox)];
      for (const f of left) for (const form of forms) expect(holds(f, form), `${form} in ${f}`).toBe(false);
      expect(left.filter((f) => holds(f, KEPT))).toHaveLength(1);
      expect(statSync(ledger).mode & 0o777).toBe(0o600);
      const text = readFileSync(ledger, 'utf8');
      expect(text).toMatch(/^v1 [0-9a-f]{16} [A-Za-z0-9_-]{43} \S+\n$/);
      for (const form of [...forms, 'erin', 'example.com'])
        expect(text.toLowerCase()).not.toContain(form.toLowerCase());
    },
  );

  it.skipIf(skip)('no table holds them (read with raw queries)', async () => {
    const tables = await tablesOf(store);
    expect(tables).toContain('erasure_ledger');
    for (const table of tables) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
      const text = JSON.stringify(rows).toLowerCase();
      expect(text, `erased person in ${table}`).not.toContain(ERASED.toLowerCase());
    }
  });

  it.skipIf(skip || dialect !== 'sqlite')(
    'neither the SQLite file, its WAL nor a backup taken now holds a byte of their address',
    async () => {
      const file = store.url.slice('sqlite:'.length);
      const dataFiles = [file, `${file}-wal`].filter((f) => existsSync(f));
      expect(dataFiles.length).toBeGreaterThan(0);
      // The scan finds what is there: the person kept is in the file or its WAL.
      expect(dataFiles.some((f) => holds(f, KEPT))).toBe(true);
      const fresh = path.join(dir, 'after-erasure.sqlite');
      await script('db-backup.ts', { DATABASE_URL: store.url }, [fresh]);
      expect(holds(fresh, KEPT)).toBe(true);
      for (const f of [...dataFiles, fresh])
        for (const form of forms) expect(holds(f, form), `${form} in ${f}`).toBe(false);
    },
  );

  it.skipIf(skip || dialect !== 'sqlite')(
    'npm run db:restore of a backup from before the erasure erases them again; it refuses a live database without --force',
    async () => {
      expect(holds(oldBackup, ERASED)).toBe(true);
      await t.close();
      const env = { DATABASE_URL: store.url, ERASURE_LEDGER: ledger };
      const refused = await script('db-restore.ts', env, [oldBackup]).catch((e: { code: number; stderr: string }) => e);
      expect('code' in refused && refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /There is a database at .* already\. Stop every server using it, then run again with --force.*Nothing was changed/,
      );
      const { stdout } = await script('db-restore.ts', env, [oldBackup, '--force']);
      expect(stdout).toMatch(/1 erasure\(s\) on record; 1 person\(s\) in this database erased again/);
      const file = store.url.slice('sqlite:'.length);
      const restored = await openStore(store.url);
      try {
        const emails = (await restored.db.selectFrom('subscribers').select('email').execute()).map((r) => r.email);
        expect(emails).toEqual([KEPT]);
        // The ledger survives in the restored database too, for the next backup.
        expect(await restored.db.selectFrom('erasure_ledger').selectAll().execute()).toHaveLength(1);
      } finally {
        await restored.close();
      }
      for (const f of [file, `${file}-wal`].filter((x) => existsSync(x)))
        for (const form of forms) expect(holds(f, form), `${form} in ${f}`).toBe(false);
      // The database it replaced was moved aside, not deleted.
      expect(readdirSync(path.dirname(file)).some((n) => n.includes('.before-restore-'))).toBe(true);
      t = await buildTestApp({ store, mailer: 'from-env', env: { OUTBOX_DIR: outbox, ERASURE_LEDGER: ledger } });
    },
  );

  it.skipIf(skip || dialect !== 'postgres')(
    'a restored older dump, then npm run db:restore -- --ledger-only: they are erased again, from the file alone',
    async () => {
      // What pg_restore of a dump from before the erasure brings back: the person, and a ledger table without them.
      await insertSubscriber(store.db, ERASED, { now: new Date('2026-11-21T11:00:00.000Z') });
      await store.db.deleteFrom('erasure_ledger').execute();
      // Someone who signs up again after their erasure chose to come back, and stays.
      const { stdout } = await script(
        'db-restore.ts',
        { DATABASE_URL: serverDatabaseUrl(store), ERASURE_LEDGER: ledger },
        ['--ledger-only'],
      );
      expect(stdout).toMatch(/1 erasure\(s\) on record; 1 person\(s\) in this database erased again/);
      const emails = (await store.db.selectFrom('subscribers').select('email').execute()).map((r) => r.email);
      expect(emails).toEqual([KEPT]);
      expect(await store.db.selectFrom('erasure_ledger').selectAll().execute()).toHaveLength(1);
    },
  );

  it.skipIf(skip)('a person who signs up again after the erasure is not erased by the ledger', async () => {
    const visitor = await visitPage(t.app);
    t.clock.advance(60_000);
    expect((await postSignupJson(t.app, visitor, { name: 'Erin', email: ERASED })).statusCode).toBe(200);
    const env = { DATABASE_URL: serverDatabaseUrl(store), ERASURE_LEDGER: ledger };
    const { stdout } = await script('db-restore.ts', env, ['--ledger-only']);
    expect(stdout).toMatch(/0 person\(s\) in this database erased again/);
    expect(
      await store.db.selectFrom('subscribers').select('email').where('email_key', '=', ERASED.toLowerCase()).execute(),
    ).toHaveLength(1);
  });
});

describe.skipIf(!testPostgresUrl)(
  'erasure on PostgreSQL: pg_dump, erase, pg_restore of the older dump, npm run db:restore -- --ledger-only',
  () => {
    const scratch: ScratchDatabase[] = [];
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-erasure-pg-'));
    afterAll(async () => {
      for (const db of scratch) await db.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      'the person erased after the dump is erased again from the restored database; the others are there',
      { timeout: 120_000 },
      async () => {
        const ledger = path.join(dir, 'erasure-ledger');
        const source = await createScratchDatabase(testPostgresUrl ?? '');
        scratch.push(source);
        const opened = await openStore(source.url);
        const store: TestStore = { ...opened, url: source.url, destroy: opened.close };
        try {
          await migrateToLatest(store.db, { secrets: testSecrets() });
          await insertSubscriber(store.db, KEPT, { status: 'confirmed', now: new Date('2026-11-21T10:00:00.000Z') });
          const erasedId = await insertSubscriber(store.db, ERASED, {
            status: 'confirmed',
            now: new Date('2026-11-21T10:00:00.000Z'),
          });
          const dump = path.join(dir, 'before-erasure.dump');
          await run('pg_dump', ['--format=custom', `--file=${dump}`, source.url]);

          const t = await buildTestApp({ store, env: { ERASURE_LEDGER: ledger } });
          try {
            const op = await makeOperator(store.db, 'pg-eraser@example.com', t.clock());
            const c = new ConsoleClient(t.app);
            await c.signIn(op, t.clock());
            const res = await c.post(subscriberApiPath(adminApiPaths.subscriberErase, erasedId), {
              confirmEmail: ERASED,
            });
            expect(res.statusCode, res.body).toBe(200);
          } finally {
            await t.close();
          }
          // As the guide says: --ledger-only before the restore (gathers the live ledger into the file)…
          await script('db-restore.ts', { DATABASE_URL: source.url, ERASURE_LEDGER: ledger }, ['--ledger-only']);

          const fresh = await createScratchDatabase(testPostgresUrl ?? '');
          scratch.push(fresh);
          await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', `--dbname=${fresh.url}`, dump]);
          const restored = await openStore(fresh.url);
          try {
            expect(
              (await restored.db.selectFrom('subscribers').select('email').orderBy('email').execute()).map(
                (r) => r.email,
              ),
            ).toEqual([ERASED, KEPT]);
            // …and after it.
            const { stdout } = await script('db-restore.ts', { DATABASE_URL: fresh.url, ERASURE_LEDGER: ledger }, [
              '--ledger-only',
            ]);
            expect(stdout).toMatch(/1 erasure\(s\) on record; 1 person\(s\) in this database erased again/);
            expect((await restored.db.selectFrom('subscribers').select('email').execute()).map((r) => r.email)).toEqual(
              [KEPT],
            );
            const { rows } = await sql<Record<string, unknown>>`select * from subscribers`.execute(restored.db);
            expect(JSON.stringify(rows).toLowerCase()).not.toContain(ERASED.toLowerCase());
          } finally {
            await restored.close();
          }
        } finally {
          await opened.close();
        }
      },
    );
  },
);

// Invite links (docs/decisions/0060-referral-invites.md): erasing a referrer (A) and a person they
// invited (B) takes their codes and every attribution to or from them (the foreign keys cascade),
// and leaves no byte of their codes or addresses in the SQLite file or its WAL.
describe.each(dialectCases)('erasure of a referrer and of a person they invited ($label)', ({ dialect, skip }) => {
  const REFERRER = 'Ann.Referrer@example.com';
  const INVITED = 'Ben.Invited@example.net';
  const STAYS = 'kim.stays@example.org';
  let store: TestStore;
  let t: TestApp;
  const codes = new Map<string, string>();

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    const mailer = memoryMailer();
    t = await buildTestApp({ store, mailer, env: referralTestEnv });
    codes.set(REFERRER, inviteCodeIn((await joinFrom(t, mailer, { email: REFERRER, ip: '203.0.113.1' })).body));
    const invite = codes.get(REFERRER) ?? '';
    codes.set(INVITED, inviteCodeIn((await joinFrom(t, mailer, { email: INVITED, ip: '203.0.113.2', invite })).body));
    codes.set(STAYS, inviteCodeIn((await joinFrom(t, mailer, { email: STAYS, ip: '203.0.113.3', invite })).body));
    expect(await store.db.selectFrom('referral_attributions').select('status').execute()).toEqual([
      { status: 'counted' },
      { status: 'counted' },
    ]);
    const op = await makeOperator(store.db, `referral-eraser-${dialect}@example.com`, t.clock());
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    for (const email of [REFERRER, INVITED]) {
      const { id } = await store.db
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', email.toLowerCase())
        .executeTakeFirstOrThrow();
      const res = await c.post(subscriberApiPath(adminApiPaths.subscriberErase, id), { confirmEmail: email });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });

  it.skipIf(skip)(
    'removes their codes and every attribution to or from them; the one who stays keeps theirs',
    async () => {
      const left = await store.db.selectFrom('referral_codes').select('code').execute();
      expect(left.map((r) => r.code)).toEqual([codes.get(STAYS)]);
      // Kim came through Ann's link: with Ann erased, that attribution is gone too.
      expect(await store.db.selectFrom('referral_attributions').selectAll().execute()).toEqual([]);
    },
  );

  it.skipIf(skip || dialect !== 'sqlite')(
    'neither the SQLite file nor its WAL holds a byte of their codes or addresses',
    () => {
      const file = store.url.slice('sqlite:'.length);
      const dataFiles = [file, `${file}-wal`].filter((f) => existsSync(f));
      // The scan finds what is there: the person kept, and her code.
      expect(dataFiles.some((f) => holds(f, STAYS))).toBe(true);
      expect(dataFiles.some((f) => holds(f, codes.get(STAYS) ?? ''))).toBe(true);
      for (const email of [REFERRER, INVITED])
        for (const text of [email, email.toLowerCase(), codes.get(email) ?? ''])
          for (const f of dataFiles) expect(holds(f, text), `${text} in ${f}`).toBe(false);
    },
  );
});
