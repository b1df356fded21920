import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signupAnswers, signupMessages } from '../../../../content/messages/en/signup.ts';
import { fieldErrorText, signupReplyErrors } from '../../../shared/signup-schema.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';

let t: TestApp;
let mailer: ReturnType<typeof memoryMailer>;
let visitor: Visitor;

const person = { name: 'Satoshi', email: 'Hodler@Example.COM', comment: 'wen presale' };

async function countRows(table: 'subscribers' | 'outbox') {
  const row = await t.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeEach(async () => {
  mailer = memoryMailer();
  t = await buildTestApp({ mailer });
  visitor = await visitPage(t.app);
  t.clock.advance(5_000); // a person takes a few seconds to fill the form
});
afterEach(() => t.close());

describe('POST /signup with JSON (JavaScript on)', () => {
  it('stores a pending sign-up, normalised, with consent and one queued email, then answers', async () => {
    const res = await postSignupJson(
      t.app,
      visitor,
      { ...person, email: '  Hodler@Example.COM ' },
      { referer: 'https://dh.example/' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: signupAnswers.success });
    const sub = await t.store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      email: 'Hodler@example.com',
      name: 'Satoshi',
      comment: 'wen presale',
      status: 'pending',
      consent_version: '2026-11-21',
      consent_page: '/',
      consent_at: '2026-11-21T12:00:05.000Z',
    });
    const outbox = await t.store.db.selectFrom('outbox').selectAll().execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: 'confirmation', status: 'pending', subscriber_id: sub.id });
  });

  it('answers a known address exactly like a new one, updates it, and sends no second email within 15 minutes', async () => {
    const first = await postSignupJson(t.app, visitor, person);
    const again = await postSignupJson(t.app, visitor, {
      ...person,
      email: ' hodler@EXAMPLE.com',
      name: 'Satoshi N.',
      comment: 'gm',
    });
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    expect(await countRows('subscribers')).toBe(1);
    expect(await countRows('outbox')).toBe(1);
    const sub = await t.store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
    expect(sub.name).toBe('Satoshi N.');
    expect(sub.comment).toBe('gm');

    t.clock.advance(15 * 60 * 1000);
    await postSignupJson(t.app, visitor, person);
    expect(await countRows('outbox')).toBe(2);
  });

  it('rejects bad fields with a code per field and stores nothing', async () => {
    const res = await postSignupJson(t.app, visitor, { name: '   ', email: 'not-an-email', comment: 'x'.repeat(1001) });
    expect(res.statusCode).toBe(400);
    const body = res.json<ApiErrorBody>();
    expect(body.error.code).toBe('invalid_fields');
    expect(body.error.fields).toEqual({ name: 'name.required', email: 'email.invalid', comment: 'comment.tooLong' });
    expect(await countRows('subscribers')).toBe(0);
  });

  it.each([
    [{ name: 'x'.repeat(101), email: 'a@b.co' }, 'name', 'name.tooLong', 'Your name can be at most 100 characters.'],
    [
      { name: 'A', email: `${'a'.repeat(65)}@example.com` },
      'email',
      'email.localTooLong',
      'The part before the @ can be at most 64 characters.',
    ],
    [
      { name: 'A', email: `a@${'b'.repeat(250)}.com` },
      'email',
      'email.tooLong',
      'An email address can be at most 254 characters.',
    ],
    [{ name: 'A' }, 'email', 'email.required', 'Please enter your email address.'],
    [{ name: 7, email: 'a@b.co' }, 'name', 'name.required', 'Please enter your name.'],
  ] as const)('explains %j with a code, whose words the form shows', async (body, field, code, words) => {
    const res = await postSignupJson(t.app, visitor, body);
    expect(res.statusCode).toBe(400);
    const fields = res.json<ApiErrorBody>().error.fields;
    expect(fields?.[field]).toBe(code);
    const shown = signupReplyErrors(fields)[field];
    expect(shown && fieldErrorText(signupMessages, shown)).toBe(words);
    expect(await countRows('subscribers')).toBe(0);
  });

  it('explains a field it does not take with a code, and in the words of its answer', async () => {
    const res = await postSignupJson(t.app, visitor, { name: 'A', email: 'a@b.co', extra: 1 });
    expect(res.statusCode).toBe(400);
    const { error } = res.json<ApiErrorBody>();
    expect(error.fields).toEqual({ form: 'form.unknownFields' });
    // The fields are named from the form's field list, by their labels (formErrorText).
    expect(error.message).toMatch(
      /^Please correct the highlighted fields\. This form takes only these fields: Name, Email, (and )?Comment\b.*\.$/,
    );
    expect(await countRows('subscribers')).toBe(0);
  });

  it('answers broken JSON, wrong types and oversized bodies in words', async () => {
    const broken = await postSignupJson(t.app, visitor, '{"name":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json<ApiErrorBody>().error.message).toMatch(/could not read/);

    const text = await t.app.inject({
      method: 'POST',
      url: pagePaths.signup,
      headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin', accept: 'application/json' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json<ApiErrorBody>().error).toMatchObject({ code: 'unsupported_media_type' });
    expect(text.json<ApiErrorBody>().error.message).toBe('Please send the form as a normal web form or as JSON.');

    const big = await postSignupJson(t.app, visitor, { ...person, comment: 'x'.repeat(17 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json<ApiErrorBody>().error).toMatchObject({ code: 'payload_too_large' });
    expect(big.json<ApiErrorBody>().error.message).toMatch(/16 KB/);
    expect(await countRows('subscribers')).toBe(0);
  });

  it('refuses a cross-site write and a missing or forged XSRF token with 403', async () => {
    const crossSite = await postSignupJson(t.app, visitor, person, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    const noToken = await postSignupJson(t.app, visitor, person, { 'x-xsrf-token': '' });
    expect(noToken.statusCode).toBe(403);
    const other = await visitPage(t.app);
    const forged = await postSignupJson(t.app, visitor, person, { 'x-xsrf-token': other.xsrf });
    expect(forged.statusCode).toBe(403);
    expect(forged.json<ApiErrorBody>().error).toMatchObject({ code: 'csrf' });
    expect(forged.json<ApiErrorBody>().error.message).toMatch(/security token/);
    expect(await countRows('subscribers')).toBe(0);
  });

  it('gives the honeypot the normal answer, stores nothing and counts it', async () => {
    const res = await postSignupJson(t.app, visitor, { ...person, website: 'http://spam.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: signupAnswers.success });
    expect(await countRows('subscribers')).toBe(0);
    const counter = await t.store.db.selectFrom('abuse_counters').selectAll().executeTakeFirstOrThrow();
    expect(counter).toMatchObject({ reason: 'honeypot', count: 1 });
  });

  it('treats a form sent faster than a person can type as a bot', async () => {
    const fresh = await visitPage(t.app);
    t.clock.advance(500);
    const res = await postSignupJson(t.app, fresh, person);
    expect(res.statusCode).toBe(200);
    expect(await countRows('subscribers')).toBe(0);
    const counter = await t.store.db.selectFrom('abuse_counters').selectAll().executeTakeFirstOrThrow();
    expect(counter).toMatchObject({ reason: 'too-fast', count: 1 });
  });

  it('rate-limits per client with 429, Retry-After and a sentence', async () => {
    const limited = await buildTestApp({ env: { SIGNUP_RATE_LIMIT: '2', TRUST_PROXY: 'true' } });
    try {
      const v = await visitPage(limited.app);
      limited.clock.advance(5_000);
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      expect((await postSignupJson(limited.app, v, person, from('203.0.113.7'))).statusCode).toBe(200);
      expect((await postSignupJson(limited.app, v, person, from('203.0.113.7'))).statusCode).toBe(200);
      const third = await postSignupJson(limited.app, v, person, from('203.0.113.7'));
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(third.json<ApiErrorBody>().error).toMatchObject({ code: 'rate_limited' });
      expect(third.json<ApiErrorBody>().error.message).toMatch(
        /^Too many sign-ups from your network\. Please try again in \d+ seconds\.$/,
      );
      // Another client is not affected.
      expect((await postSignupJson(limited.app, v, person, from('198.51.100.9'))).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /signup as a plain form (JavaScript off)', () => {
  it('answers with the page and the result, after storing', async () => {
    const res = await postSignupForm(t.app, visitor, { name: 'Vitalik', email: 'v@example.org', comment: '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(signupAnswers.success);
    expect(res.body).toContain('<title>Diamond Hand (DH)</title>');
    expect(await countRows('subscribers')).toBe(1);
  });

  it('asks a cookie-less first post to press once more, keeping what was typed, then stores', async () => {
    const fields = { name: 'Nakamoto', email: 'n@example.org', comment: 'gm' };
    const first = await postSignupForm(t.app, { cookie: '', xsrf: '' }, fields);
    expect(first.statusCode).toBe(428);
    expect(first.body).toContain('please press Submit once more');
    expect(first.body).toContain('value="Nakamoto"');
    expect(await countRows('subscribers')).toBe(0);
    const cookie = (first.cookies as { name: string; value: string }[]).map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookie).toContain('dh_t=');
    // The person already spent the time filling the form in: pressing again at once is fine.
    const second = await postSignupForm(t.app, { cookie, xsrf: '' }, fields);
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain(signupAnswers.success);
    expect(await countRows('subscribers')).toBe(1);
  });

  it('shows errors beside the fields and keeps what was typed', async () => {
    const res = await postSignupForm(t.app, visitor, { name: 'Vitalik <b>', email: 'nope', comment: 'hi' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Please enter a valid email address, like name@example.com.');
    expect(res.body).toMatch(/name="name"[^>]*value="Vitalik &lt;b&gt;"|value="Vitalik &lt;b&gt;"[^>]*name="name"/);
    expect(res.body).toMatch(/aria-invalid="true"/);
    expect(await countRows('subscribers')).toBe(0);
  });

  it('refuses a form posted from another site', async () => {
    const res = await postSignupForm(
      t.app,
      visitor,
      { name: 'A', email: 'a@b.co' },
      { origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('This form can only be sent from our own site.');
  });
});
