import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/server/store/database.ts';
import { verifyPassword } from '../src/server/features/operators/passwords.ts';
import { recoveryCodeHash } from '../src/server/features/operators/recovery-codes.ts';
import { openTestStore, serverDatabaseUrl, testPostgresUrl } from '../src/server/test/test-store.ts';

// `npm run operator` as a person runs it: a real process, the password piped on standard input.
const root = path.resolve(import.meta.dirname, '..');
let dir: string;
let url: string;

function operator(args: string[], stdin = '', databaseUrl = url): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/operator.ts'), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(stdin);
  });
}

async function withStore<T>(fn: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore(url);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-operator-'));
  url = `sqlite:${path.join(dir, 'dh.sqlite')}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run operator', { timeout: 120_000 }, () => {
  it('refuses to create a store without --create: names it, creates no file, changes nothing', async () => {
    const r = await operator(['add', 'first@example.com'], 'a long enough passphrase\n');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^There is no database at sqlite:.*dh\.sqlite .*Check DATABASE_URL\. Nothing was created; to start a new store there, run again with --create\.\n$/,
    );
    expect(existsSync(path.join(dir, 'dh.sqlite'))).toBe(false);
    // A file that exists but is not the app's (an empty one) is refused too.
    const stray = path.join(dir, 'stray.sqlite');
    writeFileSync(stray, '');
    const empty = await operator(['list'], '', `sqlite:${stray}`);
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/^The file at sqlite:.*stray\.sqlite .* is empty, not a database\..*--create/);
    expect(readFileSync(stray).length).toBe(0);
  });

  it('adds the first operator with --create, as an owner: the store named first, a warning before secrets go to a pipe, argon2id hash, an otpauth URI and ten recovery codes stored hashed', async () => {
    // Asked for less, the first operator is an owner all the same: someone must be able to do everything.
    const r = await operator(
      ['add', 'First@Example.com', '--create', '--role', 'viewer'],
      'a long enough passphrase\nignored second line\n',
    );
    expect(
      r.err.startsWith(`Store: sqlite:${path.join(dir, 'dh.sqlite')}\nWarning: standard output is not a terminal.`),
      r.err,
    ).toBe(true);
    expect(r.code).toBe(0);
    const uri = /otpauth:\/\/totp\/\S+/.exec(r.out)?.[0] ?? '';
    expect(uri).toMatch(/secret=[A-Z2-7]{32}/);
    const codes = r.out.match(/^ {2}[a-z2-7]{5}-[a-z2-7]{5}$/gm)?.map((c) => c.trim()) ?? [];
    expect(codes).toHaveLength(10);
    await withStore(async (s) => {
      const row = await s.db.selectFrom('operators').selectAll().executeTakeFirstOrThrow();
      expect(row.email).toBe('First@example.com');
      expect(row.role).toBe('owner');
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      expect(await verifyPassword(row.password_hash, 'a long enough passphrase')).toBe(true);
      const stored = (await s.db.selectFrom('operator_recovery_codes').select('code_hash').execute()).map(
        (x) => x.code_hash,
      );
      expect(stored.sort()).toEqual(codes.map(recoveryCodeHash).sort());
      expect(JSON.stringify(stored)).not.toContain(codes[0]);
      const log = await s.db.selectFrom('audit_log').selectAll().execute();
      expect(log).toMatchObject([{ action: 'operator.added', via: 'command-line', subject: 'First@example.com' }]);
    });
  });

  it('refuses short, common and missing passwords, duplicates and bad addresses, in words, exit code 1', async () => {
    const cases: [string[], string, RegExp][] = [
      [['add', 'b@example.com', '--role', 'sender'], 'short\n', /at least 12 characters/],
      [['add', 'b@example.com', '--role', 'sender'], 'password1234\n', /common passwords/],
      [['add', 'b@example.com', '--role', 'sender'], '', /No password on standard input/],
      [['add', 'first@example.com'], 'a long enough passphrase\n', /exists already/],
      [['add', 'not-an-address'], 'a long enough passphrase\n', /not an email address/],
      [
        ['add', 'b@example.com', '--role', 'admin'],
        'a long enough passphrase\n',
        /A role is one of viewer, sender, owner/,
      ],
      [['role', 'first@example.com', 'root'], '', /A role is one of viewer, sender, owner/],
      [['remove', 'nobody@example.com'], '', /no operator with the address nobody@example.com/],
    ];
    const results = await Promise.all(cases.map(([args, stdin]) => operator(args, stdin)));
    cases.forEach(([args, , message], i) => {
      expect(results[i]?.code, args.join(' ')).toBe(1);
      expect(results[i]?.err).toMatch(message);
      expect(results[i]?.err).not.toMatch(/\n\s+at /); // no stack trace
    });
    const usage = await operator(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/Unknown command "frobnicate"[\s\S]*Usage: npm run operator/);
    const noRole = await operator(['add', 'b@example.com'], 'a long enough passphrase\n');
    expect(noRole.code).toBe(2);
    expect(noRole.err).toMatch(/Give the new operator a role: --role viewer\|sender\|owner/);
    await withStore(async (s) => expect(await s.db.selectFrom('operators').select('email').execute()).toHaveLength(1));
  });

  it('makes the first operator an owner, later ones what --role says, and changes a role (sessions end)', async () => {
    expect((await operator(['add', 'viewer@example.com', '--role', 'viewer'], 'a long enough passphrase\n')).code).toBe(
      0,
    );
    const changed = await operator(['role', 'viewer@example.com', 'sender']);
    expect(changed.code).toBe(0);
    expect(changed.out).toMatch(/viewer@example\.com is now sender \(was viewer\)/);
    await withStore(async (s) => {
      const roles = await s.db.selectFrom('operators').select(['email', 'role']).orderBy('email_key').execute();
      expect(roles).toEqual([
        { email: 'First@example.com', role: 'owner' },
        { email: 'viewer@example.com', role: 'sender' },
      ]);
      const last = await s.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'operator.role-changed')
        .executeTakeFirstOrThrow();
      expect(last).toMatchObject({ subject: 'viewer@example.com', via: 'command-line' });
      expect(last.detail).toMatch(/^viewer → sender, by /);
    });
    expect((await operator(['remove', 'viewer@example.com', '--yes'])).code).toBe(0);
  });

  it('asks for the address again before remove and reset-2fa, and does nothing on a mismatch', async () => {
    const secret = async () =>
      (await withStore((s) => s.db.selectFrom('operators').select('totp_secret').executeTakeFirstOrThrow()))
        .totp_secret;
    const before = await secret();
    for (const [args, stdin, message] of [
      [['remove', 'first@example.com'], '', /type the address again to confirm \(or pass --yes\)/],
      [['remove', 'first@example.com'], 'second@example.com\n', /does not match first@example\.com/],
      [['reset-2fa', 'first@example.com'], 'first@example.co\n', /does not match/],
    ] as const) {
      const r = await operator([...args], stdin);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toMatch(message);
      expect(r.out).not.toMatch(/otpauth/);
    }
    expect(await secret()).toBe(before);
    expect((await operator(['list'])).out).toMatch(/^First@example\.com\t/m);
  });

  it('lists, changes the password, resets 2FA and removes — each in the audit log', async () => {
    expect((await operator(['list'])).out).toMatch(
      /^First@example\.com\towner\tadded \d{4}-\d{2}-\d{2}\t0 active session\(s\)\t10 recovery code\(s\) left$/m,
    );
    expect((await operator(['passwd', 'first@example.com'], 'another long passphrase\n')).code).toBe(0);
    // A passkey the operator (or a thief with fresh proof) added: a reset removes it with the rest.
    await withStore(async (s) => {
      const op = await s.db.selectFrom('operators').select('id').executeTakeFirstOrThrow();
      await s.db
        .insertInto('operator_passkeys')
        .values({
          id: 'pk-1',
          operator_id: op.id,
          credential_id: 'cred-1',
          public_key: 'pk',
          counter: 0,
          transports: '[]',
          device_type: 'singleDevice',
          name: 'Laptop',
          created_at: new Date().toISOString(),
          last_used_at: null,
        })
        .execute();
    });
    const reset = await operator(['reset-2fa', 'FIRST@example.com'], 'first@EXAMPLE.com\n');
    expect(reset.code).toBe(0);
    expect(reset.out).toMatch(/otpauth:\/\/totp\//);
    expect(reset.err).toMatch(/Warning: standard output is not a terminal/);
    await withStore(async (s) => expect(await s.db.selectFrom('operator_passkeys').select('id').execute()).toEqual([]));
    expect((await operator(['remove', 'first@example.com', '--yes'])).code).toBe(0);
    expect((await operator(['list'])).out).toMatch(/No operators yet/);
    await withStore(async (s) => {
      const actions = (await s.db.selectFrom('audit_log').select('action').orderBy('seq').execute()).map(
        (r) => r.action,
      );
      expect(actions).toEqual([
        'operator.added',
        'operator.added',
        'operator.role-changed',
        'operator.removed',
        'operator.password-changed',
        'operator.2fa-reset',
        'operator.removed',
      ]);
    });
  });

  it.skipIf(!testPostgresUrl)(
    "refuses a PostgreSQL database or schema without the app's tables unless --create",
    async () => {
      const pg = await openTestStore('postgres', { migrate: false });
      try {
        const pgUrl = serverDatabaseUrl(pg);
        const refused = await operator(['list'], '', pgUrl);
        expect(refused.code).toBe(1);
        expect(refused.err).toMatch(/^Store: postgres:\/\/.*\n.*holds no Diamond Hand tables: nothing was changed/);
        // Nothing was made in the schema (Kysely's introspection would list every schema's tables).
        const made0 = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${pg.pgSchema ?? ''}`.execute(
          pg.db,
        );
        expect(made0.rows[0]?.n).toBe(0);
        const made = await operator(['add', 'pg@example.com', '--create'], 'a long enough passphrase\n', pgUrl);
        expect(made.code, made.err).toBe(0);
        expect((await operator(['list'], '', pgUrl)).out).toMatch(/^pg@example\.com\t/m);
      } finally {
        await pg.destroy();
      }
    },
  );
});
