import { afterEach, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../shared/api-error.ts';
import { apiPaths, healthPaths, pagePaths } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import { closedPort, redisSkipReason, testRedisPrefix, testRedisUrl } from '../test/test-redis.ts';
import { dialectCases, openTestStore } from '../test/test-store.ts';
import { postSignupJson, visitPage } from '../test/visitor.ts';

let t: TestApp | undefined;
const after: (() => Promise<void>)[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const cleanup of after.splice(0)) await cleanup();
});

// Holds the event loop the way a burst of work would, then waits until under-pressure's sampler
// (every second) has seen it: a condition, not a sleep.
async function lagUntilUnderPressure(app: TestApp['app']): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!app.isUnderPressure()) {
    if (Date.now() > deadline) throw new Error('the server never saw itself under pressure');
    const until = Date.now() + 150;
    while (Date.now() < until); // busy on purpose: this is the lag being measured
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('overload', () => {
  it('refuses writes at once with 503, Retry-After and a sentence, and keeps serving the page', async () => {
    t = await buildTestApp({ env: { OVERLOAD_EVENT_LOOP_DELAY_MS: '50' } });
    const visitor = await visitPage(t.app);
    t.clock.advance(5000);
    await t.app.ready();
    await lagUntilUnderPressure(t.app);

    const signup = await postSignupJson(t.app, visitor, { name: 'Busy Day', email: 'busy@example.com' });
    expect(signup.statusCode).toBe(503);
    expect(Number(signup.headers['retry-after'])).toBeGreaterThan(0);
    expect(signup.json<ApiErrorBody>().error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/try again in \d+ seconds/),
    });
    expect(signup.headers['content-security-policy']).toBeDefined();
    expect(await t.store.db.selectFrom('subscribers').select('id').execute()).toHaveLength(0);

    const beacon = await t.app.inject({
      method: 'POST',
      url: apiPaths.visit,
      headers: { 'content-type': 'application/json' },
      payload: '{"p":"/"}',
    });
    expect(beacon.statusCode).toBe(204);

    const page = await t.app.inject({ url: pagePaths.home });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<!doctype html>');
  });

  it('lets writes through when the thresholds are off', async () => {
    t = await buildTestApp({ env: { OVERLOAD_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_HEAP_MB: '0' } });
    await t.app.ready();
    expect(t.app.isUnderPressure()).toBe(false);
    const visitor = await visitPage(t.app);
    t.clock.advance(5000);
    expect((await postSignupJson(t.app, visitor, { name: 'Calm Day', email: 'calm@example.com' })).statusCode).toBe(
      200,
    );
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`health on ${label}`, () => {
    it('says alive, and ready while the store answers', async () => {
      const store = await openTestStore(dialect);
      t = await buildTestApp({ store });
      after.push(() => store.destroy());
      const alive = await t.app.inject({ url: healthPaths.alive });
      expect(alive.statusCode).toBe(200);
      expect(alive.json()).toEqual({ status: 'alive' });
      expect(alive.headers['cache-control']).toBe('no-store');
      const ready = await t.app.inject({ url: healthPaths.ready });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    });

    it('says not ready, in words, once the store cannot answer; alive all the same', async () => {
      const store = await openTestStore(dialect);
      t = await buildTestApp({ store });
      // Closed under the app's feet (its files are removed after the test, the pool is gone).
      after.push(() => store.destroy().catch(() => undefined));
      await store.close();
      const ready = await t.app.inject({ url: healthPaths.ready });
      expect(ready.statusCode).toBe(503);
      expect(ready.json<ApiErrorBody>().error).toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/database/),
      });
      expect((await t.app.inject({ url: healthPaths.alive })).statusCode).toBe(200);
    });
  });
}

describe('health with REDIS_URL', () => {
  it('stays ready when Redis cannot be reached, saying limits are per instance, and names both when the store is gone too', async () => {
    const store = await openTestStore('sqlite');
    after.push(() => store.destroy().catch(() => undefined));
    t = await buildTestApp({
      store,
      env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, REDIS_KEY_PREFIX: testRedisPrefix() },
    });
    const ready = await t.app.inject({ url: healthPaths.ready });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      redis: 'unreachable',
      note: 'Redis cannot be reached: limits count per instance until it answers.',
    });
    await store.close();
    const neither = await t.app.inject({ url: healthPaths.ready });
    expect(neither.json<ApiErrorBody>().error.message).toBe(
      'The database cannot be reached, and Redis cannot be reached either.',
    );
  });

  it.skipIf(!testRedisUrl)(
    `says ready while the store and Redis both answer${testRedisUrl ? '' : ` (${redisSkipReason})`}`,
    async () => {
      t = await buildTestApp({ env: { REDIS_URL: testRedisUrl ?? '', REDIS_KEY_PREFIX: testRedisPrefix() } });
      const ready = await t.app.inject({ url: healthPaths.ready });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', redis: 'answering' });
    },
  );
});
