import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';

// A test send is the broadcast as a subscriber gets it: over real SMTP (the sink), signed with
// DKIM, the same envelope and list headers as the real send (Outbox.sendNow, one mechanism).
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
// The record a receiver finds (RFC 6376 §3.6.1), made here rather than by the app's own code.
const published = `v=DKIM1; k=rsa; p=${createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64')}`;
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'dh2026._domainkey.dh.example') return [[published]];
  throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
};

/** Header name → values, as received (lower-case names). */
const headersOf = (raw: Buffer): Map<string, string[]> => {
  const head = raw.toString('latin1').split('\r\n\r\n')[0] ?? '';
  const out = new Map<string, string[]>();
  for (const field of head.split(/\r\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).toLowerCase();
    out.set(name, [
      ...(out.get(name) ?? []),
      field
        .slice(colon + 1)
        .replace(/\r\n/g, '')
        .trim(),
    ]);
  }
  return out;
};

describe.each(dialectCases)('a broadcast test send ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let sink: SmtpSink;
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    sink = await startSmtpSink();
    t = await buildTestApp({
      store,
      mailer: 'from-env',
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'Diamond Hand <hello@dh.example>',
        BOUNCE_DOMAIN: 'bounces.dh.example',
        DKIM_PRIVATE_KEY: pem.trim().replace(/\n/g, '\\n'),
        DKIM_SELECTOR: 'dh2026',
        MAIL_RATE_PER_SEC: '1000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
    await store?.destroy();
  });
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    n += 1;
    await store.db.deleteFrom('outbox').execute();
    await store.db.deleteFrom('subscribers').execute();
  });

  it('goes out with the real send’s VERP envelope, Feedback-ID, List-Id and unsubscribe headers, all signed', async () => {
    const op = await makeOperator(store.db, `ts${n}-${dialect}@example.com`, t.clock());
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const checker = new ConsoleClient(t.app);
    await checker.signIn(
      await makeOperator(store.db, `ts${n}-checker-${dialect}@example.com`, t.clock(), 'sender'),
      t.clock(),
    );
    await insertSubscriber(store.db, `reader${n}@example.com`, { status: 'confirmed', now: t.clock() });
    const created = await c.post(adminApiPaths.broadcasts, {
      subject: 'The presale is near',
      body: 'Hello **holders**.',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    const hex = id.replace(/-/g, '');

    const first = sink.raw.length;
    const test = await c.post(withId(adminApiPaths.broadcastTest, id));
    expect(test.statusCode, test.body).toBe(200);
    await sink.waitFor(first + 1);
    const testRaw = sink.raw[first];
    const testSender = sink.senders[first] ?? '';
    if (!testRaw) throw new Error('no test email');

    // Not MAIL_FROM: a bounce of the test goes to the bounce mailbox, not into From's.
    expect(testSender).toMatch(/^bounces\+[0-9a-f]{48}@bounces\.dh\.example$/);
    // Its signed id names no outbox row: heard back, it changes nothing (the operator is no subscriber).
    const heard = { kind: 'hard' as const, source: 'dsn', eventId: `<test-${n}@mx.example>`, now: t.clock() };
    expect(await t.app.bounces.byEnvelope(testSender, heard)).toBe('never-sent');
    expect(await store.db.selectFrom('suppressions').selectAll().execute()).toEqual([]);

    // The real send, to compare with.
    const { textHash } = (await c.get(withId(adminApiPaths.broadcast, id))).json();
    const approved = await checker.post(withId(adminApiPaths.broadcastApprove, id), { textHash });
    expect(approved.statusCode, approved.body).toBe(200);
    const sent = await c.post(withId(adminApiPaths.broadcastSend, id));
    expect(sent.statusCode, sent.body).toBe(200);
    await t.app.jobs.runOnce('outbox');
    await sink.waitFor(first + 2);
    const realRaw = sink.raw[first + 1];
    if (!realRaw) throw new Error('no broadcast email');
    expect(sink.senders[first + 1]).toMatch(/^bounces\+[0-9a-f]{48}@bounces\.dh\.example$/);
    expect(sink.senders[first + 1]).not.toBe(testSender);

    const [testHeaders, realHeaders] = [headersOf(testRaw), headersOf(realRaw)];
    expect(testHeaders.get('feedback-id')).toEqual([`${hex}:broadcast-test:diamond-hand:bounces.dh.example`]);
    expect(realHeaders.get('feedback-id')).toEqual([`${hex}:broadcast:diamond-hand:bounces.dh.example`]);
    expect(testHeaders.get('list-id')).toEqual([`Broadcast <b${hex}.bounces.dh.example>`]);
    expect(testHeaders.get('list-id')).toEqual(realHeaders.get('list-id'));
    expect(testHeaders.get('list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click']);
    expect(testHeaders.get('list-unsubscribe')?.[0]).toMatch(/^<https:\/\/dh\.example\/unsubscribe\?id=.+&sig=.+>$/);
    // The same header fields as the real send, and the same ones signed; both verify.
    expect([...testHeaders.keys()].sort()).toEqual([...realHeaders.keys()].sort());
    const signedNames = (h: Map<string, string[]>) => /\bh=([^;]+);/.exec(h.get('dkim-signature')?.[0] ?? '')?.[1];
    expect(signedNames(testHeaders)).toBe(signedNames(realHeaders));
    for (const raw of [testRaw, realRaw]) {
      const verdict = await dkimVerify(raw, { resolver });
      expect(verdict.results[0]?.status.result).toBe('pass');
    }
  });
});
