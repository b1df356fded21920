import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../../test/fixtures.ts';
import { DOVECOT, startDovecot, whileWatchingByIdle, type TestDovecot } from '../../test/dovecot.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { BOUNCE_MAX_BYTES, OVERSIZED_FOLDER, readBounceMailbox } from './bounce-mailbox.ts';
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

    const deliver = (raw: string) => dovecot.imap((c) => c.append('INBOX', raw));
    const unseen = () =>
      dovecot.imap(async (c) => {
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
      await dovecot.markAllSeen();
    });
    afterEach(() => store.destroy());

    // Real IMAP round trips to Dovecot for each message: about 6 s here.
    it(
      'reads DSNs and feedback reports, suppresses whom they name, and marks each message seen',
      { timeout: 40_000 },
      async () => {
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
      },
    );

    const flagsIn = (folder: string) =>
      dovecot.imap(async (c) => {
        if (!(await c.list()).some((f) => f.path === folder)) return [];
        const lock = await c.getMailboxLock(folder);
        try {
          const found: { seen: boolean; subject: string }[] = [];
          if (c.mailbox && c.mailbox.exists > 0)
            for await (const m of c.fetch('1:*', { flags: true, envelope: true }))
              found.push({ seen: m.flags?.has('\\Seen') ?? false, subject: m.envelope?.subject ?? '' });
          return found;
        } finally {
          lock.release();
        }
      });

    it('moves a message larger than any report aside unread, and reads the rest', async () => {
      const big = await sent('big@example.com');
      const dead = await sent('dead@example.com');
      // A DSN for a sent email, padded past 1 MB: today it would be downloaded, parsed and counted.
      const padded = dsn(big.envelope, 'big@example.com', 'failed', '5.1.1').replace(
        'I am sorry',
        `${'x'.repeat(76)}\r\n`.repeat(15_000) + 'I am sorry',
      );
      expect(padded.length).toBeGreaterThan(BOUNCE_MAX_BYTES);
      const asideBefore = (await flagsIn(OVERSIZED_FOLDER)).length;
      await deliver(padded);
      await deliver(dsn(dead.envelope, 'dead@example.com', 'failed', '5.1.1'));

      expect(await read()).toBe(2);
      // Moved aside, still unread for the person who looks; never counted.
      expect((await flagsIn(OVERSIZED_FOLDER)).slice(asideBefore)).toEqual([
        { seen: false, subject: 'Undelivered Mail Returned to Sender' },
      ]);
      expect(await unseen()).toBe(0);
      expect(await suppressions.isSuppressed(store.db, 'big@example.com')).toBe(false);
      expect(await suppressions.isSuppressed(store.db, 'dead@example.com')).toBe(true);
      const aside = logged.find((l) => l.startsWith('bounce mailbox message too large; moved aside unread'));
      expect(aside).toMatch(/"bytes":\d{7}/);
      expect(logged.join('\n')).not.toMatch(/@example\.com/);
    });

    it('matches a feedback report whose copy lost its Return-Path by our signed Message-ID, never by unsigned text', async () => {
      const angry = await sent('angry@example.com');
      const forgedTarget = await sent('innocent@example.com');
      const named = await sent('named@example.com');
      const rowOf = async (id: string) =>
        (await store.db.selectFrom('outbox').select('id').where('subscriber_id', '=', id).executeTakeFirstOrThrow()).id;
      const messageId = verp.messageId(await rowOf(angry.id));
      // A receiver stripped the envelope: the copy has no Return-Path, only the headers we wrote.
      const stripped = (withMessageId: string, extra = '') =>
        arf('unused', 'abuse')
          .replace(/Return-Path: <unused>\r\n/, `Message-ID: ${withMessageId}\r\n`)
          .replace('Hello', `Hello${extra}`);
      await deliver(stripped(messageId));
      // The same shape with a signature that does not hold (one hex digit changed).
      const good = verp.messageId(await rowOf(forgedTarget.id));
      const forged = good.replace(/([0-9a-f])(@)/, (_, d: string, at: string) => `${d === '0' ? '1' : '0'}${at}`);
      await deliver(stripped(forged));
      // Only the person's address, and look-alikes of our ids as text in the body: never matched.
      const lookAlikeId = `<dh.${'ab'.repeat(24)}@${DOMAIN}>`;
      const lookAlikeVerp = `bounces+${'cd'.repeat(24)}@${DOMAIN}`;
      await deliver(
        arf('unused', 'abuse')
          .replace(/Return-Path: <unused>\r\n/, '')
          .replace('redacted@isp.example', 'named@example.com')
          .replace('Hello', `Hello, this was ${lookAlikeId}, sent by ${lookAlikeVerp}`),
      );

      expect(await read()).toBe(3);
      expect(await suppressions.isSuppressed(store.db, 'angry@example.com')).toBe(true);
      expect(
        (await store.db.selectFrom('subscribers').select('status').where('id', '=', angry.id).executeTakeFirstOrThrow())
          .status,
      ).toBe('unsubscribed');
      expect(await suppressions.isSuppressed(store.db, 'innocent@example.com')).toBe(false);
      expect(await suppressions.isSuppressed(store.db, 'named@example.com')).toBe(false);
      expect(named.envelope).not.toBe(lookAlikeVerp);
      // The forged one and the look-alikes: ignored as forged, each.
      expect(logged.filter((l) => l.startsWith('bounce mailbox message read') && l.includes('"forged"'))).toHaveLength(
        2,
      );
      expect(await store.db.selectFrom('bounce_events').select(['kind', 'source']).execute()).toEqual([
        { kind: 'complaint', source: 'arf' },
      ]);
    });

    it('classes a 5.7.1 DSN (a receiver’s filter) as a policy refusal, which does not suppress', async () => {
      const filtered = await sent('filtered@example.com');
      await deliver(dsn(filtered.envelope, 'filtered@example.com', 'failed', '5.7.1'));
      expect(await read()).toBe(1);
      expect(await store.db.selectFrom('bounce_events').select(['kind', 'source']).execute()).toEqual([
        { kind: 'policy', source: 'dsn' },
      ]);
      expect(await suppressions.isSuppressed(store.db, 'filtered@example.com')).toBe(false);
      expect(logged.some((l) => l.includes('"kind":"policy"') && l.includes('"outcome":"counted"'))).toBe(true);
    });

    it('hears a bounce by IMAP IDLE, without waiting for the poll', async () => {
      const log = (msg: string, fields: Record<string, unknown>) => logged.push(`${msg} ${JSON.stringify(fields)}`);
      const errors = await whileWatchingByIdle({ url: dovecot.url, intake, now: clock, log }, async () => {
        const dead = await sent('idle-dead@example.com');
        await deliver(dsn(dead.envelope, 'idle-dead@example.com', 'failed', '5.1.1'));
        await expect
          .poll(() => suppressions.isSuppressed(store.db, 'idle-dead@example.com'), { timeout: 15_000, interval: 100 })
          .toBe(true);
        // And the next one too, on the same watch.
        const full = await sent('idle-gone@example.com');
        await deliver(dsn(full.envelope, 'idle-gone@example.com', 'failed', '5.1.2'));
        await expect
          .poll(() => suppressions.isSuppressed(store.db, 'idle-gone@example.com'), { timeout: 15_000, interval: 100 })
          .toBe(true);
      });
      expect(errors).toEqual([]);
    });

    it('says what is wrong when the mailbox refuses the password, and reads nothing', async () => {
      const wrong = dovecot.url.replace(`:${dovecot.password}@`, ':not-the-password@');
      await expect(readBounceMailbox({ url: wrong, intake, now: clock, log: () => undefined })).rejects.toThrow(
        /auth|fail|invalid/i,
      );
    });
  });
}
