import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataKey, SecretBox } from '../../store/secret-box.ts';
import { insertSubscriber, noteWorker } from '../../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { BounceIntake } from './bounces.ts';
import { smtpMailer } from './mailer.ts';
import { newOutboxRow } from './outbox.ts';
import { Suppressions } from './suppression.ts';
import { domainOf, Verp } from './verp.ts';

const box = () => new SecretBox(dataKey(randomBytes(32)));

describe('VERP addresses', () => {
  it('name the row, short and lower-case, under the bounce domain', () => {
    const verp = new Verp(box(), 'dh.example');
    const id = randomUUID();
    const address = verp.address(id);
    expect(address).toMatch(/^bounces\+[0-9a-f]{48}@dh\.example$/);
    expect(address.split('@')[0]?.length).toBeLessThanOrEqual(64);
    expect(verp.outboxIdOf(address)).toBe(id);
    // Mail servers may change a local part's case, and bounces quote it in angle brackets.
    expect(verp.outboxIdOf(`<${address.toUpperCase()}>`)).toBe(id);
  });

  it('refuse a changed id, a changed signature, another key, and addresses that are not ours', () => {
    const secrets = box();
    const verp = new Verp(secrets, 'dh.example');
    const address = verp.address(randomUUID());
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === '0' ? '1' : '0') + s.slice(i + 1);
    expect(verp.outboxIdOf(flip(address, 10))).toBeNull();
    expect(verp.outboxIdOf(flip(address, 50))).toBeNull();
    expect(new Verp(box(), 'dh.example').outboxIdOf(address)).toBeNull();
    expect(verp.outboxIdOf('someone@dh.example')).toBeNull();
    expect(verp.outboxIdOf('bounces+1234@dh.example')).toBeNull();
    // After a data key rotation, bounces of mail sent before it still count.
    const rotated = new Verp(new SecretBox(dataKey(randomBytes(32)), secrets.keys), 'dh.example');
    expect(rotated.outboxIdOf(address)).not.toBeNull();
  });

  it('give each email a Message-ID carrying the same signed id, which forgery or another key cannot match', () => {
    const secrets = box();
    const verp = new Verp(secrets, 'dh.example');
    const id = randomUUID();
    const messageId = verp.messageId(id);
    expect(messageId).toMatch(/^<dh\.[0-9a-f]{48}@dh\.example>$/);
    expect(messageId.slice(4, 52)).toBe(verp.address(id).slice(8, 56));
    expect(verp.outboxIdOfMessageId(messageId)).toBe(id);
    expect(verp.outboxIdOfMessageId(messageId.toUpperCase())).toBe(id);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === '0' ? '1' : '0') + s.slice(i + 1);
    expect(verp.outboxIdOfMessageId(flip(messageId, 10))).toBeNull();
    expect(verp.outboxIdOfMessageId(flip(messageId, 50))).toBeNull();
    expect(new Verp(box(), 'dh.example').outboxIdOfMessageId(messageId)).toBeNull();
    expect(verp.outboxIdOfMessageId(`<${'0'.repeat(48)}@dh.example>`)).toBeNull();
    expect(verp.outboxIdOfMessageId(verp.address(id))).toBeNull();
    const rotated = new Verp(new SecretBox(dataKey(randomBytes(32)), secrets.keys), 'dh.example');
    expect(rotated.outboxIdOfMessageId(messageId)).toBe(id);
  });

  it('domainOf reads MAIL_FROM', () => {
    expect(domainOf('Diamond Hand <Hello@DH.example>')).toBe('dh.example');
    expect(domainOf('no-domain')).toBeNull();
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`bounces by VERP on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let suppressions: Suppressions;
    let verp: Verp;
    let logged: string[];
    let intake: BounceIntake;
    const clock = testClock();

    beforeEach(async () => {
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
      suppressions = new Suppressions(testSecrets());
      verp = new Verp(testSecrets(), 'bounces.dh.example');
      logged = [];
      intake = new BounceIntake(store.db, suppressions, verp, (msg, fields) =>
        logged.push(`${msg} ${JSON.stringify(fields)}`),
      );
    });
    afterEach(async () => {
      await sink.close();
      await store.destroy();
    });

    const sendOne = async (email: string, broadcastId: string | null = null) => {
      const id = await insertSubscriber(store.db, email, { now: clock() });
      const row = newOutboxRow('note', id, clock(), broadcastId);
      await store.db.insertInto('outbox').values(row).execute();
      const mailer = smtpMailer(sink.url, 'Diamond Hand <hello@dh.example>');
      const worker = noteWorker({ db: store.db, dialect, mailer, clock, suppressions, verp });
      await worker.runOnce();
      await worker.stop();
      mailer.close();
      return row.id;
    };

    it('sends each email with its own envelope sender, and a bounce to it suppresses that person', async () => {
      const rowId = await sendOne('dead@example.com');
      await sink.waitFor(1);
      const sender = sink.senders[0] ?? '';
      expect(sender).toMatch(/^bounces\+[0-9a-f]{48}@bounces\.dh\.example$/);
      // The visible From stays the site's.
      expect(sink.messages[0]?.from?.value[0]?.address).toBe('hello@dh.example');
      expect(verp.outboxIdOf(sender)).toBe(rowId);
      // Its Message-ID names the same row, signed: a report that lost the envelope still finds it.
      expect(verp.outboxIdOfMessageId(sink.messages[0]?.messageId ?? '')).toBe(rowId);
      // Grouped for providers' feedback loops: no campaign, the kind, the sender's domain; no List-Id.
      expect(sink.messages[0]?.headers.get('feedback-id')).toBe('-:note:diamond-hand:bounces.dh.example');
      expect(sink.messages[0]?.headerLines.some((h) => h.key === 'list-id')).toBe(false);

      const heard = {
        kind: 'hard' as const,
        source: 'dsn',
        eventId: '<dsn-1@mx.example>',
        detail: '5.1.1',
        now: clock(),
      };
      expect(await intake.byEnvelope(sender, heard)).toBe('suppressed');
      expect(await suppressions.isSuppressed(store.db, 'DEAD@example.com')).toBe(true);
      // The same DSN read again counts once.
      expect(await intake.byEnvelope(sender, heard)).toBe('duplicate');
    });

    it('gives a broadcast’s emails a List-Id and a Feedback-ID of their own', async () => {
      const broadcastId = randomUUID();
      // outbox.broadcast_id has no foreign key: the row alone makes a broadcast email here.
      await sendOne('reader@example.com', broadcastId);
      await sink.waitFor(1);
      const hex = broadcastId.replace(/-/g, '');
      expect(sink.messages[0]?.headers.get('feedback-id')).toBe(`${hex}:note:diamond-hand:bounces.dh.example`);
      expect(sink.messages[0]?.headerLines.find((h) => h.key === 'list-id')?.line.toLowerCase()).toBe(
        `list-id: broadcast <b${hex}.bounces.dh.example>`,
      );
    });

    it('ignores, and logs without the address, a forged signature and a row never sent', async () => {
      const rowId = await sendOne('kept@example.com');
      const forged = new Verp(box(), 'bounces.dh.example').address(rowId);
      const heard = { kind: 'hard' as const, source: 'dsn', eventId: 'e1', now: clock() };
      expect(await intake.byEnvelope(forged, heard)).toBe('forged');

      const id = await insertSubscriber(store.db, 'waiting@example.com', { now: clock() });
      const pending = newOutboxRow('note', id, clock());
      await store.db.insertInto('outbox').values(pending).execute();
      expect(await intake.byEnvelope(verp.address(pending.id), { ...heard, eventId: 'e2' })).toBe('never-sent');
      expect(await intake.byEnvelope(verp.address(randomUUID()), { ...heard, eventId: 'e3' })).toBe('never-sent');
      expect(await intake.byEnvelope('postmaster@dh.example', { ...heard, eventId: 'e4' })).toBe('not-ours');

      expect(await store.db.selectFrom('suppressions').selectAll().execute()).toEqual([]);
      expect(logged).toHaveLength(4);
      expect(logged.join('\n')).not.toMatch(/@example\.com/);
    });
  });
}
