import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { apiPaths } from '../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../test/built-app.ts';
import { insertSubscriber } from '../test/fixtures.ts';
import { dialectCases, openTestStore, testClock } from '../test/test-store.ts';

const POSTMARK = { user: 'postmark', password: 'a-long-webhook-password' };
const MAILGUN_KEY = 'key-0123456789abcdef0123456789abcdef';
const sendgridPair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const SENDGRID_PUBLIC = sendgridPair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

const configured = {
  POSTMARK_WEBHOOK_USER: POSTMARK.user,
  POSTMARK_WEBHOOK_PASSWORD: POSTMARK.password,
  MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY,
  SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC,
};

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

// As Postmark documents its Bounce and SpamComplaint webhooks.
const postmarkBounce = (over: Record<string, unknown> = {}) => ({
  RecordType: 'Bounce',
  ID: 4323372036,
  Type: 'HardBounce',
  TypeCode: 1,
  Name: 'Hard bounce',
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
  Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist.',
  Email: 'dead@example.com',
  From: 'hello@dh.example',
  BouncedAt: '2026-11-21T12:00:00Z',
  Inactive: true,
  CanActivate: true,
  Subject: 'Confirm',
  MessageStream: 'outbound',
  ...over,
});

// As Mailgun documents them: the signature beside "event-data", HMAC-SHA256(timestamp + token).
const mailgunBody = (
  now: Date,
  event: Record<string, unknown>,
  token = randomBytes(25).toString('hex'),
  key = MAILGUN_KEY,
) => {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    signature: {
      timestamp,
      token,
      signature: createHmac('sha256', key)
        .update(timestamp + token)
        .digest('hex'),
    },
    'event-data': event,
  };
};
const mailgunFailed = (over: Record<string, unknown> = {}) => ({
  id: 'G9Bn5sl1TC6nu79C8C0bwg',
  event: 'failed',
  severity: 'permanent',
  reason: 'bounce',
  recipient: 'dead@example.com',
  'delivery-status': {
    code: 550,
    'enhanced-code': '5.1.1',
    message: '5.1.1 The email account does not exist',
    'attempt-no': 1,
  },
  message: { headers: { 'message-id': '20261121120000.1.ABC@dh.example', to: 'dead@example.com' } },
  timestamp: 1763726400.1,
  ...over,
});

// As SendGrid documents its signed Event Webhook: ECDSA over timestamp + the raw body.
const sendgridHeaders = (raw: string, now: Date, key = sendgridPair.privateKey) => {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = sign('sha256', Buffer.from(timestamp + raw), { key, dsaEncoding: 'der' }).toString('base64');
  return {
    'content-type': 'application/json',
    'x-twilio-email-event-webhook-signature': signature,
    'x-twilio-email-event-webhook-timestamp': timestamp,
  };
};
const sendgridEvents = [
  {
    email: 'dead@example.com',
    timestamp: 1763726400,
    event: 'bounce',
    type: 'bounce',
    status: '5.1.1',
    reason: '550 5.1.1 no such user',
    sg_event_id: 'sg-bounce-1',
    sg_message_id: 'm1',
  },
  {
    email: 'angry@example.com',
    timestamp: 1763726400,
    event: 'spamreport',
    sg_event_id: 'sg-spam-1',
    sg_message_id: 'm2',
  },
  {
    email: 'fine@example.com',
    timestamp: 1763726400,
    event: 'delivered',
    response: '250 OK',
    sg_event_id: 'sg-delivered-1',
    sg_message_id: 'm3',
  },
];

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`mail providers' webhooks on ${label}`, () => {
    let t: TestApp;
    const clock = testClock();

    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const errorOf = (res: { json(): unknown }) => apiErrorSchema.parse(res.json()).error;
    const suppressed = (address: string) => t.app.suppressions.isSuppressed(t.store.db, address);

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      t = await buildTestApp({ store: await openTestStore(dialect), clock, mailer: memoryMailer(), env: configured });
    });
    afterEach(() => t.close());

    it('answers 404, in the one error shape, for a provider that is not configured', async () => {
      await t.close();
      t = await buildTestApp({ store: await openTestStore(dialect), clock, mailer: memoryMailer() });
      for (const url of [apiPaths.postmarkWebhook, apiPaths.mailgunWebhook, apiPaths.sendgridWebhook]) {
        const res = await post(url, postmarkBounce(), { authorization: basic(POSTMARK.user, POSTMARK.password) });
        expect(res.statusCode).toBe(404);
        expect(errorOf(res).code).toBe('not_found');
      }
    });

    it('Postmark: refuses wrong credentials; a bounce suppresses once, a complaint unsubscribes', async () => {
      const wrong = await post(apiPaths.postmarkWebhook, postmarkBounce(), {
        authorization: basic(POSTMARK.user, 'guessed-password-123'),
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
      expect(errorOf(wrong).code).toBe('unauthorized');
      expect((await post(apiPaths.postmarkWebhook, postmarkBounce())).statusCode).toBe(401);
      expect(await suppressed('dead@example.com')).toBe(false);

      const auth = { authorization: basic(POSTMARK.user, POSTMARK.password) };
      const first = await post(apiPaths.postmarkWebhook, postmarkBounce(), auth);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ received: 1, counted: 1 });
      expect(await suppressed('Dead@Example.com')).toBe(true);
      // Postmark retries a delivery it thinks failed: the same record counts once.
      expect((await post(apiPaths.postmarkWebhook, postmarkBounce(), auth)).json()).toMatchObject({
        received: 1,
        counted: 0,
      });

      const id = await insertSubscriber(t.store.db, 'angry@example.com', { status: 'confirmed', now: clock() });
      const complaint = {
        RecordType: 'SpamComplaint',
        ID: 42,
        Type: 'SpamComplaint',
        TypeCode: 512,
        Email: 'angry@example.com',
        MessageID: 'x',
        BouncedAt: '2026-11-21T12:00:00Z',
      };
      expect((await post(apiPaths.postmarkWebhook, complaint, auth)).statusCode).toBe(200);
      const row = await t.store.db
        .selectFrom('subscribers')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('unsubscribed');

      // An auto-reply is no bounce; a body that is not JSON is refused in words.
      expect(
        (
          await post(
            apiPaths.postmarkWebhook,
            postmarkBounce({ ID: 7, Type: 'AutoResponder', Email: 'away@example.com' }),
            auth,
          )
        ).json(),
      ).toMatchObject({ received: 0 });
      const bad = await post(apiPaths.postmarkWebhook, '{not json', auth);
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).code).toBe('bad_request');
    });

    it('Mailgun: refuses a forged, a stale and a replayed signature; counts an event once', async () => {
      const forged = await post(
        apiPaths.mailgunWebhook,
        mailgunBody(clock(), mailgunFailed(), undefined, 'key-not-the-right-one-000000000'),
      );
      expect(forged.statusCode).toBe(401);
      expect(errorOf(forged).code).toBe('unauthorized');
      const stale = await post(
        apiPaths.mailgunWebhook,
        mailgunBody(new Date(clock().getTime() - 10 * 60_000), mailgunFailed()),
      );
      expect(stale.statusCode).toBe(401);
      expect(await suppressed('dead@example.com')).toBe(false);

      const body = mailgunBody(clock(), mailgunFailed());
      expect((await post(apiPaths.mailgunWebhook, body)).json()).toMatchObject({ received: 1, counted: 1 });
      expect(await suppressed('dead@example.com')).toBe(true);
      const replay = await post(apiPaths.mailgunWebhook, body);
      expect(replay.statusCode).toBe(409);
      expect(errorOf(replay).code).toBe('conflict');
      // The same event, signed afresh (a retry by Mailgun), counts once.
      expect((await post(apiPaths.mailgunWebhook, mailgunBody(clock(), mailgunFailed()))).json()).toMatchObject({
        counted: 0,
      });

      // Temporary failures of one message (Mailgun's retries) are one soft bounce.
      for (const id of ['t1', 't2', 't3']) {
        const temp = mailgunFailed({
          id,
          severity: 'temporary',
          recipient: 'full@example.com',
          message: { headers: { 'message-id': 'one@dh.example' } },
        });
        await post(apiPaths.mailgunWebhook, mailgunBody(clock(), temp));
      }
      expect(
        await t.store.db.selectFrom('bounce_events').select('event_id').where('kind', '=', 'soft').execute(),
      ).toEqual([{ event_id: 'message:one@dh.example' }]);
    });

    it('SendGrid: checks the ECDSA signature over the raw body, refuses replays, takes bounces and spam reports', async () => {
      const raw = JSON.stringify(sendgridEvents);
      const headers = sendgridHeaders(raw, clock());
      // One byte changed after signing.
      const tampered = await post(apiPaths.sendgridWebhook, raw.replace('dead@', 'deaf@'), headers);
      expect(tampered.statusCode).toBe(401);
      const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
      expect((await post(apiPaths.sendgridWebhook, raw, sendgridHeaders(raw, clock(), otherKey))).statusCode).toBe(401);
      expect(
        (await post(apiPaths.sendgridWebhook, raw, sendgridHeaders(raw, new Date(clock().getTime() - 6 * 60_000))))
          .statusCode,
      ).toBe(401);
      expect((await post(apiPaths.sendgridWebhook, raw, { 'content-type': 'application/json' })).statusCode).toBe(401);

      const ok = await post(apiPaths.sendgridWebhook, raw, headers);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ received: 2, counted: 2 });
      expect(await suppressed('dead@example.com')).toBe(true);
      expect(await suppressed('angry@example.com')).toBe(true);
      expect(await suppressed('fine@example.com')).toBe(false);
      expect((await post(apiPaths.sendgridWebhook, raw, headers)).statusCode).toBe(409);
      const reasons = await t.store.db
        .selectFrom('suppressions')
        .select(['reason', 'source'])
        .orderBy('reason')
        .execute();
      expect(reasons).toEqual([
        { reason: 'complaint', source: 'sendgrid' },
        { reason: 'hard-bounce', source: 'sendgrid' },
      ]);
    });
  });
}
