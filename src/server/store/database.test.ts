import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, type PathLike } from 'node:fs';
import type * as Fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { openStore, parseDatabaseUrl } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { testSecrets } from '../test/test-store.ts';

// Another process's rollback journal lives only for its transaction: it can be seen and then be
// gone before this process gets to it. Any existence check saying "there" for a journal that is
// not stands in for that moment (two instances starting on one file at once crashed on it in CI).
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  return { ...fs, existsSync: (p: PathLike) => String(p).endsWith('-journal') || fs.existsSync(p) };
});

describe('parseDatabaseUrl', () => {
  it('defaults to the embedded SQLite file', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ dialect: 'sqlite', target: 'data/dh.sqlite' });
    expect(parseDatabaseUrl('')).toEqual({ dialect: 'sqlite', target: 'data/dh.sqlite' });
  });
  it('reads sqlite:<path>, relative or absolute', () => {
    expect(parseDatabaseUrl('sqlite:var/list.sqlite')).toEqual({ dialect: 'sqlite', target: 'var/list.sqlite' });
    expect(parseDatabaseUrl('sqlite:///srv/dh.sqlite')).toEqual({ dialect: 'sqlite', target: '/srv/dh.sqlite' });
  });
  it('reads postgres:// and postgresql:// URLs', () => {
    expect(parseDatabaseUrl('postgres://u:p@db:5432/dh').dialect).toBe('postgres');
    expect(parseDatabaseUrl('postgresql://db/dh').dialect).toBe('postgres');
  });
  it('refuses anything else in words', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow('needs a file path');
    expect(() => parseDatabaseUrl('mysql://db')).toThrow('must start with sqlite: or postgres://');
  });
});

describe('the SQLite file is readable by its owner only', () => {
  const mode = (p: string) => statSync(p).mode & 0o777;

  it('creates the folder 0700 and the database, WAL and shared-memory files 0600', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'dh-perm-'));
    try {
      const file = path.join(root, 'data', 'dh.sqlite');
      const store = await openStore(`sqlite:${file}`);
      await migrateToLatest(store.db, { secrets: testSecrets() });
      expect(mode(path.dirname(file))).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
      await store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("opens while another process's journal has just been deleted, and tightens the side files that are there", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'dh-perm-'));
    try {
      const file = path.join(root, 'dh.sqlite');
      writeFileSync(file, '');
      writeFileSync(`${file}-wal`, '');
      chmodSync(`${file}-wal`, 0o644);
      const store = await openStore(`sqlite:${file}`);
      expect(mode(`${file}-wal`)).toBe(0o600);
      await store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tightens a database file an older version left world-readable', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'dh-perm-'));
    try {
      const file = path.join(root, 'dh.sqlite');
      writeFileSync(file, '');
      chmodSync(file, 0o644);
      const store = await openStore(`sqlite:${file}`);
      expect(mode(file)).toBe(0o600);
      await store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('SQLite transactions take the write lock when they begin', () => {
  it('so another process cannot commit between our read and our write (no SQLITE_BUSY_SNAPSHOT)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-begin-'));
    const file = path.join(dir, 'dh.sqlite');
    const store = await openStore(`sqlite:${file}`);
    // Another process's connection, which gives up at once instead of waiting.
    const other = new SqliteDatabase(file);
    other.pragma('busy_timeout = 0');
    try {
      await migrateToLatest(store.db, { secrets: testSecrets() });
      await store.db.transaction().execute(async (trx) => {
        await trx.selectFrom('settings').selectAll().execute();
        // Deferred, this write would succeed and our insert below would then fail.
        expect(() => other.prepare("insert into settings (key, value) values ('other', 'x')").run()).toThrow(
          /locked|busy/i,
        );
        await trx.insertInto('settings').values({ key: 'ours', value: 'y' }).execute();
      });
      expect(other.prepare("select key from settings where key in ('ours', 'other')").all()).toEqual([{ key: 'ours' }]);
    } finally {
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an error after which SQLite ended the transaction itself', () => {
  it('reaches the caller as it is, not as a failed ROLLBACK', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'dh-rollback-'));
    try {
      const store = await openStore(`sqlite:${path.join(root, 'dh.sqlite')}`);
      // What SQLite does on SQLITE_FULL or an I/O error: the transaction is gone when the error
      // reaches Kysely, whose ROLLBACK would then fail with "no transaction is active".
      const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      await expect(
        store.db.transaction().execute(async (trx) => {
          await sql`rollback`.execute(trx);
          throw full;
        }),
      ).rejects.toBe(full);
      // …and the connection is fine afterwards.
      await expect(
        store.db.transaction().execute(async (trx) => (await sql<{ one: number }>`select 1 as one`.execute(trx)).rows),
      ).resolves.toEqual([{ one: 1 }]);
      await store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
