import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';
import { RETRY_BASE_MS } from './outbox-worker.ts';

// The fault "SMTP down" (issue 11): sign-ups are taken while the mail server refuses connections,
// and their confirmations go out once it is back. The worker's clock is the test's, so its
// back-off is skipped by moving the clock rather than by waiting 30 s.
for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`sign-ups while the mail server is down, on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink | undefined;
    let t: TestApp;
    let port: number;

    beforeEach(async () => {
      store = await openTestStore(dialect);
      // A port that was a mail server's a moment ago and refuses connections now.
      const gone = await startSmtpSink();
      port = gone.port;
      await gone.close();
      t = await buildTestApp({
        store,
        env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_CONCURRENCY: '2' },
        mailer: 'from-env',
      });
    });
    afterEach(async () => {
      await t.close();
      await sink?.close();
      sink = undefined;
      await store.destroy();
    });

    const outbox = () =>
      store.db
        .selectFrom('outbox')
        .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
        .select(['subscribers.email', 'outbox.status', 'outbox.attempts', 'outbox.last_error'])
        .orderBy('subscribers.email')
        .execute();

    it('accepts the sign-ups and delivers their emails once the server is back', async () => {
      const people = ['ana@example.com', 'ben@example.com', 'cai@example.com'];
      for (const email of people) {
        const visitor = await visitPage(t.app);
        t.clock.advance(4000);
        const res = await postSignupJson(t.app, visitor, { name: 'Someone', email });
        expect(res.statusCode).toBe(200);
      }
      await t.app.jobs.runOnce('outbox');
      for (const row of await outbox()) {
        expect(row).toMatchObject({ status: 'pending', attempts: 1 });
        expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
      }

      sink = await startSmtpSink(port);
      // Not due before the back-off has passed, even with the server back.
      await t.app.jobs.runOnce('outbox');
      expect(sink.messages).toHaveLength(0);
      t.clock.advance(RETRY_BASE_MS);
      await t.app.jobs.runOnce('outbox');
      const mails = await sink.waitFor(3);
      expect(mails.map((m) => (m.to && 'text' in m.to ? m.to.text : '')).sort()).toEqual(people);
      expect(mails.every((m) => m.subject?.startsWith('Confirm your sign-up'))).toBe(true);
      expect((await outbox()).map((r) => [r.email, r.status, r.attempts])).toEqual(people.map((p) => [p, 'sent', 2]));
    });
  });
}
