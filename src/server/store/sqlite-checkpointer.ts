import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection copies the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 200;
/**
 * The serving connection's own automatic checkpoint while the background one runs: a backstop
 * (about 40 MB of WAL at 4 KB pages) that only fires if the background connection falls behind or
 * dies. SQLite's default, 1,000 pages, is restored when it stops.
 */
export const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

/**
 * What one background checkpoint did (SQLite's own three figures, and whether it is the first to
 * succeed after failures), or why it could not run.
 */
export type CheckpointReport =
  { ok: true; busy: number; log: number; checkpointed: number; recovered: boolean } | { ok: false; error: string };

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
// A checkpoint can fail for a while (a full disk) and then succeed again: the thread goes on
// trying, and says so only when it starts failing and when it succeeds again, not five times a
// second.
let failing = false;
const step = () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    const recovered = failing;
    failing = false;
    if (workerData.report || r.busy || recovered)
      parentPort.postMessage({ ok: true, busy: r.busy, log: r.log, checkpointed: r.checkpointed, recovered });
  } catch (e) {
    if (!failing || workerData.report) parentPort.postMessage({ ok: false, error: String((e && e.message) || e) });
    failing = true;
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
 * only the copy into the database file moved. While the worker's checkpoints fail (a full disk),
 * or once it has died, the serving connection's own come back at SQLite's default; when the worker
 * succeeds again they move back to it.
 */
/**
 * The connection that commits, whose own automatic checkpoint is the backstop: the serving
 * connection, or the writer's on its thread (sqlite-writer.ts).
 */
export interface CommittingConnection {
  readonly open: boolean;
  /** Sets its wal_autocheckpoint, in pages. */
  autocheckpoint(pages: number): void;
}

export function startSqliteCheckpointer(
  sqlite: CommittingConnection,
  file: string,
  opts: {
    everyMs?: number;
    /** Every checkpoint's figures (tests); failures go to onFailure too. */
    onReport?: (report: CheckpointReport) => void;
    /** The worker could not checkpoint (or died): the serving connection's own are back. */
    onFailure?: (error: string) => void;
    /** The worker checkpoints again after failures: the serving connection's are the backstop again. */
    onRecovery?: () => void;
  } = {},
): SqliteCheckpointer {
  const restore = () => sqlite.autocheckpoint(SQLITE_DEFAULT_AUTOCHECKPOINT);
  const backstop = () => sqlite.autocheckpoint(BACKSTOP_PAGES);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS,
      report: Boolean(opts.onReport),
    },
  });
  backstop();
  let stopped = false;
  let failing = false;
  worker.on('message', (report: CheckpointReport) => {
    opts.onReport?.(report);
    if (!sqlite.open || stopped) return;
    if (!report.ok && !failing) {
      failing = true;
      restore();
      opts.onFailure?.(report.error);
    } else if (report.ok && failing) {
      failing = false;
      backstop();
      opts.onRecovery?.();
    }
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

/** The serving connection itself, on the main thread, as the checkpointer's committing one. */
export function committingOn(sqlite: { readonly open: boolean; pragma(text: string): unknown }): CommittingConnection {
  return {
    get open() {
      return sqlite.open;
    },
    autocheckpoint: (pages) => void sqlite.pragma(`wal_autocheckpoint = ${pages}`),
  };
}
