import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiPaths as p, apiPaths, subscriberApiPath, withId } from '../../../shared/paths.ts';
import type { MailMessage } from '../mail/index.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';
import { insertSubscriber } from '../../test/fixtures.ts';

// A viewer never sees a subscriber's personal data (decision 0028, 0029): every route that reads
// or acts on people refuses them, and nothing a viewer can read carries an address — not even a
// broadcast's failure reasons, where a mail server's refusal quotes the recipient.
const PERSON = { email: 'secret.holder@example.org', name: 'Satoshi Holder', comment: 'my wallet is 0xabc' };

describe.each(dialectCases)('a viewer and personal data ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let viewer: ConsoleClient;
  let broadcastId = '';
  let subscriberId = '';
  const routes: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    const memory = memoryMailer();
    // A mail server's refusal quotes the address, as Postfix's does.
    const mailer = {
      ...memory,
      async send(m: MailMessage) {
        if (m.to === PERSON.email)
          throw Object.assign(new Error(`550 5.1.1 <${m.to}>: Recipient address rejected`), { responseCode: 550 });
        await memory.send(m);
      },
    };
    t = await buildTestApp({
      store,
      mailer,
      // The subject here is what a viewer can read, not approvals: a team of one sends at once.
      env: { MAIL_RATE_PER_SEC: '1000', BROADCAST_APPROVALS: '1' },
      onRoute: (r: RouteOptions) => {
        for (const method of [r.method].flat())
          if (r.url.startsWith(apiPaths.admin) && method !== 'HEAD') routes.push(`${String(method)} ${r.url}`);
      },
    });
    // The person signs up through the public form and is confirmed.
    const visitor = await visitPage(t.app);
    t.clock.advance(60_000);
    expect((await postSignupJson(t.app, visitor, PERSON)).statusCode).toBe(200);
    const row = await store.db
      .selectFrom('subscribers')
      .select('id')
      .where('email_key', '=', PERSON.email)
      .executeTakeFirstOrThrow();
    subscriberId = row.id;
    await store.db
      .updateTable('subscribers')
      .set({ status: 'confirmed', confirmed_at: t.clock().toISOString() })
      .where('id', '=', row.id)
      .execute();
    // A sender broadcasts to them; the mail server refuses the address.
    const sender = new ConsoleClient(t.app);
    const senderOp = await makeOperator(store.db, `sender-${dialect}@example.com`, t.clock(), 'sender');
    await sender.signIn(senderOp, t.clock());
    const draft = await sender.post(p.broadcasts, { subject: 'News', body: 'Hello holders.' });
    expect(draft.statusCode, draft.body).toBe(200);
    broadcastId = draft.json().id as string;
    expect((await sender.post(withId(p.broadcastSend, broadcastId))).statusCode).toBe(200);
    await t.app.jobs.runOnce('outbox');
    await t.app.jobs.runOnce('outbox');
    // A friend came through their invite link and counted: the Referrals report has a referrer.
    const friend = await insertSubscriber(store.db, 'friend@example.net', { now: t.clock(), status: 'confirmed' });
    await store.db
      .insertInto('referral_attributions')
      .values({
        invited_id: friend,
        referrer_id: row.id,
        network_key: null,
        created_at: t.clock().toISOString(),
        status: 'counted',
        decided_at: t.clock().toISOString(),
        invited_domain: 'example.net',
      })
      .execute();
    viewer = new ConsoleClient(t.app);
    await viewer.signIn(await makeOperator(store.db, `viewer-${dialect}@example.com`, t.clock(), 'viewer'), t.clock());
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it.skipIf(skip)('refuses a viewer every route that reads or acts on subscribers, and the audit log', async () => {
    const personal = [
      ['GET', p.subscribers],
      ['GET', `${p.subscribers}?q=${encodeURIComponent(PERSON.email)}`],
      ['POST', subscriberApiPath(p.subscriberDetails, subscriberId)],
      ['POST', subscriberApiPath(p.subscriberResend, subscriberId)],
      ['POST', subscriberApiPath(p.subscriberExport, subscriberId)],
      ['POST', subscriberApiPath(p.subscriberErase, subscriberId)],
      ['POST', p.subscribersCsv],
      // The audit log names subscribers by id: senders only.
      ['GET', p.audit],
    ] as const;
    // Every route under the subscribers' prefix is in the list above.
    const covered = new Set(
      personal.map(([method, url]) => `${method} ${url.split('?')[0]?.replace(subscriberId, ':id')}`),
    );
    for (const route of routes.filter((r) => r.includes(p.subscribers))) expect(covered, route).toContain(route);
    for (const [method, url] of personal) {
      const res = await viewer.send(method, url, method === 'POST' ? { confirmEmail: PERSON.email } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
      expect(res.body).not.toContain(PERSON.email);
    }
  });

  it.skipIf(skip)('shows a viewer nothing that carries a subscriber’s address, name or comment', async () => {
    // Every GET a viewer may call, asked of the server itself: a route added later that a viewer
    // can read has its replies searched here too, with no list to edit. (A new `:id` in a path
    // needs its fixture above: its 404 fails the 200 below.)
    const viewerGets: string[] = [];
    for (const route of routes.filter((r) => r.startsWith('GET '))) {
      const res = await viewer.get(route.slice(4).replace(':id', broadcastId));
      const forbidden =
        res.statusCode === 403 && (res.json() as { error: { code: string } }).error.code === 'forbidden';
      if (!forbidden) viewerGets.push(route.slice(4));
    }
    // Today's, at least: the sweep above finds them, not a list that could lag the routes.
    for (const known of [p.session, p.audience, p.audienceLive, p.broadcasts, p.broadcast, p.referrals])
      expect(viewerGets).toContain(known);
    const reachable = [...viewerGets.map((url) => url.replace(':id', broadcastId)), `${p.audience}?preset=7d`];
    const bodies: string[] = [];
    for (const url of reachable) {
      const res = await viewer.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      bodies.push(res.body);
    }
    // The broadcast's failure is there, its reason without the address the mail server quoted.
    expect(bodies.join('\n')).toMatch(/Recipient address rejected/);
    // Nor the masked address the Referrals list shows a sender (a viewer's report is counts only).
    for (const secret of [PERSON.email, 'secret.holder', 's•••@', PERSON.name, PERSON.comment])
      expect(bodies.join('\n')).not.toContain(secret);
  });
});
