import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../content/site-content.ts';
import { parseSiteContent } from '../../shared/content-schema.ts';
import { confirmationComposer } from '../signups/confirmation-composer.ts';
import { signupJob } from '../signups/signup-store.ts';
import { GroupCommitter } from '../store/group-commit.ts';
import { openStore } from '../store/database.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../test/test-store.ts';
import { smtpMailer } from './mailer.ts';
import { OutboxWorker, retryDelayMs } from './outbox-worker.ts';

const content = parseSiteContent(siteContent);
const FROM = 'Diamond Hand <no-reply@dh.example>';

describe('retryDelayMs', () => {
  it('backs off from 30 s, doubling, up to 16 min', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n) / 1000)).toEqual([30, 60, 120, 240, 480, 960, 960, 960]);
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`outbox worker on ${label}, mailing a real SMTP server`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    const clock = testClock();

    const worker = (smtpUrl: string, db = store.db) =>
      new OutboxWorker({
        db,
        dialect,
        mailer: smtpMailer(smtpUrl, FROM),
        clock,
        compose: confirmationComposer({ db, content, publicUrl: 'https://dh.example', secret: 'k'.repeat(32) }),
      });

    const signUp = (email: string) =>
      new GroupCommitter(store.db).run(signupJob({ name: 'Ada', email, comment: '' }, { now: clock(), page: '/' }));

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await sink.close();
      await store.destroy();
    });

    it('sends a confirmation email with text and HTML parts, links and one-click unsubscribe headers', async () => {
      await signUp('ada@example.com');
      expect(await worker(sink.url).runOnce()).toBe(1);
      const [mail] = await sink.waitFor(1);
      if (!mail) throw new Error('no mail');
      expect(mail.subject).toBe('Confirm your sign-up to Diamond Hand (DH)');
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ada@example.com');
      expect(mail.text).toContain('Hi Ada,');
      expect(mail.html).toContain('Confirm my sign-up');
      expect(linkIn(mail, 'confirm')).toMatch(/^https:\/\/dh\.example\/confirm\?token=[\w-]{43}$/);
      const unsubscribe = linkIn(mail, 'unsubscribe');
      // Unfolded (RFC 5322 §2.2.3) so a long header reads as one line.
      const header = (key: string) => (mail.headerLines.find((h) => h.key === key)?.line ?? '').replace(/\r\n\s+/g, ' ');
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${unsubscribe}>`);
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      // Only the hash of the link's token is stored.
      const token = new URL(linkIn(mail, 'confirm')).searchParams.get('token') ?? '';
      expect(row.token_hash).not.toBe(token);
      expect(JSON.stringify(await store.db.selectFrom('subscribers').selectAll().execute())).not.toContain(token);
    });

    it('retries with back-off while the mail server is down, then delivers once it is back', async () => {
      const port = sink.port;
      await sink.close();
      await signUp('bob@example.com');
      const w = worker(`smtp://127.0.0.1:${port}`);
      await w.runOnce();
      let row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: '2026-11-21T12:00:30.000Z' });
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

      expect(await w.runOnce()).toBe(0); // not due yet
      clock.advance(30_000);
      await w.runOnce();
      row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 2, next_attempt_at: '2026-11-21T12:01:30.000Z' });

      sink = await startSmtpSink(port);
      clock.advance(60_000);
      expect(await w.runOnce()).toBe(1);
      const [mail] = await sink.waitFor(1);
      expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('bob@example.com');
      row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
    });

    it('two instances sharing the database never send the same email twice', async () => {
      for (let i = 0; i < 30; i++) await signUp(`p${i}@example.com`);
      const second = await openStore(store.url, store.pgSchema ? { pgSchema: store.pgSchema } : {});
      try {
        const a = worker(sink.url);
        const b = worker(sink.url, second.db);
        const drain = async (w: OutboxWorker) => {
          while ((await w.runOnce()) > 0);
        };
        await Promise.all([drain(a), drain(b)]);
        const mails = await sink.waitFor(30);
        await new Promise((r) => setTimeout(r, 200));
        const recipients = mails.map((m) => (m.to && 'text' in m.to ? m.to.text : ''));
        expect(recipients).toHaveLength(30);
        expect(new Set(recipients).size).toBe(30);
      } finally {
        await second.close();
      }
    });

    it('does not mail someone who unsubscribed or confirmed before the email went out', async () => {
      const { subscriberId } = await signUp('carol@example.com');
      await store.db.updateTable('subscribers').set({ status: 'unsubscribed' }).where('id', '=', subscriberId).execute();
      await worker(sink.url).runOnce();
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('cancelled');
      expect(sink.messages).toHaveLength(0);
    });
  });
}
