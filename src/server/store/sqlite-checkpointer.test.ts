import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkpointAfterErasure, openStore } from './database.ts';
import { mountSmallDisk } from '../test/small-disk.ts';
import { BACKSTOP_PAGES, type CheckpointReport, committingOn, startSqliteCheckpointer } from './sqlite-checkpointer.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-checkpointer-'));
  file = path.join(dir, 'test.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const serving = (): SqliteDatabase.Database => {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table t (id integer primary key, body text not null)');
  return db;
};

const writeRows = (db: SqliteDatabase.Database, batches: number, perBatch = 100) => {
  const insert = db.prepare('insert into t (body) values (?)');
  const batch = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(`row ${'x'.repeat(200)} ${i}`);
  });
  for (let b = 0; b < batches; b++) batch(perBatch);
};

describe('SQLite checkpoints on a worker thread', () => {
  it('copies the WAL into the database file itself, while the serving connection only commits', async () => {
    const db = serving();
    const reports: CheckpointReport[] = [];
    const checkpointer = startSqliteCheckpointer(committingOn(db), file, {
      everyMs: 20,
      onReport: (r) => reports.push(r),
    });
    try {
      // The serving connection would not checkpoint before BACKSTOP_PAGES of WAL.
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
      const before = statSync(file).size;
      // About 200 pages: far under the backstop, so only the worker can have moved them.
      writeRows(db, 30);
      await vi.waitFor(
        () => {
          const done = reports.filter((r) => r.ok && r.log > 0 && r.checkpointed === r.log);
          expect(done.length).toBeGreaterThan(0);
          expect(statSync(file).size).toBeGreaterThan(before + 100 * 4096);
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(reports.filter((r) => !r.ok)).toEqual([]);
    } finally {
      await checkpointer.stop();
    }
    // Stopped: the serving connection checkpoints for itself again, at SQLite's default.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 3000 });
    db.close();
  });

  it('hands the checkpoints back to the serving connection when the worker cannot open the file', async () => {
    const db = serving();
    const reports: CheckpointReport[] = [];
    const checkpointer = startSqliteCheckpointer(committingOn(db), path.join(dir, 'missing.sqlite'), {
      everyMs: 20,
      onReport: (r) => reports.push(r),
    });
    await vi.waitFor(() => expect(reports.some((r) => !r.ok)).toBe(true), { timeout: 10_000, interval: 20 });
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });

  it('goes on through a full disk: the serving connection checkpoints meanwhile, the worker again once space is back', async (ctx) => {
    const disk = mountSmallDisk('dh-checkpoint-full-', '4m');
    try {
      if (disk.mounted !== true) return ctx.skip(`Skipped: ${disk.mounted}`);
      file = path.join(disk.dir, 'test.sqlite');
      const db = serving();
      const reports: CheckpointReport[] = [];
      const failures: string[] = [];
      let recoveries = 0;
      const checkpointer = startSqliteCheckpointer(committingOn(db), file, {
        everyMs: 20,
        onReport: (r) => reports.push(r),
        onFailure: (error) => failures.push(error),
        onRecovery: () => recoveries++,
      });
      try {
        // A WAL of some 150 pages, copied into the file: the WAL's space is now held for reuse.
        writeRows(db, 20);
        const copied = () => reports.some((r) => r.ok && r.log > 0 && r.checkpointed === r.log);
        await vi.waitFor(() => expect(copied()).toBe(true), { timeout: 10_000, interval: 20 });
        // No space left: new rows still fit in the WAL the file already holds, but copying them
        // into the database file would grow it, and fails.
        disk.fill(0);
        writeRows(db, 10);
        await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 10_000, interval: 20 });
        expect(failures[0]).toMatch(/full|space/i);
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
        // It keeps trying (reports come on every attempt in tests), and says it failed once.
        const failedSoFar = reports.filter((r) => !r.ok).length;
        await vi.waitFor(() => expect(reports.filter((r) => !r.ok).length).toBeGreaterThan(failedSoFar + 2), {
          timeout: 10_000,
          interval: 20,
        });
        expect(failures).toHaveLength(1);

        disk.empty();
        await vi.waitFor(() => expect(recoveries).toBe(1), { timeout: 10_000, interval: 20 });
        expect(reports.filter((r) => r.ok && r.recovered)).toHaveLength(1);
        expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
        const before = reports.length;
        writeRows(db, 10);
        await vi.waitFor(
          () => expect(reports.slice(before).some((r) => r.ok && r.log > 0 && r.checkpointed === r.log)).toBe(true),
          { timeout: 10_000, interval: 20 },
        );
      } finally {
        await checkpointer.stop();
      }
      expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 4000 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      disk.remove();
    }
  });

  it('a store opened with background checkpoints keeps every committed row across a close and a reopen', async () => {
    const store = await openStore(`sqlite:${file}`, { backgroundCheckpoints: true });
    await sql`create table t (id integer primary key)`.execute(store.db);
    for (let i = 0; i < 50; i++) {
      const ids = Array.from({ length: 20 }, (_, k) => sql`(${i * 20 + k})`);
      await sql`insert into t (id) values ${sql.join(ids)}`.execute(store.db);
    }
    await store.close();
    const reopened = new SqliteDatabase(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 1000 });
    reopened.close();
  });

  it('an erasure still empties the WAL while the worker checkpoints beside it', async () => {
    // The erased row's old pages must not stay in the WAL for a copy of the files to show. A
    // background checkpoint under way makes the erasure's TRUNCATE answer busy at once (SQLite's
    // checkpoint lock calls no busy handler), so the erasure asks again (decision 0052).
    const store = await openStore(`sqlite:${file}`, { backgroundCheckpoints: true });
    try {
      await sql`create table t (id integer primary key, body text not null)`.execute(store.db);
      // Over a second: several of the worker's 200 ms checkpoints fall among the erasures.
      const began = performance.now();
      for (let round = 0; round < 20 || performance.now() - began < 1000; round++) {
        const rows = Array.from({ length: 50 }, (_, k) => sql`(${round * 50 + k}, ${`secret-${round}-${k}`})`);
        await sql`insert into t (id, body) values ${sql.join(rows)}`.execute(store.db);
        await sql`delete from t where id = ${round * 50}`.execute(store.db);
        expect(await checkpointAfterErasure(store)).toBe(true);
        expect(statSync(`${file}-wal`).size).toBe(0);
      }
    } finally {
      await store.close();
    }
  });

  it('an erasure waits out a reader for a while, and says so when the WAL could not be emptied', async () => {
    const store = await openStore(`sqlite:${file}`);
    const reader = new SqliteDatabase(file, { readonly: true });
    try {
      await sql`create table t (id integer primary key, body text not null)`.execute(store.db);
      await sql`insert into t (id, body) values (1, 'secret')`.execute(store.db);
      // A read transaction in another connection pins the WAL as it is.
      const read = () => {
        reader.exec('begin');
        reader.prepare('select count(*) from t').get();
      };
      read();
      await sql`delete from t where id = 1`.execute(store.db);
      // It never waits in SQLite's busy handler (that would hold the event loop for the whole
      // busy_timeout): timers keep firing while it asks.
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const gaveUp = await checkpointAfterErasure(store, 100);
      clearInterval(ticker);
      expect(gaveUp).toBe(false);
      expect(ticks).toBeGreaterThan(2);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      // The reader finishes while the erasure is still asking: it is emptied then, not given up on.
      setTimeout(() => reader.exec('commit'), 50);
      expect(await checkpointAfterErasure(store, 5_000)).toBe(true);
      expect(statSync(`${file}-wal`).size).toBe(0);
    } finally {
      reader.close();
      await store.close();
    }
  });
});
