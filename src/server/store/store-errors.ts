// Which database errors mean "the store cannot take writes right now" rather than "this request or
// our code is wrong". Those are answered 503 with Retry-After and a sentence (the visitor can do
// nothing but try again later, and a monitor should see the store, not a bug), and the group
// committer gives up on them at once instead of retrying job by job into the same wall.
// docs/decisions/0020-faults.md

/** Seconds a client is asked to wait before trying again after the store was unavailable. */
export const STORE_RETRY_AFTER_S = 30;

/** Raised by our own code when the store did not answer in time (see group-commit.ts). */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly statusCode = 503;
  constructor(message = 'The database did not answer in time.', options?: ErrorOptions) {
    super(message, options);
  }
}

// PostgreSQL SQLSTATE classes and codes that say the server or the link to it is in trouble
// (https://www.postgresql.org/docs/current/errcodes-appendix.html): 08 connection exception,
// 53 insufficient resources (disk full, out of memory, too many connections), 57P01–57P03
// shutting down / cannot connect now, 58 system errors (I/O), and 57014, a statement cancelled:
// we cancel none ourselves, so it is statement_timeout (database.ts), a server too slow to answer.
const PG_UNAVAILABLE = /^(08|53|58)[0-9A-Z]{3}$|^57P0[1-3]$|^57014$/;

// node-postgres and Node's sockets raise these without a SQLSTATE: the socket failed, a connect
// or a query waited longer than its timeout (database.ts), the connection ended under a query.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const PG_CLIENT_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  // A client ended after a read timeout (database.ts), asked to roll back.
  'Client was closed and is not queryable',
];

// SQLite result codes (https://www.sqlite.org/rescode.html) that say the disk or the file is the
// problem: full, an I/O error of any kind (SQLITE_IOERR_*), the file cannot be opened or is
// read-only, or another process held the lock past busy_timeout.
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|IOERR(_.*)?|CANTOPEN|READONLY(_.*)?|BUSY(_.*)?|NOLFS|PROTOCOL)$/;

/** Whether `error` (or the error it wraps) says the store is out of reach or out of room. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof StoreUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (SQLITE_UNAVAILABLE.test(code) || NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code))
    )
      return true;
    // AggregateError from a connect attempt on every address of a host name.
    if (e instanceof AggregateError && e.errors.some(isStoreUnavailable)) return true;
    if (PG_CLIENT_MESSAGES.some((m) => e.message.startsWith(m))) return true;
  }
  return false;
}

/** Whether `error` is node-postgres giving up on a query that got no answer (database.ts ends that connection). */
export const isQueryReadTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Query read timeout';
