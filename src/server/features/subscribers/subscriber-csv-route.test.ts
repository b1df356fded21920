import { randomUUID } from 'node:crypto';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiPaths } from '../../../shared/paths.ts';
import { xsrf } from '../../../shared/xsrf.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { CHROME_UA, ConsoleClient, makeOperator } from '../../test/admin-kit.ts';

/** Fails every query on the subscribers table after the first `allowed` once armed. */
class FailingSubscriberReads implements KyselyPlugin {
  armed = false;
  private seen = 0;
  constructor(private readonly allowed: number) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.armed && args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"subscribers"')) {
      this.seen++;
      if (this.seen > this.allowed) throw new Error('the database went away');
    }
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

// Over real HTTP (inject buffers whole replies): a database failure after the first batch of the
// CSV must cut the download off, so the browser reports a failed download, never a short file
// that looks complete; and the server must not hang on to the request.
describe.each(dialectCases)('the CSV download when the database fails mid-stream ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  const failing = new FailingSubscriberReads(1);
  let base = '';

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // 1,500 people: the export reads them in two batches of at most 1,000. The fixture also
    // records the 'test' consent wording the others refer to.
    await insertSubscriber(store.db, `first-${randomUUID()}@example.com`);
    const rows = Array.from({ length: 1499 }, (_, i) => i);
    const now = new Date('2026-11-20T00:00:00.000Z');
    for (let i = 0; i < rows.length; i += 500) {
      await store.db
        .insertInto('subscribers')
        .values(
          rows.slice(i, i + 500).map((n) => ({
            id: randomUUID(),
            email: `p${n}@example.com`,
            email_key: `p${n}@example.com`,
            name: `Person ${n}`,
            comment: '',
            status: 'pending' as const,
            created_at: new Date(now.getTime() + n * 1000).toISOString(),
            updated_at: now.toISOString(),
            confirmed_at: null,
            unsubscribed_at: null,
            last_confirmation_at: null,
            consent_version: 'test',
            consent_at: now.toISOString(),
            consent_page: '/',
            country: null,
            region: null,
            city: null,
          })),
        )
        .execute();
    }
    t = await buildTestApp({ store: { ...store, db: store.db.withPlugin(failing) } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it.skipIf(skip)('cuts the response off instead of ending it cleanly', async () => {
    const op = await makeOperator(store.db, `csv-${dialect}@example.com`, t.clock());
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    // The signed-in client's cookies and XSRF token, sent as a browser on our page would.
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const token = c.cookies.get(xsrf.cookie) ?? c.cookies.get(xsrf.hostCookie) ?? '';
    const send = () =>
      fetch(`${base}${adminApiPaths.subscribersCsv}`, {
        method: 'POST',
        headers: {
          cookie,
          [xsrf.header]: token,
          'sec-fetch-site': 'same-origin',
          'user-agent': CHROME_UA,
          'content-type': 'application/json',
        },
        body: '{}',
      });

    const whole = await send();
    expect(whole.status).toBe(200);
    expect((await whole.text()).split('\r\n').filter(Boolean)).toHaveLength(1501);

    failing.armed = true;
    const cut = await send();
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow(/terminated/);
  });
});
