import { signupAnswers } from '../../../../content/messages/en/signup.ts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { newOutboxRow } from '../mail/index.ts';
import { STORE_RETRY_AFTER_S } from '../../store/store-errors.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';
import { CONFIRMATION_KIND } from './signup-store.ts';
import { newLinkToken } from './tokens.ts';

// The store refusing writes, in process: SQLite's query_only makes every write fail with
// SQLITE_READONLY, one of the errors that mean "the store cannot take writes now" (as a full disk
// does; the real fault is tested with the built server in src/server/integration/). What people
// are told: a 503 in words with Retry-After, never a 500 or a "broken link".
let t: TestApp;
let visitor: Visitor;
const refuseWrites = (on: boolean) => sql.raw(`pragma query_only = ${on ? 'on' : 'off'}`).execute(t.store.db);

beforeEach(async () => {
  t = await buildTestApp();
  visitor = await visitPage(t.app);
  t.clock.advance(5_000); // a person takes a few seconds to fill the form
});
afterEach(() => t.close());

describe('the store refuses writes', () => {
  it('a sign-up (JSON) is a 503 in words with Retry-After, and goes through once the store takes writes again', async () => {
    await refuseWrites(true);
    const res = await postSignupJson(t.app, visitor, { name: 'Ada', email: 'ada@example.com' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(STORE_RETRY_AFTER_S));
    const body = res.json<ApiErrorBody>();
    expect(body.error.code).toBe('unavailable');
    expect(body.error.message).toBe(
      `Our database is not answering just now, so your sign-up could not be saved. Please try again in ${STORE_RETRY_AFTER_S} seconds.`,
    );

    await refuseWrites(false);
    const again = await postSignupJson(t.app, visitor, { name: 'Ada', email: 'ada@example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: signupAnswers.success });
  });

  it('a sign-up with JavaScript off gets the page back, with the words and what was typed', async () => {
    await refuseWrites(true);
    const res = await postSignupForm(t.app, visitor, { name: 'Ada', email: 'ada@example.com', comment: 'gm' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['retry-after']).toBe(String(STORE_RETRY_AFTER_S));
    expect(res.body).toContain('Our database is not answering just now, so your sign-up could not be saved.');
    expect(res.body).toContain('ada@example.com');
  });

  it('pressing "confirm" asks the person to come back, not that their link is broken', async () => {
    const id = await insertSubscriber(t.store.db, 'ada@example.com');
    const { token, hash } = newLinkToken();
    await t.store.db
      .insertInto('outbox')
      .values({
        ...newOutboxRow(CONFIRMATION_KIND, id, t.clock()),
        status: 'sent',
        token_hash: hash,
        token_expires_at: new Date(t.clock().getTime() + 86_400_000).toISOString(),
      })
      .execute();
    await refuseWrites(true);
    const press = () =>
      t.app.inject({
        method: 'POST',
        url: pagePaths.confirm,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ token }).toString(),
      });
    const res = await press();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(STORE_RETRY_AFTER_S));
    expect(res.body).toContain('Please try again in a minute');
    expect(res.body).not.toContain('This link does not work');

    await refuseWrites(false);
    const later = await press();
    expect(later.statusCode).toBe(200);
    expect(later.body).toContain('You are on the list');
  });
});
