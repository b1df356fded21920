import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOVECOT, startDovecot, whileWatchingByIdle, type TestDovecot } from '../../test/dovecot.ts';
import { insertSubscriber, noteWorker } from '../../test/fixtures.ts';
import { CAN_RUN_POSTFIX, startPostfix, type TestPostfix } from '../../test/postfix.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { readBounceMailbox } from './bounce-mailbox.ts';
import { BounceIntake } from './bounces.ts';
import { smtpMailer, type Mailer } from './mailer.ts';
import { newOutboxRow } from './outbox.ts';
import type { OutboxWorker } from './outbox-worker.ts';
import { Suppressions } from './suppression.ts';
import { Verp } from './verp.ts';

// The whole way a bounce travels, with real programs: the outbox worker sends through a real
// Postfix, which relays to a stand-in receiver answering as real ones do (550 5.1.1 no such user,
// 452 4.2.2 mailbox full, 554 5.7.1 refused by a filter, or 250), writes its own DSNs (failed,
// delayed, expired) to our VERP senders and delivers them into a real Dovecot mailbox, which the
// app reads. A feedback report is made from the copy the receiver really got (Postfix relays
// without a Return-Path, as receivers that strip the envelope do) and goes the same way.

if (!CAN_RUN_POSTFIX || !DOVECOT)
  console.log(
    'Postfix bounce tests skipped: they need postfix and dovecot-imapd installed (.ci/run installs both) and root',
  );

const BOUNCE_DOMAIN = 'bounces.dh.example';
const FROM = 'Diamond Hand <hello@dh.example>';

const answers: Record<string, { code: number; message: string }> = {
  dead: { code: 550, message: '5.1.1 No such user here' },
  full: { code: 452, message: '4.2.2 Mailbox full, try again later' },
  filtered: { code: 554, message: '5.7.1 Message refused: it looks like spam' },
};

let dovecot: TestDovecot;
let postfix: TestPostfix;
let receiver: SmtpSink;
beforeAll(async () => {
  if (!CAN_RUN_POSTFIX || !DOVECOT) return;
  dovecot = await startDovecot();
  receiver = await startSmtpSink(0, (rcpt) => answers[rcpt.split('@')[0]?.split('.')[0] ?? ''] ?? null);
  postfix = await startPostfix({
    relayPort: receiver.port,
    bounceDomain: BOUNCE_DOMAIN,
    home: dovecot.home,
    mailOwner: dovecot.mailOwner,
  });
}, 60_000);
afterAll(async () => {
  await postfix?.stop();
  await receiver?.close();
  await dovecot?.stop();
});

const unseen = () =>
  dovecot.imap(async (c) => {
    const status = await c.status('INBOX', { unseen: true });
    return status ? (status.unseen ?? 0) : 0;
  });
/**
 * Waits, on the mailbox itself, until `n` unread messages have been delivered. Every two seconds
 * it asks Postfix to retry what it deferred: its queue manager can skip a deferred email it finds
 * still being delivered and then leave it until a later scan (seen in CI: the expiry's retry did
 * not come for 28 s), which a flush, as an operator's `postqueue -f`, brings forward.
 */
const untilUnseen = async (n: number) => {
  const deadline = Date.now() + 45_000;
  let flushAt = Date.now() + 2_000;
  for (;;) {
    const now = await unseen();
    if (now >= n) return now;
    if (Date.now() > deadline)
      throw new Error(`${now} of ${n} messages arrived in the mailbox; Postfix said:\n${postfix.log()}`);
    if (Date.now() >= flushAt) {
      flushAt = Date.now() + 2_000;
      await postfix.flush();
    }
    await new Promise((r) => setTimeout(r, 200));
  }
};

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip || !CAN_RUN_POSTFIX || !DOVECOT)(`bounces written by a real Postfix, on ${label}`, () => {
    let store: TestStore;
    let mailer: Mailer;
    let worker: OutboxWorker;
    const clock = testClock();
    const logged: string[] = [];
    const log = (msg: string, fields: Record<string, unknown>) => logged.push(`${msg} ${JSON.stringify(fields)}`);

    beforeEach(async () => {
      store = await openTestStore(dialect);
      logged.length = 0;
      // Each run starts with every earlier message read.
      await dovecot.markAllSeen();
    });
    afterEach(async () => {
      await worker?.stop();
      mailer?.close();
      await store.destroy();
    });

    /** The worker sending through Postfix, as the app does (VERP sender, signed Message-ID). */
    const sendingKit = () => {
      const secrets = testSecrets();
      const suppressions = new Suppressions(secrets);
      const verp = new Verp(secrets, BOUNCE_DOMAIN);
      const intake = new BounceIntake(store.db, suppressions, verp, log);
      mailer = smtpMailer(postfix.url, FROM);
      worker = noteWorker({ db: store.db, dialect, mailer, clock, suppressions, verp, subject: 'Please confirm' });
      return { suppressions, verp, intake };
    };

    it('hears a DSN Postfix delivered into the mailbox by IMAP IDLE, without waiting for the poll', async () => {
      const { suppressions, intake } = sendingKit();
      const errors = await whileWatchingByIdle({ url: dovecot.url, intake, now: clock, log }, async () => {
        const email = `dead.${randomUUID().slice(0, 8)}@example.com`;
        const id = await insertSubscriber(store.db, email, { status: 'confirmed', now: clock() });
        await store.db
          .insertInto('outbox')
          .values(newOutboxRow('note', id, clock()))
          .execute();
        await worker.runOnce();
        // Postfix writes the DSN into the Maildir; Dovecot tells the IDLE connection.
        await expect
          .poll(() => suppressions.isSuppressed(store.db, email), { timeout: 30_000, interval: 100 })
          .toBe(true);
      });
      expect(errors).toEqual([]);
    });

    it('reads hard, policy, delayed and expired DSNs and an enveloped-stripped feedback report as each deserves', async () => {
      const { verp, intake } = sendingKit();
      // A run of its own: the receiver answers by the local part's first word.
      const run = randomUUID().slice(0, 8);
      const people: Record<string, string> = {};
      for (const who of ['dead', 'full', 'filtered', 'angry']) {
        const email = `${who}.${run}@example.com`;
        people[who] = await insertSubscriber(store.db, email, { status: 'confirmed', now: clock() });
        await store.db
          .insertInto('outbox')
          .values(newOutboxRow('note', people[who], clock()))
          .execute();
      }
      const before = await unseen();
      const received = receiver.raw.length;
      // Postfix takes all four (250 at our SMTP): what happens next is between it and the receiver.
      await worker.runOnce();
      const rows = await store.db.selectFrom('outbox').select(['status']).execute();
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);

      // Failed (5.1.1), failed (5.7.1), delayed (4.2.2), then expired (failed, 4.2.2).
      await untilUnseen(before + 4);
      // The one the receiver took: the copy a person would press "spam" on.
      await receiver.waitFor(received + 1, 30_000);
      const copy = (receiver.raw[received] ?? Buffer.alloc(0)).toString('utf8');
      const headerBlock = copy.slice(0, copy.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
      // As a receiver that strips the envelope keeps it: no Return-Path, but our Message-ID.
      expect(headerBlock).not.toMatch(/^Return-Path:/im);
      const angryRow = await store.db
        .selectFrom('outbox')
        .select('id')
        .where('subscriber_id', '=', people.angry ?? '')
        .executeTakeFirstOrThrow();
      expect(headerBlock).toContain(`Message-ID: ${verp.messageId(angryRow.id)}`);
      // RFC 5965, sent to a feedback-loop address at our bounce domain, through Postfix too.
      const report = [
        'From: Feedback Loop <fbl@isp.example>',
        `To: fbl@${BOUNCE_DOMAIN}`,
        'Subject: FW: Please confirm',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="FBL"',
        '',
        '--FBL',
        'Content-Type: text/plain; charset=us-ascii',
        '',
        'This is an email abuse report.',
        '',
        '--FBL',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'User-Agent: SomeGenerator/1.0',
        'Version: 1',
        '',
        '--FBL',
        'Content-Type: message/rfc822',
        '',
        copy.replace(/\r?\n$/, ''),
        '--FBL--',
        '',
      ].join('\r\n');
      // The report's bytes as they are (nodemailer's `raw`), from the feedback loop's own sender.
      const fbl = nodemailer.createTransport(postfix.url);
      try {
        await fbl.sendMail({ envelope: { from: 'fbl@isp.example', to: `fbl@${BOUNCE_DOMAIN}` }, raw: report });
      } finally {
        fbl.close();
      }
      await untilUnseen(before + 5);

      expect(await readBounceMailbox({ url: dovecot.url, intake, now: clock, log })).toBe(5);
      const events = await store.db
        .selectFrom('bounce_events')
        .select(['kind', 'source', 'outbox_id'])
        .orderBy('kind')
        .execute();
      expect(events.map((e) => `${e.kind}/${e.source}`)).toEqual([
        'complaint/arf',
        'hard/dsn',
        'policy/dsn',
        'soft/dsn',
      ]);
      const standing = await store.db
        .selectFrom('suppressions')
        .select(['reason', 'subscriber_id', 'detail'])
        .orderBy('reason')
        .execute();
      expect(standing).toEqual([
        { reason: 'complaint', subscriber_id: people.angry, detail: 'abuse' },
        { reason: 'hard-bounce', subscriber_id: people.dead, detail: '5.1.1' },
      ]);
      // The delay warning is no bounce; one expiry is one soft bounce; one filter's refusal is shown, not suppressing.
      expect(logged.filter((l) => l.startsWith('bounce mailbox message is no bounce report'))).toHaveLength(1);
      expect(logged.join('\n')).not.toMatch(/@example\.com/);
      // Longer than the default 20 s: on a busy machine Postfix's retries and expiry can take that
      // long, and the waits above (each with its own deadline) then say what did not arrive.
    }, 90_000);
  });
}
