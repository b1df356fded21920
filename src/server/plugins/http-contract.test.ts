import type { FastifyError, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { STORE_RETRY_AFTER_S, StoreUnavailableError } from '../store/store-errors.ts';
import { errorBody, storeUnavailableWords } from './http-contract.ts';

function fakeRequest(visitorGone = false) {
  const logged: { level: string; fields: unknown; message: string }[] = [];
  const log = (level: string) =>
    vi.fn((fields: unknown, message?: string) => logged.push({ level, fields, message: message ?? String(fields) }));
  const request = {
    url: '/',
    headers: {},
    log: { error: log('error'), info: log('info') },
    raw: { aborted: visitorGone, socket: { destroyed: visitorGone } },
  };
  return { request: request as unknown as FastifyRequest, logged };
}

describe('errorBody: the store out of reach or out of room', () => {
  it('is a 503 in words with a Retry-After, whatever the driver said, and its log line names no one', () => {
    const { request, logged } = fakeRequest();
    // A driver error may quote the row it was writing.
    const error = Object.assign(new Error('disk full while writing ada@example.com'), {
      code: 'SQLITE_FULL',
    }) as unknown as FastifyError;
    expect(errorBody(error, request)).toEqual({
      status: 503,
      body: { error: { code: 'unavailable', message: storeUnavailableWords } },
      retryAfterS: STORE_RETRY_AFTER_S,
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]?.level).toBe('error');
    expect(logged[0]?.message).toBe('store unavailable');
    const line = JSON.stringify(logged[0]?.fields);
    expect(line).toContain('SQLITE_FULL');
    expect(line).not.toContain('ada@example.com');
  });

  it('covers our own deadline too', () => {
    const { request } = fakeRequest();
    expect(errorBody(new StoreUnavailableError() as unknown as FastifyError, request).status).toBe(503);
  });

  it('a reset socket is the store only while the visitor is still connected', () => {
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) as unknown as FastifyError;
    expect(errorBody(reset(), fakeRequest().request).status).toBe(503);
    const gone = fakeRequest(true);
    expect(errorBody(reset(), gone.request).status).toBe(400);
    expect(gone.logged.map((l) => l.level)).toEqual(['info']);
  });

  it('leaves every other failure a 500 without Retry-After', () => {
    const { request } = fakeRequest();
    const answer = errorBody(
      Object.assign(new Error('boom'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }) as unknown as FastifyError,
      request,
    );
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal');
    expect(answer.retryAfterS).toBeUndefined();
  });
});
