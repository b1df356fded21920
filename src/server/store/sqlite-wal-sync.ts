import { open, type FileHandle } from 'node:fs/promises';
import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { StoreUnavailableError } from './store-errors.ts';

/**
 * How a group committer makes a batch durable when the driver would otherwise wait for the disk
 * on the event loop: `run` does the batch's work on a connection of its own and resolves once
 * what it wrote is on disk.
 */
export interface BatchDurability {
  run<T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * SQLite's COMMIT with the WAL's fsync moved off the event loop (decision 0054).
 *
 * better-sqlite3 is synchronous: with `synchronous = FULL` every COMMIT fsyncs the WAL inside the
 * call, and the whole process waits for the disk (about 0.3 ms a commit on the bench machine's
 * ext4, at hundreds of commits a second under a burst) with no request read meanwhile. Here the
 * committer's transaction commits with `synchronous = NORMAL`: SQLite writes its WAL frames and
 * returns without syncing, still keeping the file consistent (it syncs the WAL before every
 * checkpoint and the WAL header when it restarts the log, https://www.sqlite.org/pragma.html#pragma_synchronous).
 * Then this process fdatasyncs the WAL itself on libuv's thread pool, and only after that does a
 * caller hear that its write committed. That is what FULL does in WAL mode, one sync of the WAL
 * per commit, with the event loop free while the disk works.
 *
 * The connection is set back to FULL before it is released, so every write that does not go
 * through a committer (the console's, an erasure's, the migrations') still syncs in its COMMIT.
 * A commit seen by another reader before its sync is what a crash of this process cannot lose
 * (the frames are in the kernel's page cache); only a power cut in that fraction of a millisecond
 * could, and no caller has been told "stored" by then.
 */
export function sqliteWalSync(
  sqlite: SqliteDatabase.Database,
  walFile: string,
  /** The sync itself; a test holds it to see what waits for it. */
  datasync: (wal: FileHandle) => Promise<void> = (wal) => wal.datasync(),
): BatchDurability {
  // Opened at the first sync, after a commit has made the WAL. SQLite deletes the WAL only when the
  // last connection to the file closes, and this process's stays open until close() below, so
  // the handle always names the WAL that SQLite writes (a checkpoint's TRUNCATE keeps the file).
  let wal: FileHandle | undefined;
  let syncing: Promise<void> | undefined;
  const syncWal = async (): Promise<void> => {
    try {
      wal ??= await open(walFile, 'r');
      await datasync(wal);
    } catch (error) {
      // The batch has committed; only its durability is in doubt. Said as "unavailable", so the
      // committer answers its callers 503 ("may not have been saved") and does not run their
      // jobs again one by one, as it would after a failed transaction.
      throw new StoreUnavailableError('The database could not make its last writes durable.', { cause: error });
    }
  };
  return {
    async run(db, work) {
      // Holding Kysely's one connection, so nothing else runs between the two pragmas; set on the
      // driver directly, as a Kysely query each was a few µs a batch for nothing.
      const out = await db.connection().execute(async (conn) => {
        sqlite.pragma('synchronous = NORMAL');
        try {
          return await work(conn);
        } finally {
          sqlite.pragma('synchronous = FULL');
        }
      });
      // One sync at a time on the handle; a caller arriving during one waits for its own after
      // it, since its frames may have been written after that sync began.
      const previous = syncing;
      const mine = (async () => {
        await previous?.catch(() => undefined);
        await syncWal();
      })();
      syncing = mine;
      try {
        await mine;
      } finally {
        if (syncing === mine) syncing = undefined;
      }
      return out;
    },
    async close() {
      await syncing?.catch(() => undefined);
      await wal?.close();
      wal = undefined;
    },
  };
}
