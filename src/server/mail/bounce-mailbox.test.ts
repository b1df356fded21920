import { randomUUID } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../test/fixtures.ts';
import { DOVECOT, startDovecot, type TestDovecot } from '../test/dovecot.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../test/test-store.ts';
import { readBounceMailbox } from './bounce-mailbox.ts';
import { BounceIntake } from './bounces.ts';
import { newOutboxRow } from './outbox.ts';
import { Suppressions } from './suppression.ts';
import { Verp } from './verp.ts';

if (!DOVECOT)
  console.log(
    'bounce mailbox tests skipped: dovecot is not installed (apt-get install dovecot-imapd; .ci/run installs it)',
  );

const DOMAIN = 'bounces.dh.example';

// RFC 3464: a multipart/report to the envelope sender (our VERP address), a human part, the
// machine-readable delivery-status part (per-message fields, a blank line, per-recipient fields),
// and the returned headers.
const dsn = (to: string, recipient: string, action: string, status: string) =>
  [
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.net>',
    `To: ${to}`,
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <${randomUUID()}@mx.example.net>`,
    'Date: Sat, 21 Nov 2026 12:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
    '',
    '--B1',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'I am sorry to have to inform you that your message could not be delivered.',
    '',
    '--B1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    'Arrival-Date: Sat, 21 Nov 2026 11:59:58 +0000',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822; ${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${status.startsWith('5') ? '550' : '452'} ${status} mailbox problem`,
    '',
    '--B1',
    'Content-Type: text/rfc822-headers',
    '',
    `Return-Path: <${to}>`,
    'From: Diamond Hand <hello@dh.example>',
    `To: ${recipient}`,
    'Subject: Please confirm',
    '',
    '--B1--',
    '',
  ].join('\r\n');

// RFC 5965: a multipart/report of type feedback-report, the original message attached (its
// Return-Path is our VERP address; the recipient often redacted by the mailbox provider).
const arf = (returnPath: string, feedbackType = 'abuse') =>
  [
    'From: Feedback Loop <fbl@isp.example>',
    'To: fbl-reports@dh.example',
    'Subject: FW: Please confirm',
    `Message-ID: <${randomUUID()}@isp.example>`,
    'Date: Sat, 21 Nov 2026 12:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="B2"',
    '',
    '--B2',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is an email abuse report for an email message received from IP 192.0.2.1.',
    '',
    '--B2',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${feedbackType}`,
    'User-Agent: SomeGenerator/1.0',
    'Version: 1',
    '',
    '--B2',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    `Return-Path: <${returnPath}>`,
    'From: Diamond Hand <hello@dh.example>',
    'To: redacted@isp.example',
    'Subject: Please confirm',
    '',
    'Hello',
    '',
    '--B2--',
    '',
  ].join('\r\n');

const autoReply = (to: string) =>
  [
    `From: someone@example.com`,
    `To: ${to}`,
    'Subject: Out of office',
    `Message-ID: <${randomUUID()}@example.com>`,
    '',
    'I am away.',
    '',
  ].join('\r\n');

let dovecot: TestDovecot;
beforeAll(async () => {
  if (DOVECOT) dovecot = await startDovecot();
}, 30_000);
afterAll(async () => {
  await dovecot?.stop();
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip || !DOVECOT)(`the bounce mailbox over IMAP (real Dovecot) on ${label}`, () => {
    let store: TestStore;
    let suppressions: Suppressions;
    let verp: Verp;
    let intake: BounceIntake;
    let logged: string[];
    const clock = testClock();

    const imap = async <T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> => {
      const c = new ImapFlow({
        host: '127.0.0.1',
        port: dovecot.port,
        secure: false,
        doSTARTTLS: false,
        auth: { user: dovecot.user, pass: dovecot.password },
        logger: false,
      });
      await c.connect();
      try {
        return await fn(c);
      } finally {
        await c.logout();
      }
    };
    const deliver = (raw: string) => imap((c) => c.append('INBOX', raw));
    const unseen = () =>
      imap(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          return ((await c.search({ seen: false }, { uid: true })) || []).length;
        } finally {
          lock.release();
        }
      });
    /** A person and an email to them, sent: its VERP envelope sender. */
    const sent = async (email: string) => {
      const id = await insertSubscriber(store.db, email, { status: 'confirmed', now: clock() });
      const row = { ...newOutboxRow('note', id, clock()), status: 'sent' as const, sent_at: clock().toISOString() };
      await store.db.insertInto('outbox').values(row).execute();
      return { id, envelope: verp.address(row.id) };
    };
    const read = () =>
      readBounceMailbox({
        url: dovecot.url,
        intake,
        now: clock,
        log: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`),
      });

    beforeEach(async () => {
      store = await openTestStore(dialect);
      suppressions = new Suppressions(testSecrets());
      verp = new Verp(testSecrets(), DOMAIN);
      logged = [];
      intake = new BounceIntake(store.db, suppressions, verp, (msg, fields) =>
        logged.push(`${msg} ${JSON.stringify(fields)}`),
      );
      // Each test starts with every earlier message read.
      await imap(async (c) => {
        const lock = await c.getMailboxLock('INBOX');
        try {
          await c.messageFlagsAdd('1:*', ['\\Seen']).catch(() => undefined);
        } finally {
          lock.release();
        }
      });
    });
    afterEach(() => store.destroy());

    it('reads DSNs and feedback reports, suppresses whom they name, and marks each message seen', async () => {
      const dead = await sent('dead@example.com');
      const full = await sent('full@example.com');
      const late = await sent('late@example.com');
      const angry = await sent('angry@example.com');
      const fine = await sent('fine@example.com');
      await deliver(dsn(dead.envelope, 'dead@example.com', 'failed', '5.1.1'));
      await deliver(dsn(full.envelope, 'full@example.com', 'failed', '4.2.2'));
      await deliver(dsn(late.envelope, 'late@example.com', 'delayed', '4.4.7'));
      await deliver(arf(angry.envelope));
      await deliver(autoReply(fine.envelope));
      // A bounce for an email we never sent: a forged signature.
      await deliver(dsn(`bounces+${'0'.repeat(48)}@${DOMAIN}`, 'fine@example.com', 'failed', '5.1.1'));
      expect(await unseen()).toBe(6);

      expect(await read()).toBe(6);
      expect(await unseen()).toBe(0);
      expect(await suppressions.isSuppressed(store.db, 'dead@example.com')).toBe(true);
      expect(await suppressions.isSuppressed(store.db, 'angry@example.com')).toBe(true);
      // One soft bounce counts; a "delayed" warning and an auto-reply are no bounce.
      for (const a of ['full@example.com', 'late@example.com', 'fine@example.com'])
        expect(await suppressions.isSuppressed(store.db, a)).toBe(false);
      const events = await store.db.selectFrom('bounce_events').select(['kind', 'source']).orderBy('kind').execute();
      expect(events).toEqual([
        { kind: 'complaint', source: 'arf' },
        { kind: 'hard', source: 'dsn' },
        { kind: 'soft', source: 'dsn' },
      ]);
      const complained = await store.db
        .selectFrom('subscribers')
        .select('status')
        .where('id', '=', angry.id)
        .executeTakeFirstOrThrow();
      expect(complained.status).toBe('unsubscribed');
      expect(logged.some((l) => l.includes('"forged"'))).toBe(true);
      expect(logged.join('\n')).not.toMatch(/@example\.com/);

      // Read again: nothing new.
      expect(await read()).toBe(0);
    });

    it('says what is wrong when the mailbox refuses the password, and reads nothing', async () => {
      const wrong = dovecot.url.replace(`:${dovecot.password}@`, ':not-the-password@');
      await expect(readBounceMailbox({ url: wrong, intake, now: clock, log: () => undefined })).rejects.toThrow(
        /auth|fail|invalid/i,
      );
    });
  });
}
