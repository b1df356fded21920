import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

// Property, as the sign-up's fuzz test has it: whatever reaches a provider's webhook, never a 5xx;
// every refusal is the one error shape, in words, and stores nothing (an authorised Postmark body
// that happens to be a well-formed bounce may be taken: that is the webhook working). Postmark is
// fuzzed with its right credentials, so the body reaches the parsing behind the signature check;
// the signed providers are fuzzed with made-up signatures (the check itself must not throw).
const POSTMARK = { user: 'postmark', password: 'a-long-webhook-password' };
const env = {
  POSTMARK_WEBHOOK_USER: POSTMARK.user,
  POSTMARK_WEBHOOK_PASSWORD: POSTMARK.password,
  MAILGUN_WEBHOOK_SIGNING_KEY: 'key-0123456789abcdef0123456789abcdef',
  SENDGRID_WEBHOOK_PUBLIC_KEY: generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .publicKey.export({ format: 'der', type: 'spki' })
    .toString('base64'),
  SES_SNS_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:dh-bounces',
};
const authorised = {
  authorization: `Basic ${Buffer.from(`${POSTMARK.user}:${POSTMARK.password}`).toString('base64')}`,
};

const routes = [apiPaths.postmarkWebhook, apiPaths.mailgunWebhook, apiPaths.sendgridWebhook, apiPaths.sesWebhook];

// Bodies a provider (or an attacker pretending to be one) might send: any JSON, JSON shaped like
// the real events with hostile values, and bytes that are not JSON at all.
const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom('\u0000', '\u2063', '0x', 'a'.repeat(5000), '<script>'),
  fc.integer(),
  fc.constant(null),
);
const eventLike = fc.record({
  RecordType: fc.constantFrom('Bounce', 'SpamComplaint', 'Delivery', 'Other'),
  ID: fc.oneof(fc.integer(), hostile),
  Type: fc.oneof(fc.constantFrom('HardBounce', 'SoftBounce'), hostile),
  Email: fc.oneof(fc.emailAddress(), hostile),
  'event-data': fc.dictionary(fc.string(), hostile),
  signature: fc.dictionary(fc.constantFrom('timestamp', 'token', 'signature'), hostile),
  Type_: hostile,
});
const body = fc.oneof(
  fc.json().map((j) => ({ raw: j, type: 'application/json' })),
  fc.array(eventLike, { maxLength: 3 }).map((a) => ({ raw: JSON.stringify(a), type: 'application/json' })),
  eventLike.map((e) => ({ raw: JSON.stringify(e), type: 'application/json' })),
  fc.string().map((s) => ({ raw: s, type: 'text/plain' })),
);

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the providers' webhooks under fuzzing on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    beforeAll(async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({ store, mailer: memoryMailer(), env });
    });
    afterAll(async () => {
      await t.close();
      await store.destroy();
    });

    const stored = async () => {
      const n = async (table: 'suppressions' | 'bounce_events') =>
        Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return (await n('suppressions')) + (await n('bounce_events'));
    };

    it('never answers 5xx; a refusal is in words, in the one error shape, and stores nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          body,
          fc.boolean(),
          fc.dictionary(
            fc.constantFrom(
              'x-twilio-email-event-webhook-signature',
              'x-twilio-email-event-webhook-timestamp',
              'x-amz-sns-message-type',
            ),
            fc.string({ maxLength: 40 }),
          ),
          async (url, b, withAuth, headers) => {
            const before = await stored();
            const res = await t.app.inject({
              method: 'POST',
              url,
              headers: { 'content-type': b.type, ...headers, ...(withAuth ? authorised : {}) },
              payload: b.raw,
            });
            expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBeLessThan(500);
            if (res.statusCode >= 400) {
              const error = apiErrorSchema.parse(res.json()).error;
              expect(error.message.length).toBeGreaterThan(10);
              expect(res.body).not.toMatch(/\n\s+at /); // no stack trace
              expect(await stored()).toBe(before);
            }
          },
        ),
        {
          numRuns: 150,
          examples: [
            // Found by this test: a NUL in a Postmark field reached PostgreSQL, which cannot store one (a 500).
            [
              apiPaths.postmarkWebhook,
              {
                raw: JSON.stringify({ RecordType: 'SpamComplaint', ID: 0, Type: '\u0000', Email: 'a@a.aa' }),
                type: 'application/json',
              },
              true,
              {},
            ],
            [
              apiPaths.postmarkWebhook,
              {
                raw: JSON.stringify({ RecordType: 'Bounce', ID: '\u0000', Type: 'HardBounce', Email: 'b\u0000@a.aa' }),
                type: 'application/json',
              },
              true,
              {},
            ],
          ],
        },
      );
    });
  });
}
