import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { SqliteWriter } from './sqlite-writer.ts';

// Kysely's SQLite dialect with its statements routed (issue 40, decision 0067): every transaction,
// and every statement outside one that writes, to the writer's thread (sqlite-writer.ts); a read
// outside a transaction to the main thread's connection, at once. Kysely's own SQLite driver runs
// everything on one connection behind one lock, so a transaction held every read until its COMMIT
// (and fsync) returned; here reads run beside it, as on PostgreSQL, and see what was committed.
// Kysely has no dialect for a connection on another thread, hence this one: the SQL and its
// parameters cross as they are, and the results come back in Kysely's own shape.

/** Opens (and ends) a transaction, as Kysely or our own code writes it (migrate.ts: `begin immediate`). */
const OPENS = /^\s*begin\b/i;
const ENDS = /^\s*(commit|end|rollback)\b(?!\s+to\b)/i;
/**
 * A pragma sets or reads the connection it runs on (checkpointAfterErasure sets busy_timeout, runs
 * a TRUNCATE checkpoint and sets it back): the writer's, whose waits block no request, and the
 * same one until the connection is released.
 */
const PRAGMA = /^\s*pragma\b/i;

/** One holder at a time: the writer's transaction, or the reader's open stream. */
class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  get held(): boolean {
    return this.#held !== undefined;
  }

  async lock(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}

interface Shared {
  reader: SqliteDatabase.Database;
  writer: SqliteWriter;
  /** Held by a transaction (or a write outside one) for its whole length. */
  writing: Mutex;
  /** Held while a stream iterates the reader (better-sqlite3 refuses another statement meanwhile). */
  reading: Mutex;
}

class RoutingConnection implements DatabaseConnection {
  /** Between a BEGIN and its COMMIT or ROLLBACK: everything goes to the writer, in order. */
  #inTransaction = false;
  /** After a pragma: everything goes to the writer until the connection is released. */
  #holdsWriter = false;

  constructor(private readonly shared: Shared) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    const { writer, writing } = this.shared;
    if (this.#holdsWriter) return (await writer.run(sql, parameters)) as QueryResult<R>;
    if (!this.#inTransaction && PRAGMA.test(sql)) {
      await writing.lock();
      this.#holdsWriter = true;
      return (await writer.run(sql, parameters)) as QueryResult<R>;
    }
    if (this.#inTransaction) {
      const ends = ENDS.test(sql);
      try {
        return (await writer.run(sql, parameters)) as QueryResult<R>;
      } finally {
        if (ends) {
          this.#inTransaction = false;
          writing.unlock();
        }
      }
    }
    if (OPENS.test(sql)) {
      await writing.lock();
      try {
        const result = (await writer.run(sql, parameters)) as QueryResult<R>;
        this.#inTransaction = true;
        return result;
      } catch (error) {
        writing.unlock();
        throw error;
      }
    }
    const read = this.readNow<R>(sql, parameters);
    if (read) return read;
    await writing.lock();
    try {
      return (await writer.run(sql, parameters)) as QueryResult<R>;
    } finally {
      writing.unlock();
    }
  }

  /**
   * A statement that only reads, run on the main thread's connection now; null for one that writes
   * (or that this connection cannot prepare: a table the writer made in a transaction not yet
   * committed; the writer then answers, or fails in its words).
   */
  private readNow<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> | null {
    let stmt: SqliteDatabase.Statement;
    try {
      stmt = this.shared.reader.prepare(sql);
    } catch {
      return null;
    }
    if (!stmt.readonly || !stmt.reader) return null;
    return this.whenReaderFree(() => ({ rows: stmt.all(parameters) as R[] }));
  }

  /** Releases the writer a pragma took (RoutingDriver.releaseConnection). */
  release(): void {
    if (!this.#holdsWriter) return;
    this.#holdsWriter = false;
    this.shared.writing.unlock();
  }

  /** Runs at once unless a stream holds the reader, then after it. */
  private async whenReaderFree<T>(work: () => T): Promise<T> {
    const { reading } = this.shared;
    if (!reading.held) return work();
    await reading.lock();
    try {
      return work();
    } finally {
      reading.unlock();
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    if (this.#inTransaction) {
      for (const row of (await this.shared.writer.run(compiled.sql, compiled.parameters)).rows)
        yield { rows: [row as R] };
      return;
    }
    const { reading } = this.shared;
    await reading.lock();
    try {
      const stmt = this.shared.reader.prepare(compiled.sql);
      for (const row of stmt.iterate(compiled.parameters)) yield { rows: [row as R] };
    } finally {
      reading.unlock();
    }
  }
}

class RoutingDriver implements Driver {
  constructor(private readonly shared: Shared) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this.shared);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutingConnection).release();
  }

  async destroy(): Promise<void> {
    await this.shared.writer.close();
    this.shared.reader.close();
  }
}

export class SqliteWriterDialect implements Dialect {
  readonly #shared: Shared;

  constructor(opts: { reader: SqliteDatabase.Database; writer: SqliteWriter }) {
    this.#shared = { ...opts, writing: new Mutex(), reading: new Mutex() };
  }

  createDriver(): Driver {
    return new RoutingDriver(this.#shared);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
