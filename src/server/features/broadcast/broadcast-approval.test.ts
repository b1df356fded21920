import { translatedLocales } from '../../../shared/locales.ts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import { adminApiPaths as p, withId } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { textHash } from './broadcast-text.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

// Four eyes on a broadcast (decision 0028): a second operator approves exactly the text that goes
// out, any edit voids the approval, and the send decides on the stored text inside the
// transaction that starts it, so a save racing the send can never be what is sent.

const MIN = 60_000;
const CLEAN = 'Hello **holders**.\n\nThe presale opens [soon](https://dh.example/presale).';
const SCAM = 'URGENT: send ETH to 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 to claim your tokens.';
const SCAM_HEX = /fB6916095ca1df60bB79Ce92cE3Ea74c37c5d359/i;
/** What the audit log says of an English-only broadcast's locales (decision 0048). */
const english = `versions en; English for ${translatedLocales.join(', ')}`;

describe.each(dialectCases)('four eyes on a broadcast ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  const mailer = memoryMailer();
  let n = 0;
  // Per test: the author, a second sender, a third sender, a viewer.
  let author: Person;
  let second: Person;
  let third: Person;
  let viewer: Person;

  interface Person {
    op: TestOperator;
    c: ConsoleClient;
  }
  const person = async (label: string, role: OperatorRole): Promise<Person> => {
    const op = await makeOperator(store.db, `${label}${n}-${dialect}@example.com`, t.clock(), role);
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    return { op, c };
  };

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // BROADCAST_APPROVALS is unset: the default is two people.
    t = await buildTestApp({ store, mailer, env: { MAIL_RATE_PER_SEC: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    n += 1;
    await store.db.deleteFrom('outbox').execute();
    await store.db.deleteFrom('subscribers').execute();
    mailer.sent.length = 0;
    author = await person('author', 'sender');
    second = await person('second', 'sender');
    third = await person('third', 'owner');
    viewer = await person('viewer', 'viewer');
  });

  const confirmed = async (count: number) => {
    for (let i = 0; i < count; i++)
      await insertSubscriber(store.db, `fan${i}-${n}@example.com`, { status: 'confirmed', now: t.clock() });
  };
  const draft = async (body = CLEAN, by = author) => {
    const res = await by.c.post(p.broadcasts, { subject: 'The presale is near', body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const read = async (id: string, by = author) => (await by.c.get(withId(p.broadcast, id))).json();
  const save = (id: string, body: string, by = author) =>
    by.c.post(withId(p.broadcast, id), { subject: 'The presale is near', body });
  const approve = async (id: string, by = second, hash?: string) =>
    by.c.post(withId(p.broadcastApprove, id), { textHash: hash ?? (await read(id, by)).textHash });
  const send = (id: string, by = author) => by.c.post(withId(p.broadcastSend, id));
  const queued = async (id: string) =>
    (await store.db.selectFrom('outbox').select('id').where('broadcast_id', '=', id).execute()).length;
  const auditOf = async (id: string) =>
    store.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'detail'])
      .where('subject', '=', id)
      .orderBy('at')
      .orderBy('action')
      .execute();

  it('refuses to send a broadcast nobody approved: 409 in words, nothing queued, nothing audited as sent', async () => {
    await confirmed(2);
    const id = await draft();
    const b = await read(id);
    expect(b).toMatchObject({
      approvalsRequired: 2,
      approval: null,
      lapsedApproval: null,
      createdBy: author.op.email,
      updatedBy: author.op.email,
    });
    const res = await send(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(
      /was not sent: nobody has approved it\. A second operator .* must approve this text first/,
    );
    expect(await queued(id)).toBe(0);
    expect((await read(id)).state).toBe('draft');
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['broadcast.created']);
  });

  it('the author and the last editor cannot approve; a viewer cannot; a third operator can, and the approved send goes', async () => {
    await confirmed(3);
    const id = await draft();
    const own = await approve(id, author);
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toMatch(/You wrote this broadcast: a second operator/);

    // The second operator edits the author's draft: they may, and are named as its last editor.
    expect((await save(id, `${CLEAN}\n\nEdited.`, second)).statusCode).toBe(200);
    expect(await read(id)).toMatchObject({ createdBy: author.op.email, updatedBy: second.op.email });
    const editor = await approve(id, second);
    expect(editor.statusCode).toBe(403);
    expect(editor.json().error.message).toMatch(/You edited this broadcast last/);
    expect((await approve(id, viewer)).json().error.code).toBe('forbidden');

    const ok = await approve(id, third);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().approval).toEqual({ by: third.op.email, at: t.clock().toISOString() });
    expect((await approve(id, third)).statusCode).toBe(409);

    const sent = await send(id);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await queued(id)).toBe(3);
    const hash = textHash({ subject: 'The presale is near', body: `${CLEAN}\n\nEdited.` });
    const log = await auditOf(id);
    expect(log.find((a) => a.action === 'broadcast.edited')).toEqual({
      action: 'broadcast.edited',
      actor: second.op.email,
      detail: `text sha256:${hash}; ${english}`,
    });
    expect(log.find((a) => a.action === 'broadcast.approved')).toEqual({
      action: 'broadcast.approved',
      actor: third.op.email,
      detail: `text sha256:${hash}; ${english}`,
    });
    expect(log.find((a) => a.action === 'broadcast.sent')).toEqual({
      action: 'broadcast.sent',
      actor: author.op.email,
      detail: `to 3 confirmed subscribers, approved by ${third.op.email} (text sha256:${hash}; ${english}; recipients by locale en 3)`,
    });
    // The text itself is never in the log.
    expect(JSON.stringify(log)).not.toContain('holders');
  });

  it('A writes, B adds a paragraph, A changes only the subject: B cannot approve, and nothing B edited goes out until someone who edited nothing approves', async () => {
    await confirmed(2);
    const id = await draft();
    const withB = `${CLEAN}\n\nA paragraph the author never approved.`;
    expect((await save(id, withB, second)).statusCode).toBe(200);
    const subject = await author.c.post(withId(p.broadcast, id), { subject: 'The presale is here', body: withB });
    expect(subject.statusCode, subject.body).toBe(200);
    expect(subject.json()).toMatchObject({
      updatedBy: author.op.email,
      editors: [second.op.email, author.op.email],
    });

    const byB = await approve(id, second);
    expect(byB.statusCode).toBe(403);
    expect(byB.json().error.message).toMatch(/You edited this broadcast since it was last approved/);
    expect((await read(id)).approval).toBeNull();
    // Nor does B's send go: nobody approved it.
    expect((await send(id, second)).statusCode).toBe(409);
    expect(await queued(id)).toBe(0);

    // A third operator's edit after them changes nothing for B; now the third edited too.
    const withC = `${withB}\n\nAnd one more line.`;
    expect(
      (await author.c.post(withId(p.broadcast, id), { subject: 'The presale is here', body: withC })).statusCode,
    ).toBe(200);
    expect(
      (await third.c.post(withId(p.broadcast, id), { subject: 'The presale is here!', body: withC })).statusCode,
    ).toBe(200);
    expect((await approve(id, second)).statusCode).toBe(403);
    expect((await approve(id, third)).statusCode).toBe(403);
    expect((await approve(id, author)).statusCode).toBe(403);

    // Someone who edited nothing reads it all and approves; then B may send it.
    const fourth = await person('fourth', 'sender');
    const ok = await approve(id, fourth);
    expect(ok.statusCode, ok.body).toBe(200);
    const sent = await send(id, second);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await queued(id)).toBe(2);
    expect((await auditOf(id)).find((a) => a.action === 'broadcast.sent')?.detail).toContain(
      `approved by ${fourth.op.email}`,
    );
  });

  it('an approval covers the edits before it, until it is revoked; an edit that voids it starts the editors afresh', async () => {
    await confirmed(1);
    const id = await draft();
    expect((await save(id, `${CLEAN}\n\nSecond's line.`, second)).statusCode).toBe(200);
    const fourth = await person('fourth', 'sender');
    expect((await approve(id, fourth)).statusCode).toBe(200);
    // The approver takes it back: the second operator's line is again approved by nobody.
    expect((await fourth.c.post(withId(p.broadcastRevoke, id))).statusCode).toBe(200);
    expect((await read(id)).editors).toEqual([second.op.email]);
    expect((await approve(id, second)).statusCode).toBe(403);

    // Approved again, then the third operator edits: that edit voids the approval, which had covered
    // the second's line, so the second may now approve the third's change.
    expect((await approve(id, fourth)).statusCode).toBe(200);
    expect((await save(id, `${CLEAN}\n\nSecond's line.\n\nThird's line.`, third)).statusCode).toBe(200);
    expect((await read(id)).editors).toEqual([third.op.email]);
    expect((await approve(id, third)).statusCode).toBe(403);
    const ok = await approve(id, second);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await send(id)).statusCode).toBe(200);
  });

  it('refuses at the send an approval by anyone who edited since the last approval, however it was recorded', async () => {
    await confirmed(1);
    const id = await draft();
    const body = `${CLEAN}\n\nSecond's line.`;
    expect((await save(id, body, second)).statusCode).toBe(200);
    expect((await save(id, body.replace('soon', 'very soon'))).statusCode).toBe(200);
    // Not through the console (whose approve refuses it): a hand-made SQL fix, a restored backup.
    await store.db
      .updateTable('broadcasts')
      .set({
        approved_by: second.op.email,
        approved_at: t.clock().toISOString(),
        approved_hash: textHash({ subject: 'The presale is near', body: body.replace('soon', 'very soon') }),
      })
      .where('id', '=', id)
      .execute();
    const res = await send(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain(`${second.op.email} wrote or edited it`);
    expect(await queued(id)).toBe(0);
  });

  it('an edit voids the approval, and the console is told by whom; saving the same text again does not', async () => {
    await confirmed(1);
    const id = await draft();
    expect((await approve(id)).statusCode).toBe(200);
    const approvedAt = t.clock().toISOString();
    // The author's console saves before it sends: the same text is not an edit.
    expect((await save(id, CLEAN)).json().approval).toMatchObject({ by: second.op.email });

    t.clock.advance(MIN);
    const edited = await save(id, `${CLEAN}\n\nOne more line.`, third);
    expect(edited.json()).toMatchObject({
      approval: null,
      updatedBy: third.op.email,
      lapsedApproval: {
        approvedBy: second.op.email,
        approvedAt,
        by: third.op.email,
        at: t.clock().toISOString(),
        reason: 'edit',
      },
    });
    const refused = await send(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/nobody has approved it/);
    expect(await queued(id)).toBe(0);
    expect(
      (await auditOf(id)).find((a) => a.action === 'broadcast.edited' && a.actor === third.op.email)?.detail,
    ).toMatch(new RegExp(`^text sha256:[0-9a-f]{64}; voided the approval by ${second.op.email}; ${english}$`));

    // The third operator edited it last; the second may approve the new text, and it goes.
    expect((await approve(id)).statusCode).toBe(200);
    expect((await read(id)).lapsedApproval).toBeNull();
    expect((await send(id)).statusCode).toBe(200);
  });

  it('approves only the text the approver read: a text changed since is 409, not approved', async () => {
    const id = await draft();
    const seen = (await read(id, second)).textHash;
    await save(id, `${CLEAN} Changed.`);
    const res = await approve(id, second, seen);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/text changed since you opened it/);
    expect((await read(id)).approval).toBeNull();
  });

  it('refuses a send whose stored text is not the approved one, however it changed', async () => {
    await confirmed(1);
    const id = await draft();
    expect((await approve(id)).statusCode).toBe(200);
    // Not through the console (whose save voids the approval): a restored backup, a hand-made SQL fix.
    await store.db
      .updateTable('broadcasts')
      .set({ body: `${CLEAN} Changed by hand.` })
      .where('id', '=', id)
      .execute();
    const res = await send(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain(`the text is not the one ${second.op.email} approved`);
    expect(await queued(id)).toBe(0);
    // The guard is asked too: with a scam text approved by hand as well, the address is refused.
    await store.db
      .updateTable('broadcasts')
      .set({ body: SCAM, approved_hash: textHash({ subject: 'The presale is near', body: SCAM }) })
      .where('id', '=', id)
      .execute();
    expect((await send(id)).statusCode).toBe(422);
    expect(await queued(id)).toBe(0);
  });

  it('approving needs fresh proof; an approver who lost the sender role no longer counts', async () => {
    await confirmed(1);
    const id = await draft();
    t.clock.advance(6 * MIN);
    const stale = await approve(id);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('fresh_proof_required');
    expect((await second.c.post(p.freshProof, { code: codeAt(second.op, t.clock()) })).statusCode).toBe(200);
    expect((await approve(id)).statusCode).toBe(200);
    await store.db.updateTable('operators').set({ role: 'viewer' }).where('email', '=', second.op.email).execute();
    expect((await author.c.post(p.freshProof, { code: codeAt(author.op, t.clock()) })).statusCode).toBe(200);
    const res = await send(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain(`${second.op.email} may no longer approve broadcasts`);
  });

  it('an approval can be revoked by the approver or any other sender, audited; then the send is refused', async () => {
    await confirmed(1);
    const id = await draft();
    expect((await author.c.post(withId(p.broadcastRevoke, id))).statusCode).toBe(409);
    expect((await approve(id)).statusCode).toBe(200);
    expect((await viewer.c.post(withId(p.broadcastRevoke, id))).statusCode).toBe(403);
    const revoked = await third.c.post(withId(p.broadcastRevoke, id));
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({
      approval: null,
      lapsedApproval: { approvedBy: second.op.email, by: third.op.email, reason: 'revoked' },
    });
    expect((await send(id)).statusCode).toBe(409);
    expect((await approve(id)).statusCode).toBe(200);
    expect((await second.c.post(withId(p.broadcastRevoke, id))).statusCode).toBe(200);
    expect((await send(id)).statusCode).toBe(409);
    const revocations = (await auditOf(id)).filter((a) => a.action === 'broadcast.approval-revoked');
    expect(revocations.map((a) => a.actor).sort()).toEqual([second.op.email, third.op.email].sort());
    expect(revocations[0]?.detail).toMatch(
      new RegExp(`^the approval by ${second.op.email} \\(text sha256:[0-9a-f]{64}\\)$`),
    );
    expect(await queued(id)).toBe(0);
  });

  it('pause is one press for a viewer; resume needs a sender with fresh proof; both audited', async () => {
    await confirmed(2);
    const id = await draft();
    expect((await approve(id)).statusCode).toBe(200);
    expect((await send(id)).statusCode).toBe(200);
    expect((await viewer.c.post(withId(p.broadcastPause, id))).json().state).toBe('paused');
    expect((await viewer.c.post(withId(p.broadcastResume, id))).json().error.code).toBe('forbidden');
    t.clock.advance(6 * MIN);
    const stale = await author.c.post(withId(p.broadcastResume, id));
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('fresh_proof_required');
    expect((await author.c.post(p.freshProof, { code: codeAt(author.op, t.clock()) })).statusCode).toBe(200);
    expect((await author.c.post(withId(p.broadcastResume, id))).json().state).toBe('sending');
    expect((await author.c.post(withId(p.broadcastCancel, id))).json().state).toBe('cancelled');
    const log = await auditOf(id);
    expect(log.map((a) => `${a.action} ${a.actor}`)).toEqual(
      expect.arrayContaining([
        `broadcast.paused ${viewer.op.email}`,
        `broadcast.resumed ${author.op.email}`,
        `broadcast.cancelled ${author.op.email}`,
      ]),
    );
  });

  it('racing saves of a scam text against the send: what is queued and sent is exactly the approved text, or nothing', async () => {
    await confirmed(2);
    // Eight rounds at least; more while no send has gone first yet (a busy machine can let the
    // saves win every early round), each later round giving the send a longer head start, so the
    // race is run in both directions.
    let sentRounds = 0;
    for (let round = 0; round < 8 || (sentRounds === 0 && round < 24); round++) {
      const headStart = round < 8 ? 0 : 2 ** (round - 8);
      mailer.sent.length = 0;
      const marker = `Round ${round} of ${n}.`;
      const id = await draft(`${CLEAN}\n\n${marker}`);
      expect((await approve(id)).statusCode).toBe(200);
      // Saves from two operators before the send and all through it: one more each turn of the
      // event loop, so some land while the send is between any two of its steps.
      const saves: Promise<LightMyRequestResponse>[] = [];
      const saveNow = () => saves.push(save(id, `${SCAM} (${saves.length})`, saves.length % 2 ? third : author));
      if (headStart === 0) for (let i = 0; i < round % 4; i++) saveNow();
      const sending = send(id);
      let done = false;
      void sending.finally(() => (done = true));
      for (let i = 0; i < headStart && !done; i++) await new Promise((resolve) => setImmediate(resolve));
      // On SQLite the requests share one connection, so the send's steps are microtasks apart;
      // on PostgreSQL they are round trips apart.
      // (At most 20 saves: more would wait for one of the pool's 10 connections past its limit.)
      for (let i = 0; i < 8 && !done; i++) {
        saveNow();
        for (let tick = 0; tick < round; tick++) await Promise.resolve();
      }
      while (!done && saves.length < 20) {
        saveNow();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const sendAnswer = await sending;
      const answers = await Promise.all(saves);

      const stored = await store.db
        .selectFrom('broadcasts')
        .select(['body', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (sendAnswer.statusCode === 200) {
        sentRounds += 1;
        // Sent: the stored text (the one the composer reads for every copy) is the approved one,
        // and every save that came after the send was refused.
        expect(stored.body).toBe(`${CLEAN}\n\n${marker}`);
        expect(await queued(id)).toBe(2);
        await t.app.jobs.runOnce('outbox');
        expect(mailer.sent).toHaveLength(2);
        for (const m of mailer.sent) {
          expect(m.text).toContain(marker);
          expect(m.text).not.toMatch(SCAM_HEX);
          expect(m.html).not.toMatch(SCAM_HEX);
        }
        for (const a of answers) expect([200, 409]).toContain(a.statusCode);
      } else {
        // Refused: a save landed first; the send read the scam text (the guard: 422) or found
        // the approval voided (409). Nothing was queued.
        expect([409, 422], sendAnswer.body).toContain(sendAnswer.statusCode);
        expect(stored.status).toBe('draft');
        expect(await queued(id)).toBe(0);
        await t.app.jobs.runOnce('outbox');
        expect(mailer.sent).toHaveLength(0);
      }
    }
    // The rounds whose send went first must exist, or the race was never run.
    expect(sentRounds).toBeGreaterThan(0);
  });
});

describe.each(dialectCases)('a team of one: BROADCAST_APPROVALS=1 ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, env: { BROADCAST_APPROVALS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it('sends with nobody else approving, says so, and audits the send as unapproved', async (ctx) => {
    if (skip) return ctx.skip();
    await insertSubscriber(store.db, `solo-${dialect}@example.com`, { status: 'confirmed', now: t.clock() });
    const op = await makeOperator(store.db, `solo-op-${dialect}@example.com`, t.clock(), 'owner');
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const created = await c.post(p.broadcasts, { subject: 'Solo', body: CLEAN });
    const id = created.json().id as string;
    expect(created.json()).toMatchObject({ approvalsRequired: 1, approval: null });
    // Still not their own approval: a team of one has no second pair of eyes, and says so.
    expect((await c.post(withId(p.broadcastApprove, id), { textHash: created.json().textHash })).statusCode).toBe(403);
    const res = await c.post(withId(p.broadcastSend, id));
    expect(res.statusCode, res.body).toBe(200);
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'detail'])
      .where('subject', '=', id)
      .where('action', 'like', 'broadcast.sent%')
      .execute();
    expect(rows).toEqual([
      {
        action: 'broadcast.sent-unapproved',
        actor: op.email,
        detail: `to 1 confirmed subscribers, approved by nobody: BROADCAST_APPROVALS=1 (text sha256:${created.json().textHash}; ${english}; recipients by locale en 1)`,
      },
    ]);
  });
});
