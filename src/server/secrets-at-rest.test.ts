import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiPaths } from '../shared/paths.ts';
import { repoRoot } from './test/processes.ts';
import { ConsoleClient, makeOperator, PASSWORD, type TestOperator } from './test/admin-kit.ts';
import { hashPassword } from './features/operators/passwords.ts';
import { newTotpSecret } from './features/operators/totp.ts';
import { loadEnv } from './env.ts';
import { secretBoxFromEnv } from './store/data-keys.ts';
import { migrateToLatest } from './store/migrate.ts';
import { signupsMigration } from './store/migrations/0001-signups.ts';
import { analyticsMigration } from './store/migrations/0002-analytics.ts';
import { linkKeysMigration } from './store/migrations/0003-link-keys.ts';
import { operatorsMigration } from './store/migrations/0004-operators.ts';
import { consoleQueriesMigration } from './store/migrations/0005-console-queries.ts';
import { broadcastsMigration } from './store/migrations/0006-broadcasts.ts';
import { outboxClaimIndexMigration } from './store/migrations/0007-outbox-claim-index.ts';
import { dataKey, linkKeyContext, SecretBox, totpSecretContext } from './store/secret-box.ts';
import { buildTestApp, type TestApp } from './test/built-app.ts';
import {
  dialectCases,
  openTestStore,
  serverDatabaseUrl,
  tablesOf,
  testSecrets,
  type TestStore,
} from './test/test-store.ts';

// Authenticator secrets and link keys are stored encrypted under a data key that is not in the
// database (docs/decisions/0031-data-key-and-erasure-ledger.md): the database file, its WAL and a
// fresh backup hold none of them in any spelling, sign-in still works, also after a rotation, and
// a row sealed under a key the server lacks is said in words.
const run = promisify(execFile);
const b64 = () => randomBytes(32).toString('base64');

/** RFC 4648 base32 (what authenticator secrets are written in) to bytes. */
function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
}

/** Every spelling a secret could be stored in: as written, and its bytes (and the text's) in hex, base64, base64url. */
function spellings(text: string, bytes: Buffer): string[] {
  const asText = Buffer.from(text);
  return [
    text,
    text.toLowerCase(),
    ...[bytes, asText].flatMap((b) => [
      b.toString('hex'),
      b.toString('base64').replace(/=+$/, ''),
      b.toString('base64url'),
    ]),
  ].filter((s) => s.length >= 16);
}

const script = (name: string, env: NodeJS.ProcessEnv, args: string[] = []) =>
  run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', name), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });

describe.each(dialectCases)('secrets at rest ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let dir: string;
  const plain: { what: string; forms: string[] }[] = [];

  beforeAll(async () => {
    if (skip) return;
    dir = mkdtempSync(path.join(os.tmpdir(), 'dh-at-rest-'));
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
    op = await makeOperator(store.db, `at-rest-${dialect}@example.com`, t.clock());
    plain.push({ what: 'the TOTP secret', forms: spellings(op.secret, base32Bytes(op.secret)) });
    for (const row of await store.db.selectFrom('link_keys').selectAll().execute()) {
      const key = testSecrets().open(row.secret, linkKeyContext(row.id));
      plain.push({ what: `link key ${row.id}`, forms: spellings(key, Buffer.from(key, 'base64url')) });
    }
  });

  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function expectNoSecretIn(bytes: Buffer, where: string): void {
    for (const { what, forms } of plain)
      for (const form of forms)
        expect(bytes.includes(Buffer.from(form)), `${what} (${form.slice(0, 6)}…) in ${where}`).toBe(false);
  }

  it.skipIf(skip)('the stored rows hold ciphertext only: read back with a raw query', async () => {
    expect(plain.length).toBeGreaterThanOrEqual(2);
    const { rows } = await sql<
      Record<string, unknown>
    >`select o.totp_secret, k.secret from operators o, link_keys k`.execute(store.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(String(row.totp_secret)).toMatch(/^v1:[0-9a-f]{16}:/);
      expect(String(row.secret)).toMatch(/^v1:[0-9a-f]{16}:/);
    }
    // Every table, whatever is added later.
    for (const table of await tablesOf(store)) {
      const all = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
      expectNoSecretIn(Buffer.from(JSON.stringify(all.rows)), `table ${table}`);
    }
  });

  it.skipIf(skip || dialect !== 'sqlite')(
    'the SQLite file, its WAL and a fresh backup hold no secret in any spelling',
    async () => {
      const file = store.url.slice('sqlite:'.length);
      expect(existsSync(`${file}-wal`)).toBe(true);
      for (const f of [file, `${file}-wal`]) expectNoSecretIn(readFileSync(f), f);
      const backup = path.join(dir, 'backup.sqlite');
      await script('db-backup.ts', { DATABASE_URL: store.url }, [backup]);
      expectNoSecretIn(readFileSync(backup), 'the backup');
    },
  );

  it.skipIf(skip)(
    'sign-in (password and code) works, and still does after npm run keys:rotate with the old key dropped',
    async () => {
      await new ConsoleClient(t.app).signIn(op, t.clock());
      const newKey = b64();
      const { stdout } = await script('keys-rotate.ts', {
        DATABASE_URL: serverDatabaseUrl(store),
        DATA_KEY: newKey,
        DATA_KEY_PREVIOUS: process.env.DATA_KEY ?? '',
      });
      expect(stdout).toMatch(/re-encrypted under data key [0-9a-f]{16}/);
      const rotated = secretBoxFromEnv(loadEnv({ DATA_KEY: newKey }));
      const row = await store.db
        .selectFrom('operators')
        .select('totp_secret')
        .where('email_key', '=', op.email)
        .executeTakeFirstOrThrow();
      expect(row.totp_secret.startsWith(`v1:${rotated.current.id}:`)).toBe(true);
      // Only the new key: every secret opens, and the operator signs in.
      const after = await buildTestApp({ store, clock: t.clock, env: { DATA_KEY: newKey } });
      try {
        t.clock.advance(31_000);
        await new ConsoleClient(after.app).signIn(op, t.clock());
      } finally {
        await after.close();
      }
      // Put back under the test's key for the tests after this one.
      const back = await script('keys-rotate.ts', {
        DATABASE_URL: serverDatabaseUrl(store),
        DATA_KEY_PREVIOUS: newKey,
      });
      expect(back.stdout).toMatch(/re-encrypted/);
    },
  );

  it.skipIf(skip)(
    'a secret under a key the server lacks is said in words: at sign-in, at start, and by keys:rotate',
    async () => {
      const stranger = new SecretBox(dataKey(randomBytes(32)));
      const who = await makeOperator(store.db, `stranger-${dialect}@example.com`, t.clock());
      const id = (
        await store.db.selectFrom('operators').select('id').where('email_key', '=', who.email).executeTakeFirstOrThrow()
      ).id;
      await store.db
        .updateTable('operators')
        .set({ totp_secret: stranger.seal(who.secret, totpSecretContext(id)) })
        .where('id', '=', id)
        .execute();
      const c = new ConsoleClient(t.app);
      expect((await c.password(who.email)).statusCode).toBe(200);
      const res = await c.code('123456');
      expect(res.statusCode).toBe(500);
      expect(res.json().error.message).toMatch(
        /authenticator secret cannot be read on this server.*server log says which key/,
      );
      const rotate = await script('keys-rotate.ts', { DATABASE_URL: serverDatabaseUrl(store) }).catch(
        (e: { stderr: string; code: number }) => e,
      );
      expect('code' in rotate && rotate.code).toBe(1);
      expect(rotate.stderr).toMatch(
        new RegExp(
          `Nothing was re-encrypted.*\\n.*operators\\.totp_secret:${id} is encrypted under data key ${stranger.current.id}, which is not configured`,
        ),
      );
      await store.db.deleteFrom('operators').where('id', '=', id).execute();
      // The link keys are needed to serve at all: a server without their key does not start, and says why.
      await expect(buildTestApp({ store, env: { DATA_KEY: b64() } })).rejects.toThrow(
        /link_keys\.secret:k1 is encrypted under data key [0-9a-f]{16}, which is not configured/,
      );
    },
  );
});

describe.each(dialectCases)('migration 0009 on a database made before it ($label)', ({ dialect, skip }) => {
  it.skipIf(skip)(
    'encrypts the plaintext TOTP secrets and link keys already stored, and the operator still signs in',
    async () => {
      const store = await openTestStore(dialect, { migrate: false });
      try {
        const before = new Migrator({
          db: store.db,
          provider: {
            getMigrations: async () => ({
              '0001-signups': signupsMigration,
              '0002-analytics': analyticsMigration,
              '0003-link-keys': linkKeysMigration,
              '0004-operators': operatorsMigration,
              '0005-console-queries': consoleQueriesMigration,
              '0006-broadcasts': broadcastsMigration,
              '0007-outbox-claim-index': outboxClaimIndexMigration,
            }),
          },
          ...(store.pgSchema ? { migrationTableSchema: store.pgSchema } : {}),
        });
        expect((await before.migrateToLatest()).error).toBeUndefined();
        // As the code before this change stored an operator: the secret as it is.
        const secret = newTotpSecret();
        const at = new Date().toISOString();
        await store.db
          .insertInto('operators')
          .values({
            id: 'op-old',
            email: 'old@example.com',
            email_key: 'old@example.com',
            password_hash: await hashPassword(PASSWORD),
            totp_secret: secret,
            totp_last_step: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        const oldKey = (
          await store.db.selectFrom('link_keys').select('secret').where('id', '=', 'k1').executeTakeFirstOrThrow()
        ).secret;

        expect(
          await migrateToLatest(store.db, {
            ...(store.pgSchema ? { pgSchema: store.pgSchema } : {}),
            secrets: testSecrets(),
          }),
        ).toEqual(expect.arrayContaining(['0009-secrets-at-rest', '0010-erasure-ledger']));
        const rows = await store.db.selectFrom('operators').select('totp_secret').execute();
        const keys = await store.db.selectFrom('link_keys').select(['id', 'secret']).execute();
        expect(rows.every((r) => SecretBox.isSealed(r.totp_secret))).toBe(true);
        expect(keys.every((k) => SecretBox.isSealed(k.secret))).toBe(true);
        expect(testSecrets().open(keys.find((k) => k.id === 'k1')?.secret ?? '', linkKeyContext('k1'))).toBe(oldKey);

        const t = await buildTestApp({ store });
        try {
          const c = new ConsoleClient(t.app);
          await c.signIn({ email: 'old@example.com', secret, recoveryCodes: [] }, t.clock());
          expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
        } finally {
          await t.close();
        }
      } finally {
        await store.destroy();
      }
    },
  );
});
