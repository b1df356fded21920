import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { p256 } from '@noble/curves/nist.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, testClock } from '../../test/test-store.ts';
import { webhookLimits } from './webhook-json.ts';

const POSTMARK = { user: 'postmark', password: 'a-long-webhook-password' };
const MAILGUN_KEY = 'key-0123456789abcdef0123456789abcdef';
const sendgridPair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const SENDGRID_PUBLIC = sendgridPair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

const SES_TOPIC = 'arn:aws:sns:eu-west-1:123456789012:dh-bounces';
const configured = {
  POSTMARK_WEBHOOK_USER: POSTMARK.user,
  POSTMARK_WEBHOOK_PASSWORD: POSTMARK.password,
  MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY,
  SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_PUBLIC,
  SES_SNS_TOPIC_ARN: SES_TOPIC,
};

/** JSON arrays nested as deep as `bytes` allows: the body that cost the event loop seconds. */
const nested = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

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

const providerOf = (url: string | undefined): keyof typeof webhookLimits =>
  url === apiPaths.postmarkWebhook
    ? 'postmark'
    : url === apiPaths.mailgunWebhook
      ? 'mailgun'
      : url === apiPaths.sendgridWebhook
        ? 'sendgrid'
        : 'ses';

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

    it("refuses deeply nested bodies (1 MiB, and at each route's limit) before any JSON parse, ten at a time, without holding the event loop", async () => {
      // Past the header checks each provider has (credentials, a valid signature, the topic), so
      // that what refuses them is the size or depth limit, not the proof.
      const requests: { url: string; body: string; headers: Record<string, string> }[] = [];
      const add = (url: string, body: string, headers: (body: string) => Record<string, string>) =>
        requests.push({ url, body, headers: headers(body) });
      for (const bytes of [1024 * 1024, 'limit'] as const) {
        const size = (limit: number) => (bytes === 'limit' ? limit - (limit % 2) : bytes);
        add(apiPaths.postmarkWebhook, nested(size(webhookLimits.postmark.bodyBytes)), () => ({
          authorization: basic(POSTMARK.user, POSTMARK.password),
        }));
        add(apiPaths.mailgunWebhook, nested(size(webhookLimits.mailgun.bodyBytes)), () => ({}));
        add(apiPaths.sendgridWebhook, nested(size(webhookLimits.sendgrid.bodyBytes)), (b) =>
          sendgridHeaders(b, clock()),
        );
        add(apiPaths.sesWebhook, nested(size(webhookLimits.ses.bodyBytes)), () => ({
          'content-type': 'text/plain',
          'x-amz-sns-topic-arn': SES_TOPIC,
        }));
      }
      const parse = vi.spyOn(JSON, 'parse');
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      try {
        const answers = await Promise.all(
          requests.flatMap((r) => Array.from({ length: 10 }, () => post(r.url, r.body, r.headers))),
        );
        loop.disable();
        for (const [i, res] of answers.entries()) {
          const sent = requests[Math.floor(i / 10)];
          const tooBig = (sent?.body.length ?? 0) > webhookLimits[providerOf(sent?.url)].bodyBytes;
          expect(res.statusCode, `${sent?.url} ${sent?.body.length}`).toBe(tooBig ? 413 : 400);
          expect(errorOf(res).code).toBe(tooBig ? 'payload_too_large' : 'bad_request');
          if (!tooBig) expect(errorOf(res).message).toMatch(/nests deeper than \d+ levels/);
        }
        // The condition: none of these bodies ever reached a JSON parse (before, each did).
        const bodies = new Set(requests.map((r) => r.body));
        expect(parse.mock.calls.filter(([text]) => bodies.has(text))).toEqual([]);
        // And a generous bound on what the loop was held for (it was seconds before).
        expect(loop.max / 1e6).toBeLessThan(1000);
      } finally {
        loop.disable();
        parse.mockRestore();
      }
      expect(await t.store.db.selectFrom('bounce_events').select('event_id').execute()).toEqual([]);
    });

    it('refuses bad Postmark credentials and bad SendGrid signature headers before the body is read, and a bad SendGrid signature before it is parsed', async () => {
      // Bodies twice the route's limit: read, they would be 413s; refused on their headers, 401s.
      const postmarkBody = JSON.stringify(
        postmarkBounce({ Content: 'x'.repeat(2 * webhookLimits.postmark.bodyBytes) }),
      );
      const wrong = await post(apiPaths.postmarkWebhook, postmarkBody, {
        authorization: basic(POSTMARK.user, 'guessed-password-123'),
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
      const sendgridBody = nested(2 * webhookLimits.sendgrid.bodyBytes);
      for (const headers of [
        {},
        { ...sendgridHeaders('[]', clock()), 'x-twilio-email-event-webhook-signature': 'not a signature' },
        sendgridHeaders('[]', new Date(clock().getTime() - 6 * 60_000)),
      ]) {
        const res = await post(apiPaths.sendgridWebhook, sendgridBody, headers);
        expect(res.statusCode).toBe(401);
        expect(errorOf(res).code).toBe('unauthorized');
      }
      // A well-formed signature that is not SendGrid's: the body is read (the signature covers
      // it) but never parsed.
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const raw = JSON.stringify(sendgridEvents);
        const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
        const forged = await post(apiPaths.sendgridWebhook, raw, sendgridHeaders(raw, clock(), otherKey));
        expect(forged.statusCode).toBe(401);
        expect(parse.mock.calls.filter(([text]) => text === raw || text === postmarkBody)).toEqual([]);
      } finally {
        parse.mockRestore();
      }
    });

    it("takes each provider's largest documented payloads, and refuses a body past its route's limit", async () => {
      // SendGrid: a batch as large as it sends (it posts when a batch reaches 768 KB).
      const batch = [];
      for (let i = 0; JSON.stringify(batch).length < 800 * 1024; i++) {
        batch.push({
          email: `b${i}@example.com`,
          timestamp: 1763726400,
          // Mostly deliveries (as a real batch is); a bounce in twenty, each stored.
          event: i % 20 ? 'delivered' : 'bounce',
          type: 'bounce',
          status: '5.1.1',
          reason: `550 5.1.1 <b${i}@example.com>: Recipient address rejected: ${'User unknown in virtual mailbox table; '.repeat(3)}`,
          sg_event_id: `sg-big-${i}`,
          sg_message_id: `m${i}.filter0001p1las1-12345-5F8A1B2C-1.0`,
          category: ['launch', 'confirmation'],
          'smtp-id': `<m${i}@dh.example>`,
        });
      }
      const raw = JSON.stringify(batch);
      const big = await post(apiPaths.sendgridWebhook, raw, sendgridHeaders(raw, clock()));
      expect(big.statusCode, big.body).toBe(200);
      expect(big.json()).toMatchObject({ received: Math.ceil(batch.length / 20) });

      // Postmark: a bounce with its dump ("Include bounce content") of 200 KB.
      const auth = { authorization: basic(POSTMARK.user, POSTMARK.password) };
      const dump = `Return-Path: <>\r\nContent-Type: multipart/report\r\n\r\n${'A bounced message line.\r\n'.repeat(8000)}`;
      const withDump = await post(
        apiPaths.postmarkWebhook,
        postmarkBounce({ Content: dump, Metadata: { user: '1' } }),
        auth,
      );
      expect(withDump.statusCode, withDump.body).toBe(200);

      // Mailgun: an event with its largest parts (the SMTP reply, headers, attachments, variables).
      const mailgunBig = mailgunFailed({
        'delivery-status': {
          code: 550,
          'enhanced-code': '5.1.1',
          message: '5.1.1 The email account that you tried to reach does not exist. '.repeat(100),
          description: 'x'.repeat(4000),
          'attempt-no': 1,
        },
        message: {
          headers: { 'message-id': 'big@dh.example', to: 'dead@example.com', from: 'hello@dh.example', subject: 'Hi' },
          attachments: [{ filename: 'a.txt', 'content-type': 'text/plain', size: 10 }],
          size: 20000,
        },
        'user-variables': { campaign: 'launch', nested: { a: [1, 2, 3] } },
        envelope: { sender: 'bounces@dh.example', targets: 'dead@example.com', transport: 'smtp' },
        flags: { 'is-routed': false, 'is-authenticated': true },
      });
      const mailgunRes = await post(apiPaths.mailgunWebhook, mailgunBody(clock(), mailgunBig));
      expect(mailgunRes.statusCode, mailgunRes.body).toBe(200);

      // One byte past each route's limit: 413 in the one shape (checked with valid proof where
      // the proof is in the headers, so the size is what refuses it).
      const over = (limit: number) => ' '.repeat(limit + 1);
      const refused = [
        await post(apiPaths.postmarkWebhook, over(webhookLimits.postmark.bodyBytes), auth),
        await post(apiPaths.mailgunWebhook, over(webhookLimits.mailgun.bodyBytes)),
        await post(
          apiPaths.sendgridWebhook,
          over(webhookLimits.sendgrid.bodyBytes),
          sendgridHeaders(over(webhookLimits.sendgrid.bodyBytes), clock()),
        ),
      ];
      for (const res of refused) {
        expect(res.statusCode).toBe(413);
        expect(errorOf(res).code).toBe('payload_too_large');
      }
      // Each names its own route's limit, never the forms' 16 KB.
      const [postmark, mailgun, sendgrid] = refused.map((res) => errorOf(res).message);
      expect(postmark).toContain('(256 KB at most)');
      expect(mailgun).toContain('(64 KB at most)');
      expect(sendgrid).toContain('(1 MB at most)');
      for (const message of [postmark, mailgun, sendgrid]) expect(message).not.toContain('16 KB');
    });

    it('SendGrid: the same signature re-encoded (base64url, unpadded) or as (r, n − s) is the same nonce: 409', async () => {
      const raw = JSON.stringify(sendgridEvents);
      const headers = sendgridHeaders(raw, clock());
      const signature = headers['x-twilio-email-event-webhook-signature'];
      expect((await post(apiPaths.sendgridWebhook, raw, headers)).statusCode).toBe(200);
      const der = Buffer.from(signature, 'base64');
      const parsed = p256.Signature.fromBytes(der, 'der');
      const twin = Buffer.from(new p256.Signature(parsed.r, p256.Point.Fn.ORDER - parsed.s).toBytes('der'));
      for (const respelled of [
        der.toString('base64url'),
        der.toString('base64').replace(/=+$/, ''),
        twin.toString('base64'),
        twin.toString('base64url'),
      ]) {
        const res = await post(apiPaths.sendgridWebhook, raw, {
          ...headers,
          'x-twilio-email-event-webhook-signature': respelled,
        });
        expect(res.statusCode, respelled).toBe(409);
        expect(errorOf(res).code).toBe('conflict');
      }
      expect(await t.store.db.selectFrom('webhook_nonces').select('nonce').execute()).toHaveLength(1);
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
