import { afterEach, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../shared/api-error.ts';
import { adminApiPaths, apiPaths, metricsPath, pagePaths, subscriberApiPath } from '../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../test/built-app.ts';
import { sampleOf } from '../test/prometheus-text.ts';
import { dialectCases, openTestStore, type TestStore } from '../test/test-store.ts';
import { postSignupJson, visitPage } from '../test/visitor.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp | undefined;
let store: TestStore | undefined;
afterEach(async () => {
  await t?.close();
  await store?.destroy();
  t = store = undefined;
});

const scrape = (app: TestApp['app'], token: string | null = TOKEN) =>
  app.inject({ url: metricsPath, headers: token === null ? {} : { authorization: `Bearer ${token}` } });

describe('/metrics without METRICS_TOKEN', () => {
  it('is not there: the same 404, in the same shape, as any unknown address', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      url: metricsPath,
      headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}` },
    });
    const unknown = await t.app.inject({ url: '/no-such-address', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiErrorBody>()).toEqual(unknown.json<ApiErrorBody>());
    expect(res.json<ApiErrorBody>().error.code).toBe('not_found');
  });
});

describe("a feature's metrics", () => {
  it("are its own counters on the app's registry, provided once under its key", async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const counter = t.app.metrics.counter({
      name: 'dh_test_feature_total',
      help: 'A feature of this test.',
      labelNames: ['step'],
    });
    counter.inc({ step: 'one' }, 2);
    expect(sampleOf((await scrape(t.app)).body, 'dh_test_feature_total', { step: 'one' })).toBe(2);
    // The features registered theirs with the app; a second one under a taken key is refused.
    expect(() => t?.app.metrics.provide('signups', { accepted: () => undefined, trapped: () => undefined })).toThrow(
      /provided already/,
    );
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('answers 401 in the one error shape without the token, with a wrong one, or with a part of it', async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${TOKEN}`,
      TOKEN,
      'Bearer ',
    ]) {
      const res = await t.app.inject({
        url: metricsPath,
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json<ApiErrorBody>().error).toMatchObject({
        code: 'unauthorized',
        message: expect.stringMatching(/token/),
      });
      expect(res.body).not.toContain(TOKEN.slice(0, 8));
    }
  });

  it('serves the Prometheus text format, never cached, with the process figures and the event-loop delay', async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const res = await scrape(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(sampleOf(res.body, 'dh_event_loop_delay_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleOf(res.body, 'dh_overloaded')).toBe(0);
    expect(sampleOf(res.body, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleOf(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // A fixed set of reasons is there from the start.
    expect(sampleOf(res.body, 'dh_beacons_dropped_total', { reason: 'over-budget' })).toBe(0);
    // Two apps in one process keep their own counts (no global registry).
    const other = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      await scrape(t.app);
      const first = await scrape(other.app);
      expect(
        sampleOf(first.body, 'dh_http_requests_total', { method: 'GET', route: metricsPath, status: '200' }),
      ).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('labels requests by route pattern, never by the address asked for', async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const secretish = 'c0ffee-4a11-secret-looking-id';
    // A link whose signature does not verify (404), a console read from nowhere (403).
    await t.app.inject({ url: `${pagePaths.unsubscribe}?id=${secretish}&sig=${secretish}` });
    await t.app.inject({ method: 'POST', url: subscriberApiPath(adminApiPaths.subscriberDetails, secretish) });
    await t.app.inject({ url: `/${secretish}`, headers: { accept: 'application/json' } });
    const body = (await scrape(t.app)).body;
    expect(body).not.toContain(secretish);
    expect(
      sampleOf(body, 'dh_http_requests_total', { method: 'GET', route: pagePaths.unsubscribe, status: '404' }),
    ).toBe(1);
    expect(
      sampleOf(body, 'dh_http_requests_total', {
        method: 'POST',
        route: adminApiPaths.subscriberDetails,
        status: '403',
      }),
    ).toBe(1);
    expect(sampleOf(body, 'dh_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sampleOf(body, 'dh_http_request_duration_seconds_count', { method: 'GET', route: pagePaths.unsubscribe }),
    ).toBe(1);
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`what /metrics counts, on ${label}`, () => {
    it('sign-ups, mail sent and failed, beacons counted and dropped, the outbox backlog; no address of anyone', async () => {
      store = await openTestStore(dialect);
      const mailer = memoryMailer();
      const app = (t = await buildTestApp({ store, mailer, env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: 'true' } })).app;
      const ip = '130.149.7.201';
      const email = 'metrics-person@example.org';
      const visitor = await visitPage(t.app);
      t.clock.advance(5000);

      // One confirmation sent, one that fails (and stays pending for a retry).
      expect(
        (await postSignupJson(t.app, visitor, { name: 'Metric Person', email }, { 'x-forwarded-for': ip })).statusCode,
      ).toBe(200);
      await t.app.jobs.runOnce('outbox');
      expect(mailer.sent).toHaveLength(1);
      mailer.fail(new Error(`421 try again later <second-${email}>`));
      expect(
        (
          await postSignupJson(
            t.app,
            visitor,
            { name: 'Second Person', email: `second-${email}` },
            { 'x-forwarded-for': ip },
          )
        ).statusCode,
      ).toBe(200);
      await t.app.jobs.runOnce('outbox');
      // The same person again: accepted, not new.
      expect(
        (await postSignupJson(t.app, visitor, { name: 'Metric Person', email }, { 'x-forwarded-for': ip })).statusCode,
      ).toBe(200);

      const beacon = (headers: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: apiPaths.visit,
          headers: {
            'content-type': 'application/json',
            'sec-fetch-site': 'same-origin',
            'user-agent': chrome,
            'x-forwarded-for': ip,
            ...headers,
          },
          payload: JSON.stringify({ p: '/' }),
        });
      expect((await beacon({})).statusCode).toBe(204);
      expect((await beacon({ dnt: '1' })).statusCode).toBe(204);
      expect((await beacon({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(204);
      await t.app.jobs.runOnce('visit-flush');
      t.clock.advance(90_000);

      const res = await scrape(t.app);
      expect(res.statusCode).toBe(200);
      const body = res.body;
      expect(sampleOf(body, 'dh_signups_total', { outcome: 'created' })).toBe(2);
      expect(sampleOf(body, 'dh_signups_total', { outcome: 'updated' })).toBe(1);
      expect(sampleOf(body, 'dh_signups_trapped_total', { trap: 'too-fast' })).toBe(0);
      expect(sampleOf(body, 'dh_mail_sent_total', { kind: 'confirmation' })).toBe(1);
      expect(sampleOf(body, 'dh_mail_failed_total', { kind: 'confirmation' })).toBe(1);
      expect(sampleOf(body, 'dh_beacons_counted_total')).toBe(1);
      expect(sampleOf(body, 'dh_beacons_dropped_total', { reason: 'dnt' })).toBe(1);
      expect(sampleOf(body, 'dh_beacons_dropped_total', { reason: 'invalid' })).toBe(1);
      expect(sampleOf(body, 'dh_outbox_pending', { kind: 'confirmation' })).toBe(1);
      // The failed row was queued 90 s before the scrape (by the test's clock).
      expect(sampleOf(body, 'dh_outbox_oldest_pending_age_seconds', { kind: 'confirmation' })).toBe(90);
      expect(sampleOf(body, 'dh_http_requests_total', { method: 'POST', route: pagePaths.signup, status: '200' })).toBe(
        3,
      );
      expect(sampleOf(body, 'dh_http_requests_total', { method: 'POST', route: apiPaths.visit, status: '204' })).toBe(
        3,
      );

      for (const personal of [email, 'example.org', ip, '130.149', chrome, 'Chrome/131', TOKEN])
        expect(body, personal).not.toContain(personal);
    });
  });
}
