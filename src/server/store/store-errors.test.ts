import { describe, expect, it } from 'vitest';
import { isQueryReadTimeout, isStoreUnavailable, StoreUnavailableError } from './store-errors.ts';

const coded = (code: string, message = 'driver words') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['SQLite: disk full', coded('SQLITE_FULL', 'database or disk is full')],
    ['SQLite: any I/O error', coded('SQLITE_IOERR_WRITE')],
    ['SQLite: the lock held past busy_timeout', coded('SQLITE_BUSY')],
    ['SQLite: read-only file', coded('SQLITE_READONLY')],
    ['PostgreSQL: connection failure (class 08)', coded('08006')],
    ['PostgreSQL: shutting down', coded('57P01')],
    ['PostgreSQL: disk full (class 53)', coded('53100')],
    ['PostgreSQL: too many connections', coded('53300')],
    ['PostgreSQL: statement_timeout (we cancel nothing else)', coded('57014')],
    ['socket refused', coded('ECONNREFUSED')],
    ['socket reset', coded('ECONNRESET')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg: query read timeout', new Error('Query read timeout')],
    ['pg: connection lost under a query', new Error('Connection terminated unexpectedly')],
    ['pg: a client ended after a timeout', new Error('Client was closed and is not queryable')],
    ['our own deadline', new StoreUnavailableError()],
    ['wrapped as a cause', new Error('outer', { cause: coded('SQLITE_FULL') })],
    ['every address of a host refused', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')])],
  ])('%s: yes', (_label, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['SQLite: a constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['SQLite: a bad statement', coded('SQLITE_ERROR', 'no such table: nope')],
    ['PostgreSQL: a unique violation', coded('23505')],
    ['PostgreSQL: a syntax error', coded('42601')],
    ['a bug', new TypeError('x is undefined')],
    ['not an error at all', 'SQLITE_FULL'],
    ['nothing', undefined],
  ])('%s: no', (_label, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});

describe('isQueryReadTimeout', () => {
  it('is node-postgres giving up on an unanswered query, nothing else', () => {
    expect(isQueryReadTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isQueryReadTimeout(new Error('timeout exceeded when trying to connect'))).toBe(false);
  });
});
