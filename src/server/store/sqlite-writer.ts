import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// SQLite's writing connection on a thread of its own (issue 40, decision 0067). better-sqlite3 is
// synchronous: a COMMIT with synchronous=FULL waits for the disk's fsync, and on the serving
// connection the event loop waited with it, every request of that moment behind it (the bursts
// that set the embedded default's p99). Here every statement that writes, and every transaction,
// runs on this thread's connection and is answered by message once done; the event loop only
// sends and receives. Reads outside a transaction stay on the main thread's connection (WAL lets
// them run beside the writer and see every commit that was answered). Durability is unchanged: a
// write is answered only after its COMMIT, fsync included, returned on this thread.

/** What a statement returns: Kysely's QueryResult, as the worker sends it back. */
export interface WriterResult {
  rows: Record<string, unknown>[];
  numAffectedRows?: bigint;
  insertId?: bigint;
}

interface Reply {
  id: number;
  result?: WriterResult;
  error?: { message: string; code?: string; name?: string };
}

// The worker's code, run with eval so the bundled server needs no second entry file (as the
// checkpointer's, sqlite-checkpointer.ts). The connection is set up as the serving one is in
// database.ts: the pragmas it passes, and dh_lower. `begin` is
// `begin immediate` (database.ts says why), a rollback with no transaction left is nothing, and
// prepared statements are kept by their text.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
for (const pragma of workerData.pragmas) db.pragma(pragma);
db.function('dh_lower', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
const cache = new Map();
const prepare = (text) => {
  let stmt = cache.get(text);
  if (!stmt) {
    stmt = db.prepare(text);
    if (cache.size >= 500) cache.delete(cache.keys().next().value);
    cache.set(text, stmt);
  }
  return stmt;
};
// Blobs arrive as Uint8Array (structured clone); the driver binds Buffers.
const bind = (p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p);
const run = (text, params) => {
  const sql = text === 'begin' ? 'begin immediate' : text;
  if (sql === 'rollback' && !db.inTransaction) return { rows: [] };
  const stmt = prepare(sql);
  const args = params.map(bind);
  if (stmt.reader) return { rows: stmt.all(args) };
  const { changes, lastInsertRowid } = stmt.run(args);
  return {
    rows: [],
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
  };
};
parentPort.on('message', (m) => {
  if (m.op === 'close') {
    try { db.close(); } catch {}
    parentPort.close();
    return;
  }
  if (m.op === 'pragma') {
    try { db.pragma(m.text); } catch {}
    return;
  }
  try {
    parentPort.postMessage({ id: m.id, result: run(m.sql, m.params) });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: { message: String((e && e.message) || e), code: e && e.code, name: e && e.name } });
  }
});
parentPort.postMessage({ id: 0 });
`;

/** A failure the writer's connection reported, with SQLite's code (SQLITE_CONSTRAINT_UNIQUE, …). */
export class SqliteWriterError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

export interface SqliteWriter {
  /** Runs one statement on the writing connection. */
  run(sql: string, params: readonly unknown[]): Promise<WriterResult>;
  /** Sets a pragma on the writing connection (the checkpointer's backstop); nothing once it is closed. */
  pragma(text: string): void;
  /** Until close() (or the thread's end). */
  readonly open: boolean;
  close(): Promise<void>;
}

/** A row's blobs come back as Uint8Array; the code reading rows expects Buffers, as on the main thread. */
function buffersIn(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows)
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value))
        row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  return rows;
}

/** Opens the writing connection on `file` on its thread; resolves once it is open and set up. */
export async function startSqliteWriter(file: string, pragmas: readonly string[]): Promise<SqliteWriter> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      pragmas,
    },
  });
  const pending = new Map<number, { resolve: (r: WriterResult) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let gone: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if (reply.id === 0) return resolve();
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if (reply.error) waiting.reject(new SqliteWriterError(reply.error.message, reply.error.code));
      else if (reply.result) waiting.resolve({ ...reply.result, rows: buffersIn(reply.result.rows) });
    });
    // A thread that died takes its connection with it: what waits, and what comes, is told the
    // store is unavailable (SQLITE_IOERR: a 503, store-errors.ts), as a disk that stopped would.
    const fail = (error: Error) => {
      gone ??= new SqliteWriterError(`the SQLite writer stopped: ${error.message}`, 'SQLITE_IOERR');
      for (const waiting of pending.values()) waiting.reject(gone);
      pending.clear();
      reject(gone);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`its thread exited (${code})`)));
  });
  await ready;
  // Kept alive only while a statement waits for its answer: a process with nothing else to do
  // may exit (the next open replays the WAL), but never before a write it waits for is answered.
  worker.unref();
  return {
    run(sql, params) {
      if (gone) return Promise.reject(gone);
      const id = nextId++;
      return new Promise<WriterResult>((resolve, reject) => {
        if (pending.size === 0) worker.ref();
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, sql, params });
      });
    },
    pragma(text) {
      if (!gone) worker.postMessage({ op: 'pragma', text });
    },
    get open() {
      return gone === undefined;
    },
    async close() {
      if (gone) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ op: 'close' });
      await exited;
    },
  };
}
