import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import type { MailMessage } from '../mail/index.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { insertConfirmedSubscribers, insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

const MIN = 60_000;

describe.each(dialectCases)('launch broadcast ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let c: ConsoleClient;
  // The second pair of eyes (decision 0028): a sender who approves what `op` writes.
  let checker: ConsoleClient;
  // Keeps what it sends; refuses the addresses in `refuse` as a mail server does (550).
  const refuse = new Set<string>();
  const memory = memoryMailer();
  const mailer = {
    ...memory,
    sent: memory.sent as MailMessage[],
    async send(m: MailMessage) {
      if (refuse.has(m.to)) throw Object.assign(new Error('550 5.1.1 No such mailbox'), { responseCode: 550 });
      await memory.send(m);
    },
  };
  let n = 0;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // A pace far above what a test sends: the worker's pace has its own test (outbox-worker.test.ts).
    t = await buildTestApp({ store, mailer, env: { MAIL_RATE_PER_SEC: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    n += 1;
    // One app per dialect; each test starts from an empty list and outbox, with its own operator.
    await store.db.deleteFrom('outbox').execute();
    await store.db.deleteFrom('subscribers').execute();
    mailer.sent.length = 0;
    refuse.clear();
    op = await makeOperator(store.db, `bc${n}-${dialect}@example.com`, t.clock());
    c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    checker = new ConsoleClient(t.app);
    await checker.signIn(
      await makeOperator(store.db, `bc${n}-checker-${dialect}@example.com`, t.clock(), 'sender'),
      t.clock(),
    );
  });

  const confirmed = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push(await insertSubscriber(store.db, `fan${i}-${n}@example.com`, { status: 'confirmed', now: t.clock() }));
    return ids;
  };
  const draft = async (
    body = 'Hello **holders**.\n\nThe presale opens [soon](https://dh.example/presale).',
    subject = 'The presale is near',
  ) => {
    const res = await c.post(adminApiPaths.broadcasts, { subject, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  /** A draft the checker has approved, as it stands. */
  const approved = async (body?: string) => {
    const id = await draft(body);
    const { textHash } = (await c.get(withId(adminApiPaths.broadcast, id))).json();
    const res = await checker.post(withId(adminApiPaths.broadcastApprove, id), { textHash });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  };
  const send = (id: string, client = c) => client.post(withId(adminApiPaths.broadcastSend, id));
  const progress = async (id: string) => (await c.get(withId(adminApiPaths.broadcast, id))).json();
  const drain = () => t.app.jobs.runOnce('outbox');
  const actions = async (subject: string) =>
    (
      await store.db
        .selectFrom('audit_log')
        .select(['action', 'actor'])
        .where('subject', '=', subject)
        .orderBy('at')
        .orderBy('action')
        .execute()
    ).map((r) => r.action);

  it('previews the Markdown as sanitised HTML and as text; raw HTML shows as text, never as markup', async () => {
    const id = await draft(
      '# News\n\nHello **holders** <script>alert(1)</script> [x](javascript:alert(1)) https://dh.example/faq',
    );
    const res = await c.get(withId(adminApiPaths.broadcastPreview, id));
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p.html).toContain('<h1>News</h1>');
    expect(p.html).toContain('<strong>holders</strong>');
    expect(p.html).toContain('&lt;script&gt;');
    expect(p.html).not.toContain('<script>');
    expect(p.html).not.toMatch(/href="javascript:/i);
    expect(p.html).toContain('<a href="https://dh.example/faq">');
    expect(p.text).toContain('News\n\nHello holders <script>alert(1)</script>');
    expect(p.refusal).toBeNull();
    expect(await actions(id)).toEqual(['broadcast.created']);
  });

  it('sends a test to the signed-in operator only, with the unsubscribe link and one-click headers', async () => {
    await confirmed(2);
    const id = await draft();
    const res = await c.post(withId(adminApiPaths.broadcastTest, id));
    expect(res.statusCode, res.body).toBe(200);
    expect(mailer.sent.map((m) => m.to)).toEqual([op.email]);
    const m = mailer.sent[0];
    expect(m?.subject).toBe('[Test] The presale is near');
    expect(m?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(m?.text).toMatch(/Stop all emails from Diamond Hand: https:\/\/dh\.example\/unsubscribe\?id=/);
    expect((await progress(id)).state).toBe('draft');
  });

  it('sends to every confirmed subscriber (nobody else) through the outbox, each with their own unsubscribe link', async () => {
    const ids = await confirmed(5);
    await insertSubscriber(store.db, `pending-${n}@example.com`, { status: 'pending', now: t.clock() });
    await insertSubscriber(store.db, `gone-${n}@example.com`, { status: 'unsubscribed', now: t.clock() });
    const id = await approved();
    const res = await send(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().progress).toMatchObject({ recipients: 5, queued: 5, sent: 0 });
    await drain();
    const to = mailer.sent.map((m) => m.to).sort();
    expect(to).toEqual(ids.map((_, i) => `fan${i}-${n}@example.com`).sort());
    for (const m of mailer.sent) {
      const link = m.headers?.['List-Unsubscribe'] ?? '';
      expect(link).toMatch(/^<https:\/\/dh\.example\/unsubscribe\?id=[^&]+&sig=/);
      expect(m.text).toContain(link.slice(1, -1));
      expect(m.html).toContain('<strong>holders</strong>');
    }
    // Each link names its own subscriber.
    expect(new Set(mailer.sent.map((m) => m.headers?.['List-Unsubscribe'])).size).toBe(5);
    const p = await progress(id);
    expect(p.state).toBe('done');
    expect(p.progress).toMatchObject({ recipients: 5, queued: 0, sent: 5, failed: 0, skipped: 0, etaSeconds: null });
    expect(await actions(id)).toEqual(['broadcast.approved', 'broadcast.created', 'broadcast.sent']);
  });

  it('does not queue a confirmed subscriber on the suppression list (a lifted entry no longer bars them); the audit row counts them', async () => {
    await confirmed(3);
    await t.app.suppressions.suppress(store.db, {
      address: `FAN1-${n}@example.com`,
      reason: 'hard-bounce',
      source: 'smtp',
      now: t.clock(),
    });
    await t.app.suppressions.suppress(store.db, {
      address: `fan2-${n}@example.com`,
      reason: 'hard-bounce',
      source: 'smtp',
      now: t.clock(),
    });
    // fan2's entry is lifted: they are mailed again.
    await store.db
      .updateTable('suppressions')
      .set({ lifted_at: t.clock().toISOString(), lifted_by: 'owner@example.com' })
      .where(
        'subscriber_id',
        'in',
        store.db.selectFrom('subscribers').select('id').where('email_key', '=', `fan2-${n}@example.com`),
      )
      .execute();
    const id = await approved();
    const res = await send(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().progress).toMatchObject({ recipients: 2, queued: 2 });
    const queued = await store.db.selectFrom('outbox').select('id').where('broadcast_id', '=', id).execute();
    expect(queued).toHaveLength(2);
    await drain();
    expect(mailer.sent.map((m) => m.to).sort()).toEqual([`fan0-${n}@example.com`, `fan2-${n}@example.com`]);
    const row = await store.db
      .selectFrom('audit_log')
      .select('detail')
      .where('subject', '=', id)
      .where('action', '=', 'broadcast.sent')
      .executeTakeFirstOrThrow();
    expect(row.detail).toContain('to 2 confirmed subscribers (1 suppressed, not sent)');
  });

  it('needs a code from the last five minutes to send', async () => {
    await confirmed(1);
    const id = await approved();
    t.clock.advance(6 * MIN);
    const refused = await send(id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('fresh_proof_required');
    expect(await store.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
    expect((await c.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) })).statusCode).toBe(200);
    expect((await send(id)).statusCode).toBe(200);
  });

  it('double clicks and two operators racing create one send: one 200, the rest 409, one row per recipient', async () => {
    await confirmed(20);
    const id = await approved();
    const other = await makeOperator(store.db, `bc${n}-other-${dialect}@example.com`, t.clock());
    const c2 = new ConsoleClient(t.app);
    await c2.signIn(other, t.clock());
    const answers = await Promise.all([send(id), send(id), send(id, c2), send(id, c2), send(id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().error.message).toMatch(/already been sent/);
    expect(await store.db.selectFrom('outbox').select('id').where('broadcast_id', '=', id).execute()).toHaveLength(20);
    expect((await actions(id)).filter((a) => a === 'broadcast.sent')).toHaveLength(1);
  });

  it('accounts for everyone: sent + failed (with the reason) + skipped (unsubscribed meanwhile) = recipients', async () => {
    const ids = await confirmed(4);
    const id = await approved();
    expect((await send(id)).statusCode).toBe(200);
    await store.db
      .updateTable('subscribers')
      .set({ status: 'unsubscribed' })
      .where('id', '=', ids[1] ?? '')
      .execute();
    // The mail server refuses one address for good (5xx): marked failed at once, not retried.
    refuse.add(`fan0-${n}@example.com`);
    await drain();
    const p = (await progress(id)).progress;
    expect(p).toMatchObject({ recipients: 4, queued: 0, sent: 2, failed: 1, skipped: 1, cancelled: 0 });
    expect(p.sent + p.failed + p.skipped).toBe(p.recipients);
    expect(p.failures).toEqual([{ reason: expect.stringMatching(/550 5\.1\.1 No such mailbox/), count: 1 }]);
  });

  it('pauses (nothing more goes out), resumes (the rest goes out), and cancels what is left', async () => {
    await confirmed(6);
    const id = await approved();
    expect((await send(id)).statusCode).toBe(200);
    const paused = await c.post(withId(adminApiPaths.broadcastPause, id));
    expect(paused.json().state).toBe('paused');
    expect((await c.post(withId(adminApiPaths.broadcastPause, id))).statusCode).toBe(409);
    await drain();
    expect(mailer.sent).toHaveLength(0);
    expect((await c.post(withId(adminApiPaths.broadcastResume, id))).json().state).toBe('sending');
    await drain();
    expect(mailer.sent).toHaveLength(6);
    expect((await progress(id)).state).toBe('done');

    const second = await approved();
    expect((await send(second)).statusCode).toBe(200);
    const cancelled = await c.post(withId(adminApiPaths.broadcastCancel, second));
    expect(cancelled.json()).toMatchObject({
      state: 'cancelled',
      progress: { recipients: 6, cancelled: 6, queued: 0 },
    });
    await drain();
    expect(mailer.sent).toHaveLength(6);
    expect((await c.post(withId(adminApiPaths.broadcastResume, second))).statusCode).toBe(409);
    expect(await actions(id)).toEqual(
      ['broadcast.approved', 'broadcast.created', 'broadcast.paused', 'broadcast.resumed', 'broadcast.sent'].sort(),
    );
    expect(await actions(second)).toContain('broadcast.cancelled');
  });

  it('pauses itself past 5 % hard bounces, says why, and an operator with fresh proof overrides it', async () => {
    await insertConfirmedSubscribers(
      store.db,
      Array.from({ length: 250 }, (_, i) => `fan${i}-${n}@example.com`),
      t.clock(),
    );
    const id = await approved();
    expect((await send(id)).statusCode).toBe(200);
    const rows = await store.db
      .selectFrom('outbox')
      .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
      .select(['outbox.id', 'subscribers.email'])
      .where('broadcast_id', '=', id)
      .orderBy('outbox.id')
      .execute();
    // The mail server took 240 of them; 13 come back as hard bounces (5.4 %), through the app's
    // own suppression list (as every source's events are stored).
    await store.db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: t.clock().toISOString() })
      .where(
        'id',
        'in',
        rows.slice(0, 240).map((r) => r.id),
      )
      .execute();
    for (const [i, r] of rows.slice(0, 13).entries()) {
      await t.app.suppressions.record(store.db, {
        source: 'dsn',
        eventId: `dsn-${n}-${i}`,
        kind: 'hard',
        address: r.email,
        outboxId: r.id,
        now: t.clock(),
      });
    }
    // One not yet sent is suppressed meanwhile (a bounce of an earlier email): its row is cancelled.
    const later = rows[245];
    if (!later) throw new Error('250 rows were queued');
    await t.app.suppressions.suppress(store.db, {
      address: later.email,
      reason: 'hard-bounce',
      source: 'dsn',
      now: t.clock(),
    });
    const reason = 'Hard bounces reached 5.42 % (13 of 240 sent), above the 5 % limit.';
    expect(await progress(id)).toMatchObject({
      state: 'paused',
      automaticPause: { reason, overriddenBy: null },
      progress: {
        sent: 240,
        delivered: 227,
        bounced: { hard: 13, soft: 0 },
        complained: 0,
        suppressed: 1,
        skipped: 0,
        queued: 9,
      },
    });
    const resumed = await c.post(withId(adminApiPaths.broadcastResume, id));
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ state: 'sending', automaticPause: { reason, overriddenBy: op.email } });
    const log = await store.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'via', 'detail'])
      .where('subject', '=', id)
      .orderBy('seq')
      .execute();
    expect(log.filter((e) => e.action === 'broadcast.auto-paused')).toEqual([
      { action: 'broadcast.auto-paused', actor: null, via: 'system', detail: reason },
    ]);
    expect(log.at(-1)).toEqual({
      action: 'broadcast.resumed',
      actor: op.email,
      via: 'console',
      detail: `overrode the automatic pause: ${reason}`,
    });
  });

  it('refuses to send or test a broadcast carrying an Ethereum address, with a sentence saying why', async () => {
    await confirmed(1);
    const id = await approved('Buy now at 0x**52908400098527886E0F7030069857D2E4169EE7**!');
    const shown = (await progress(id)).refusal as string;
    expect(shown).toMatch(/contains an Ethereum address .* no official contract address is set/);
    for (const path of [adminApiPaths.broadcastSend, adminApiPaths.broadcastTest]) {
      const res = await c.post(withId(path, id));
      expect(res.statusCode).toBe(422);
      expect(res.json().error.fields.body).toBe(shown);
    }
    expect(mailer.sent).toHaveLength(0);
    expect(await store.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
  });

  it('a saved draft carrying a disguised address, an ENS name, a foreign link or a remote image is refused on send and test with 422 and the words (decision 0027)', async () => {
    await confirmed(2);
    const hex = '52908400098527886E0F7030069857D2E4169EE7';
    const address =
      /contains an Ethereum address \(0x52908400098527886E0F7030069857D2E4169EE7\), but no official contract address is set/;
    const cases: { subject?: string; body: string; words: RegExp }[] = [
      {
        body: `Send to 0x${hex.slice(0, 20)}\u2063${hex.slice(20)}`,
        words: /The message contains an invisible character \(U\+2063 INVISIBLE SEPARATOR\) after “…/,
      },
      {
        subject: `Buy now\u200b`,
        body: 'Hello.',
        words:
          /^The subject contains an invisible character \(U\+200B ZERO WIDTH SPACE\) after “Buy now”; remove it\.$/,
      },
      { body: `Send to 0x${hex.replace(/E/g, 'Е').replace(/0/g, 'О')}`, words: address }, // Cyrillic Е and О
      { body: `Send to ${hex.match(/.{4}/g)?.join('-')}`, words: address }, // no 0x, dashes
      { body: `Send to ${hex.slice(0, 20)}\n\n${hex.slice(20)}`, words: address }, // across paragraphs
      {
        body: `[Our page](https://dh.example/pay?to=0x${[...hex].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')})`,
        words: address,
      },
      { body: 'Send to diamondhand.eth', words: /contains an ENS name \(diamondhand\.eth\)/ },
      {
        body: '[Buy on the official dapp](https://any-phishing.example)',
        words: /^The link “Buy on the official dapp” goes to any-phishing\.example/,
      },
      {
        body: '![Scan me](https://any-phishing.example/qr.png)',
        words: /^The image “Scan me” is loaded from any-phishing\.example/,
      },
      {
        body: '[dh.example](https://t.me/DiamondHandDH)',
        words: /^The link “dh\.example” reads as dh\.example but goes to t\.me/,
      },
    ];
    for (const { subject = 'The presale is live', body, words } of cases) {
      const id = await draft();
      const saved = await c.post(withId(adminApiPaths.broadcast, id), { subject, body });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().refusal, body).toMatch(words);
      for (const path of [adminApiPaths.broadcastSend, adminApiPaths.broadcastTest]) {
        const res = await c.post(withId(path, id));
        expect(res.statusCode, `${path} ${body}`).toBe(422);
        expect(res.json().error.message).toMatch(words);
        expect(res.json().error.fields.body).toBe(saved.json().refusal);
      }
      expect((await progress(id)).state).toBe('draft');
    }
    expect(mailer.sent).toHaveLength(0);
    expect(await store.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
  });

  it('the guard reads what the reader sees: an address hidden by an entity or split by a link is refused', async () => {
    const hex = '52908400098527886E0F7030069857D2E4169EE7';
    for (const body of [
      `Send to 0x&#${hex.charCodeAt(0)};${hex.slice(1)}`,
      `[0x${hex.slice(0, 20)}](https://x.example)${hex.slice(20)}`,
    ]) {
      const id = await approved(body);
      const res = await send(id);
      expect(res.statusCode, body).toBe(422);
      expect(res.json().error.message).toMatch(
        /contains an Ethereum address \(0x52908400098527886E0F7030069857D2E4169EE7\)/,
      );
    }
  });
});
