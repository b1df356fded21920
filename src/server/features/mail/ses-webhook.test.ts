import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { SnsVerifier } from './sns.ts';
import { webhookLimits } from './webhook-json.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, testClock } from '../../test/test-store.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ses-bounces';
const certUrl = (hex: string) => `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${hex}.pem`;
// The shape of every certificate URL SNS sends: a 32-digit hex name.
const CERT_URL = certUrl('9c6465fa7f48f5cacd23014631ec1136');

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
        // As SNS posts: text/plain, the type and the topic in headers too.
        headers: {
          'content-type': 'text/plain; charset=UTF-8',
          'x-amz-sns-message-type': 'Notification',
          'x-amz-sns-topic-arn': TOPIC,
        },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
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
        // SNS's own host, but not the path shape of its certificates: nothing there is fetched.
        'https://sns.eu-west-1.amazonaws.com/cert.pem',
        'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-not-hex.pem',
        'https://sns.eu-west-1.amazonaws.com/a/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
        'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-9C6465FA7F48F5CACD23014631EC1136.pem',
        `${CERT_URL}?Action=anything`,
        `${CERT_URL}#x`,
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

    it('refuses a message whose topic header names another topic before its body is read', async () => {
      // Twice the route's body limit: read, it would be a 413; refused on its headers, a 401.
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.sesWebhook,
        headers: { 'content-type': 'text/plain', 'x-amz-sns-topic-arn': `${TOPIC}-other` },
        payload: 'x'.repeat(2 * webhookLimits.ses.bodyBytes),
      });
      expect(res.statusCode).toBe(401);
      expect(apiErrorSchema.parse(res.json()).error.code).toBe('unauthorized');
      const missing = await t.app.inject({
        method: 'POST',
        url: apiPaths.sesWebhook,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify(signed(notification(sesBounce, clock()), leafKey)),
      });
      expect(missing.statusCode).toBe(401);
      expect(fetched).toEqual([]);
    });

    it('takes a notification as large as SNS sends (a 256 KiB message, re-escaped) and refuses a larger body', async () => {
      // A bounce whose message is just under SNS's 256 KiB: long diagnostic codes, many recipients.
      const recipient = (i: number) => ({
        emailAddress: `r${i}-${'x'.repeat(40)}@example.com`,
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: `smtp; 550 5.1.1 "${'quoted reason '.repeat(30)}"`,
      });
      const recipients: ReturnType<typeof recipient>[] = [];
      const big = () => ({ ...sesBounce, bounce: { ...sesBounce.bounce, bouncedRecipients: recipients } });
      while (JSON.stringify(big()).length < 256 * 1024 - 1024) recipients.push(recipient(recipients.length));
      const body = JSON.stringify(signed(notification(big(), clock()), leafKey));
      // The escaped message makes the body well past the nginx example's old 64 KB and past 256 KiB.
      expect(body.length).toBeGreaterThan(256 * 1024);
      expect(body.length).toBeLessThanOrEqual(webhookLimits.ses.bodyBytes);
      const res = await post(body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ received: recipients.length });

      const tooBig = await post(`${body}${' '.repeat(webhookLimits.ses.bodyBytes)}`);
      expect(tooBig.statusCode).toBe(413);
      expect(apiErrorSchema.parse(tooBig.json()).error.code).toBe('payload_too_large');
    });

    it('fetches at most three certificates a minute: a fourth new one waits (503 with Retry-After)', async () => {
      const urls = ['1', '2', '3', '4'].map((d) => certUrl(d.repeat(32)));
      const answers = [];
      for (const url of urls)
        answers.push(await post(signed(notification(sesBounce, clock(), { SigningCertURL: url }), leafKey)));
      expect(answers.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
      const waited = answers[3];
      expect(waited?.statusCode).toBe(503);
      expect(Number(waited?.headers['retry-after'])).toBeGreaterThan(0);
      expect(apiErrorSchema.parse(waited?.json()).error.code).toBe('unavailable');
      expect(fetched).toEqual(urls.slice(0, 3));
      // A minute on, SNS's retry is checked.
      clock.set(new Date(clock().getTime() + 61_000).toISOString());
      const retried = await post(signed(notification(sesBounce, clock(), { SigningCertURL: urls[3] ?? '' }), leafKey));
      expect(retried.statusCode).toBe(200);
      expect(fetched).toEqual(urls);
    });

    it('answers 404 when no topic is configured', async () => {
      await t.close();
      t = await buildTestApp({ store: await openTestStore(dialect), clock, mailer: memoryMailer() });
      expect((await post(signed(notification(sesBounce, clock()), leafKey))).statusCode).toBe(404);
    });
  });
}

// The certificate cache's rules, on the verifier itself (no store involved).
describe('SNS signing certificates: what a stranger who knows the topic can make us fetch', () => {
  const now = () => new Date();
  const verifierWith = (fetched: string[], opts: { fetchesPerMinute?: number } = {}) =>
    new SnsVerifier({
      topicArn: TOPIC,
      fetchCert: async (url) => {
        fetched.push(url);
        return leafPem;
      },
      trustAnchors: [ca],
      ...opts,
    });
  const forged = (url: string, at: Date) => ({
    ...signed(notification(sesBounce, at, { SigningCertURL: url }), strangerKey),
  });

  it('accepts only the path shape of SNS certificates', () => {
    const v = verifierWith([]);
    expect(v.certUrl(CERT_URL)).toBe(true);
    expect(v.certUrl(certUrl('0'.repeat(64)))).toBe(true);
    for (const url of [
      certUrl('0'.repeat(31)),
      certUrl('g'.repeat(32)),
      'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-.pem',
      'https://sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com//SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem',
      `${CERT_URL}?a=b`,
      CERT_URL.replace('https:', 'http:'),
    ]) {
      expect(v.certUrl(url), url).toBe(false);
    }
  });

  it('never lets unverified messages push out a certificate that has verified a message', async () => {
    const fetched: string[] = [];
    let at = now();
    const v = verifierWith(fetched);
    // The real certificate verifies a real message.
    await v.verify(signed(notification(sesBounce, at), leafKey), at);
    // A stranger names many other well-shaped certificate URLs, a minute's budget at a time (each
    // message's signature fails, so none of those certificates ever verifies anything).
    for (let i = 1; i <= 12; i++) {
      if (i % 3 === 1) at = new Date(at.getTime() + 61_000);
      await expect(v.verify(forged(certUrl(i.toString(16).padStart(32, '0')), at), at)).rejects.toThrow(
        /signature does not match/,
      );
    }
    expect(fetched).toHaveLength(13);
    // The real one is still kept: SNS's next message is checked without fetching it again, even
    // with this minute's fetches spent.
    await v.verify(signed(notification(sesComplaint, at), leafKey), at);
    expect(fetched.filter((u) => u === CERT_URL)).toHaveLength(1);
  });

  it('refuses a stale message before fetching anything, and counts fetches per minute', async () => {
    const fetched: string[] = [];
    const at = now();
    const v = verifierWith(fetched, { fetchesPerMinute: 2 });
    const old = new Date(at.getTime() - 10 * 60_000);
    await expect(v.verify(signed(notification(sesBounce, old), leafKey), at)).rejects.toThrow(/five minutes/);
    expect(fetched).toEqual([]);
    await expect(v.verify(forged(certUrl('a'.repeat(32)), at), at)).rejects.toThrow(/signature/);
    await expect(v.verify(forged(certUrl('b'.repeat(32)), at), at)).rejects.toThrow(/signature/);
    await expect(v.verify(forged(certUrl('c'.repeat(32)), at), at)).rejects.toThrow(/fetched in the last minute/);
    // A certificate already fetched costs nothing more.
    await expect(v.verify(forged(certUrl('a'.repeat(32)), at), at)).rejects.toThrow(/signature does not match/);
    expect(fetched).toHaveLength(2);
  });
});
