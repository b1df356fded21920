import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/** How often the background connection copies the WAL into the database file. */
export const CHECKPOINT_EVERY_MS = 200;
/**
 * The serving connection's own automatic checkpoint while the background one runs: a backstop
 * (about 40 MB of WAL at 4 KB pages) that only fires if the background connection falls behind or
 * dies. SQLite's default, 1,000 pages, is restored when it stops.
 */
export const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

/** What one background checkpoint did (SQLite's own three figures), or why it could not run. */
export type CheckpointReport =
  { ok: true; busy: number; log: number; checkpointed: number } | { ok: false; error: string };

// The worker's code, run with eval so the bundled server needs no second entry file: it opens the
// same file with the same driver (its path is handed over, so nothing is resolved from the
// working directory) and runs a PASSIVE checkpoint on a timer. PASSIVE never waits for the writer
// or the readers and never blocks them; its fsyncs (synchronous=FULL) happen on this thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 0');
const step = () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (workerData.report || r.busy) parentPort.postMessage({ ok: true, busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    // Once: the serving connection takes its checkpoints back when this thread has ended.
    parentPort.postMessage({ ok: false, error: String((e && e.message) || e) });
    end();
  }
};
const timer = setInterval(step, workerData.everyMs);
const end = () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
};
parentPort.on('message', (m) => {
  if (m === 'stop') end();
});
`;

export interface SqliteCheckpointer {
  /** Stops the timer, closes the background connection, and gives the serving one its checkpoints back. */
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. better-sqlite3 is synchronous, so the
 * automatic checkpoint (every 1,000 pages, inside whichever COMMIT crosses the mark) held the
 * event loop for 16–33 ms about three times a second at half the sign-up capacity: the requests
 * of that moment waited, and that was the open loop's p99 (docs/decisions/0051). A second
 * connection on a worker thread checkpoints every CHECKPOINT_EVERY_MS instead. Durability is
 * unchanged (every COMMIT still fsyncs the WAL on the serving connection before it is answered);
 * only the copy into the database file moved. If the worker fails, the serving connection's own
 * checkpoints come back at SQLite's default.
 */
export function startSqliteCheckpointer(
  sqlite: SqliteDatabase.Database,
  file: string,
  opts: {
    everyMs?: number;
    /** Every checkpoint's figures (tests); failures go to onFailure too. */
    onReport?: (report: CheckpointReport) => void;
    /** The worker could not checkpoint (or died): the serving connection's own are back. */
    onFailure?: (error: string) => void;
  } = {},
): SqliteCheckpointer {
  const restore = () => sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS,
      report: Boolean(opts.onReport),
    },
  });
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let stopped = false;
  worker.on('message', (report: CheckpointReport) => {
    opts.onReport?.(report);
    if (!report.ok) opts.onFailure?.(report.error);
  });
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (sqlite.open) restore();
      resolve();
    });
  });
  // An error is always followed by 'exit', which gives the checkpoints back.
  worker.on('error', (error) => {
    opts.onReport?.({ ok: false, error: error.message });
    opts.onFailure?.(error.message);
  });
  // The process may exit while it runs: nothing is lost, the next open replays the WAL.
  worker.unref();
  return {
    async stop() {
      if (stopped) return exited;
      stopped = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
