import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { apiPaths } from '../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../test/built-app.ts';
import { dialectCases, openTestStore, testClock } from '../test/test-store.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ses-bounces';
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem';

// A CA of the test's own, and a signing certificate it issued, made with the openssl command.
let dir: string;
let ca: X509Certificate;
let leafPem: string;
let leafKey: KeyObject;
let strangerPem: string;
let strangerKey: KeyObject;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-sns-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Test SNS CA',
  );
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'leaf.key',
    '-out',
    'leaf.csr',
    '-subj',
    '/CN=sns.amazonaws.com',
  );
  ssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '1',
  );
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'stranger.key',
    '-out',
    'stranger.pem',
    '-days',
    '1',
    '-subj',
    '/CN=sns.amazonaws.com',
  );
  ca = new X509Certificate(readFileSync(path.join(dir, 'ca.pem')));
  leafPem = readFileSync(path.join(dir, 'leaf.pem'), 'utf8');
  leafKey = createPrivateKey(readFileSync(path.join(dir, 'leaf.key')));
  strangerPem = readFileSync(path.join(dir, 'stranger.pem'), 'utf8');
  strangerKey = createPrivateKey(readFileSync(path.join(dir, 'stranger.key')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// As AWS documents it: "Name\nvalue\n" for each signed field, in byte order of the names.
function signed(fields: Record<string, string>, key: KeyObject, version: '1' | '2' = '2'): Record<string, string> {
  const names =
    fields.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = names
    .filter((n) => fields[n] !== undefined)
    .map((n) => `${n}\n${fields[n]}\n`)
    .join('');
  const signature = sign(version === '1' ? 'sha1' : 'sha256', Buffer.from(text), key).toString('base64');
  return { ...fields, SignatureVersion: version, Signature: signature };
}

const notification = (message: unknown, now: Date, over: Record<string, string> = {}) => ({
  Type: 'Notification',
  MessageId: randomUUID(),
  TopicArn: TOPIC,
  Message: JSON.stringify(message),
  Timestamp: now.toISOString(),
  SigningCertURL: CERT_URL,
  UnsubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${TOPIC}:x`,
  ...over,
});

// As SES documents its bounce and complaint notifications.
const sesBounce = {
  notificationType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [
      {
        emailAddress: 'dead@example.com',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'smtp; 550 5.1.1 user unknown',
      },
    ],
    timestamp: '2026-11-21T12:00:00.000Z',
    feedbackId: '0100017a-bounce-feedback-id',
    reportingMTA: 'dsn; a8-82.smtp-out.amazonses.com',
  },
  mail: {
    timestamp: '2026-11-21T11:59:00.000Z',
    source: 'hello@dh.example',
    messageId: '0100017a-message',
    destination: ['dead@example.com'],
  },
};
const sesComplaint = {
  notificationType: 'Complaint',
  complaint: {
    complainedRecipients: [{ emailAddress: 'angry@example.com' }],
    timestamp: '2026-11-21T12:00:00.000Z',
    feedbackId: '0100017a-complaint-feedback-id',
    complaintFeedbackType: 'abuse',
  },
  mail: {
    timestamp: '2026-11-21T11:59:00.000Z',
    source: 'hello@dh.example',
    messageId: '0100017a-message-2',
    destination: ['angry@example.com'],
  },
};

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`Amazon SES through SNS on ${label}`, () => {
    let t: TestApp;
    let fetched: string[];
    const clock = testClock();

    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: apiPaths.sesWebhook,
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
        payload: JSON.stringify(body),
      });
    const suppressed = (address: string) => t.app.suppressions.isSuppressed(t.store.db, address);

    beforeEach(async () => {
      // The certificates are made now, so the clock is now.
      clock.set(new Date().toISOString());
      fetched = [];
      t = await buildTestApp({
        store: await openTestStore(dialect),
        clock,
        mailer: memoryMailer(),
        env: { SES_SNS_TOPIC_ARN: TOPIC },
        sns: {
          fetchCert: async (url) => {
            fetched.push(url);
            return leafPem;
          },
          trustAnchors: [ca],
        },
      });
    });
    afterEach(() => t.close());

    it('takes a signed bounce (signature v2 and v1) and complaint, and the same message only once', async () => {
      const bounce = signed(notification(sesBounce, clock()), leafKey);
      const res = await post(bounce);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ received: 1, counted: 1 });
      expect(await suppressed('dead@example.com')).toBe(true);
      expect(fetched).toEqual([CERT_URL]);
      expect((await post(bounce)).statusCode).toBe(409);

      const complaint = signed(notification(sesComplaint, clock()), leafKey, '1');
      expect((await post(complaint)).json()).toMatchObject({ received: 1, counted: 1 });
      expect(await suppressed('angry@example.com')).toBe(true);
      // The certificate is fetched once.
      expect(fetched).toEqual([CERT_URL]);
    });

    it('refuses a changed message, another topic, a certificate from elsewhere or not from the CA, and a stale one', async () => {
      const refused = async (body: unknown) => {
        const res = await post(body);
        expect(res.statusCode).toBe(401);
        expect(apiErrorSchema.parse(res.json()).error.code).toBe('unauthorized');
      };
      const good = signed(notification(sesBounce, clock()), leafKey);
      await refused(
        signed(notification(sesBounce, clock(), { TopicArn: 'arn:aws:sns:eu-west-1:123456789012:other' }), leafKey),
      );
      for (const url of [
        'https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem',
        'https://sns.us-east-1.amazonaws.com/cert.pem',
        'http://sns.eu-west-1.amazonaws.com/cert.pem',
        'https://evil.example/?x=sns.eu-west-1.amazonaws.com/cert.pem',
      ]) {
        await refused(signed(notification(sesBounce, clock(), { SigningCertURL: url }), leafKey));
      }
      // None of those addresses was ever fetched.
      expect(fetched).toEqual([]);
      await refused({ ...good, Message: (good.Message ?? '').replace('dead@', 'live@') });
      const rebuild = async (pem: string) => {
        await t.close();
        t = await buildTestApp({
          store: await openTestStore(dialect),
          clock,
          mailer: memoryMailer(),
          env: { SES_SNS_TOPIC_ARN: TOPIC },
          sns: { fetchCert: async () => pem, trustAnchors: [ca] },
        });
      };
      // Signed by a certificate the CA never issued, served at SNS's own address.
      await rebuild(strangerPem);
      await refused(signed(notification(sesBounce, clock()), strangerKey));
      await rebuild(leafPem);
      await refused(signed(notification(sesBounce, new Date(clock().getTime() - 10 * 60_000)), leafKey));
      expect(await suppressed('dead@example.com')).toBe(false);
    });

    it('a subscription confirmation is logged for a person to confirm, and its URL is never fetched', async () => {
      const subscribe = signed(
        {
          Type: 'SubscriptionConfirmation',
          MessageId: randomUUID(),
          Token: '2336412f37fb687f5d51e6e2425',
          TopicArn: TOPIC,
          Message:
            'You have chosen to subscribe to the topic. To confirm the subscription, visit the SubscribeURL included in this message.',
          SubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37fb687f5d51e6e2425`,
          Timestamp: clock().toISOString(),
          SigningCertURL: CERT_URL,
        },
        leafKey,
      );
      const res = await post(subscribe);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ received: 0 });
      expect(fetched).toEqual([CERT_URL]);
    });

    it('answers 404 when no topic is configured', async () => {
      await t.close();
      t = await buildTestApp({ store: await openTestStore(dialect), clock, mailer: memoryMailer() });
      expect((await post(signed(notification(sesBounce, clock()), leafKey))).statusCode).toBe(404);
    });
  });
}
