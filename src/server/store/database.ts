import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { type CommittingConnection, committingOn, startSqliteCheckpointer } from './sqlite-checkpointer.ts';
import { type SqliteWriter, startSqliteWriter } from './sqlite-writer.ts';
import { SqliteWriterDialect } from './sqlite-writer-dialect.ts';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { isQueryReadTimeout } from './store-errors.ts';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, without credentials, for logs. */
  description: string;
  close: () => Promise<void>;
}

const DEFAULT_SQLITE_PATH = 'data/dh.sqlite';

/** A ROLLBACK with no transaction open: what Kysely reads of a statement's run, and nothing else. */
const noTransactionToRollBack = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) };

/**
 * Kysely's SQLite driver prepares every statement anew for every query; preparing is a tenth of a
 * sign-up's CPU in the benchmark. The SQL text of a query builder is the same each time, so keep
 * prepared statements by text (bounded, oldest dropped). better-sqlite3 statements run
 * synchronously, so sharing one between queries is safe.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, max = 500): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  const cachedPrepare = (text: string) => {
    // Kysely opens a transaction with a plain (deferred) BEGIN. In WAL mode a deferred
    // transaction that reads and then writes fails at once with SQLITE_BUSY when another
    // process (the operator command, a second instance, a test's seeding) committed in
    // between, and busy_timeout cannot help. Every transaction we open is for writing, so
    // take the write lock up front, where busy_timeout waits for it
    // (https://www.sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions).
    const sql = text === 'begin' ? 'begin immediate' : text;
    // SQLite ends the transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR, …:
    // https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction),
    // and Kysely's ROLLBACK then fails with "no transaction is active", an error that hides
    // the one that matters (the disk is full). Nothing is left to roll back, so nothing is done.
    if (sql === 'rollback' && !sqlite.inTransaction) return noTransactionToRollBack;
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  // Methods bound once, not at every access: Kysely reaches for `prepare` at every statement.
  const bound = new Map<PropertyKey, unknown>([['prepare', cachedPrepare]]);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      const known = bound.get(prop);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      // Native methods must be called on the real object, not the proxy.
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, method);
      return method;
    },
  });
}

/** `undefined` → data/dh.sqlite; `sqlite:<path>` → that file; `postgres://…` → PostgreSQL. */
export function parseDatabaseUrl(url: string | undefined): { dialect: Dialect; target: string } {
  if (url === undefined || url === '') return { dialect: 'sqlite', target: DEFAULT_SQLITE_PATH };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, such as sqlite:data/dh.sqlite');
    return { dialect: 'sqlite', target: file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', target: url };
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

/**
 * The list's file readable by this user only: its folder is created 0700, the file itself made
 * (or tightened to) 0600 before SQLite opens it. SQLite creates its -wal and -shm files with the
 * database file's permissions, so they follow. A folder that existed already is the operator's
 * and is left as it is. Nothing here asks whether a file exists first: another process opening
 * the same list deletes its -journal when its transaction ends, so a file seen a moment ago can be
 * gone at the chmod (two instances starting at once crashed on exactly that).
 */
function ownerOnly(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  // 'a' creates a missing file with the mode and leaves an existing one's bytes alone.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  for (const side of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) chmodIfPresent(side);
}

function chmodIfPresent(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export interface OpenOptions {
  /** PostgreSQL only: a schema to use (and create), so tests can run side by side. */
  pgSchema?: string;
  pgPoolSize?: number;
  /**
   * PostgreSQL only: no limit on how long one statement may run. For migrations and scripts,
   * whose statements may rightly take minutes; the serving store keeps the limit.
   */
  longStatements?: boolean;
  /**
   * SQLite only: false refuses to create a missing file (throws MissingStoreError), for commands
   * that must act on an existing store rather than quietly start an empty one beside it.
   */
  create?: boolean;
  /**
   * SQLite only: WAL checkpoints on a worker thread instead of inside a COMMIT on the event loop
   * (sqlite-checkpointer.ts). For the serving process; scripts and tests keep SQLite's own.
   */
  backgroundCheckpoints?: boolean;
  /**
   * SQLite only: every write and transaction on a connection of its own on a worker thread, reads
   * outside transactions on this one (sqlite-writer-dialect.ts), so the event loop never waits
   * for a COMMIT's fsync. For the serving process and the tests' stores; scripts keep one connection.
   */
  writerThread?: boolean;
}

/** How every connection that serves the app is set up, on the main thread and the writer's. */
const SERVING_PRAGMAS = [
  // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable before
  // we answer (https://www.sqlite.org/pragma.html#pragma_synchronous); the group committer makes
  // that one sync a burst.
  'journal_mode = WAL',
  'synchronous = FULL',
  'foreign_keys = ON',
  // A deleted row's bytes are overwritten with zeros, not left in free pages for anyone with
  // the file to read: an erased person must be gone from the file (checkpointAfterErasure
  // empties the WAL's older copies of those pages too).
  'secure_delete = ON',
  'busy_timeout = 5000',
] as const;

/** The writer's connection as the checkpointer's committing one. */
const writerCommits = (writer: SqliteWriter): CommittingConnection => ({
  get open() {
    return writer.open;
  },
  autocheckpoint: (pages) => writer.pragma(`wal_autocheckpoint = ${pages}`),
});

/** The store named does not exist, and was not to be created. */
export class MissingStoreError extends Error {}

/**
 * PostgreSQL out of reach must cost a request seconds, not minutes (docs/decisions/0020-faults.md):
 * a connection that is not made within this long is given up (pg-pool also fails a wait for a free
 * connection after it)…
 */
const PG_CONNECT_TIMEOUT_MS = 2000;
/**
 * …and a statement with no answer after this long fails, on our side (the network may be what is
 * gone) and on the server's (statement_timeout, so it stops work nobody waits for). Requests wait
 * far less (group-commit.ts answers 503 first); this bounds how long a dead connection is held.
 */
const PG_STATEMENT_TIMEOUT_MS = 5000;

/**
 * node-postgres fails a query that got no answer within query_timeout but keeps its connection,
 * the query still marked active: back in the pool, every later query on it would queue behind one
 * that never ends (a connection a firewall forgot stays silent for TCP's 15 minutes). Ending the
 * client drops the socket at once (pg's end() destroys it when a query is active), the pool
 * removes an ended client when it is released, and the next request gets a fresh connection.
 */
function endOnReadTimeout(client: pg.PoolClient): void {
  // pg offers no event for a timed-out query, so the one method Kysely calls is wrapped.
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (isQueryReadTimeout(error)) client.end().catch(() => undefined);
      });
    }
    return result;
  };
}

export async function openStore(url: string | undefined, opts: OpenOptions = {}): Promise<Store> {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === 'sqlite') {
    if (opts.create === false && target !== ':memory:' && !existsSync(target)) {
      throw new MissingStoreError(
        `There is no database at sqlite:${target} (${path.resolve(target)}). Check DATABASE_URL.`,
      );
    }
    // An empty file is not a database either (SQLite would quietly make it one).
    if (opts.create === false && target !== ':memory:' && statSync(target).size === 0) {
      throw new MissingStoreError(
        `The file at sqlite:${target} (${path.resolve(target)}) is empty, not a database. Check DATABASE_URL.`,
      );
    }
    if (target !== ':memory:') ownerOnly(target);
    const sqlite = new SqliteDatabase(target);
    for (const pragma of SERVING_PRAGMAS) sqlite.pragma(pragma);
    // SQLite's lower() folds ASCII letters only; the console's search folds all of Unicode, as its
    // trigram index does (docs/decisions/0014-console-queries.md).
    sqlite.function('dh_lower', { deterministic: true }, (text: unknown) =>
      typeof text === 'string' ? text.toLowerCase() : text,
    );
    const reader = withStatementCache(sqlite);
    // The writer's connection, on its thread, is set up as this one is: the same pragmas, and
    // dh_lower (repeated in the worker's source: a function cannot cross to another thread).
    const writer = opts.writerThread && target !== ':memory:' ? await startSqliteWriter(target, SERVING_PRAGMAS) : null;
    const db = new Kysely<Database>({
      dialect: writer ? new SqliteWriterDialect({ reader, writer }) : new SqliteDialect({ database: reader }),
    });
    const checkpointer =
      opts.backgroundCheckpoints && target !== ':memory:'
        ? startSqliteCheckpointer(writer ? writerCommits(writer) : committingOn(sqlite), target, {
            // Before the app's logger exists, and rare: Node's warning channel (stderr) says it.
            onFailure: (error) =>
              process.emitWarning(`SQLite checkpoints are back on the serving connection: ${error}`),
            onRecovery: () => process.emitWarning('SQLite checkpoints are back on their own thread.'),
          })
        : null;
    return {
      db,
      dialect,
      description: `sqlite:${target}`,
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }

  const schema = opts.pgSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: target,
    max: opts.pgPoolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    ...(opts.longStatements
      ? {}
      : { query_timeout: PG_STATEMENT_TIMEOUT_MS, statement_timeout: PG_STATEMENT_TIMEOUT_MS }),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  pool.on('connect', endOnReadTimeout);
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  if (schema) await db.schema.createSchema(schema).ifNotExists().execute();
  const u = new URL(target);
  return {
    db,
    dialect,
    description: `postgres://${u.host}${u.pathname}${schema ? ` (schema ${schema})` : ''}`,
    close: () => db.destroy(),
  };
}

/** How long an erasure keeps asking for its WAL to be emptied before it says it could not. */
const ERASURE_CHECKPOINT_PATIENCE_MS = 2_000;
const ERASURE_CHECKPOINT_RETRY_MS = 10;

/**
 * After an erasure: SQLite's WAL still holds the pages as they were before the delete, so they
 * are copied back into the database file and the WAL is truncated to nothing. (PostgreSQL's dead
 * rows go with VACUUM, which autovacuum runs; its WAL and archives are recycled on their own
 * schedule: docs/deploy.md, "Erasure".)
 *
 * A TRUNCATE checkpoint answers busy at once while another connection runs a checkpoint (SQLite's
 * checkpoint lock invokes no busy handler): the background checkpointer's PASSIVE one, every
 * 200 ms, takes milliseconds. While another process reads, it would wait in the busy handler, and
 * better-sqlite3 would hold the event loop for the whole busy_timeout. So each attempt runs
 * without a busy handler, on the connection held for it alone, and is asked again with the event
 * loop free in between, for up to `patienceMs`; false only when the WAL still could not be
 * emptied by then (another process kept reading or writing).
 */
export async function checkpointAfterErasure(
  store: Pick<Store, 'db' | 'dialect'>,
  patienceMs: number = ERASURE_CHECKPOINT_PATIENCE_MS,
): Promise<boolean> {
  if (store.dialect !== 'sqlite') return true;
  const attempt = () =>
    store.db.connection().execute(async (connection) => {
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
      const timeout = Number(rows[0]?.timeout ?? 0);
      await sql`pragma busy_timeout = 0`.execute(connection);
      try {
        // busy = 1: another connection was checkpointing, reading or writing; the WAL was not emptied.
        const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(connection);
        return rows[0]?.busy === 0;
      } finally {
        await sql.raw(`pragma busy_timeout = ${timeout}`).execute(connection);
      }
    });
  const until = performance.now() + patienceMs;
  for (;;) {
    if (await attempt()) return true;
    if (performance.now() >= until) return false;
    await sleep(ERASURE_CHECKPOINT_RETRY_MS);
  }
}
