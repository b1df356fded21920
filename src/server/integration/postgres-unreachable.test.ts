import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHandle } from '../test/processes.ts';
import { openTestStore, serverDatabaseUrl, testPostgresUrl, type TestStore } from '../test/test-store.ts';
import {
  isAck,
  missingSignups,
  postSignup,
  readyStatus,
  signupLoad,
  startServer,
  statusOf,
  until,
  visitorOf,
  type Visitor,
} from '../test/fault-kit.ts';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';

// Fault: PostgreSQL unreachable. The built server talks to PostgreSQL through a TCP proxy the test
// holds, which then goes silent (accepts, never forwards, never closes: a cut cable or a dropped
// firewall state, the case only a timeout detects). Sign-ups must be refused in words with
// Retry-After within 2 s, the page must still be served, /readyz must say "not ready", and once
// the proxy forwards again the site must take sign-ups by itself, without a restart, though the
// connections it held stay silent for ever.
const ANSWER_WITHIN_MS = 2000;

describe.skipIf(!testPostgresUrl)('PostgreSQL unreachable (blackholed)', () => {
  let store: TestStore;
  let proxy: TcpProxy;
  let server: ServerHandle;
  let visitor: Visitor;

  beforeAll(async () => {
    store = await openTestStore('postgres');
    const target = new URL(store.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(serverDatabaseUrl(store));
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({ DATABASE_URL: url.toString() });
    visitor = await visitorOf(server.origin);
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await store?.destroy();
  });

  it(
    'refuses sign-ups in words within 2 s, keeps serving the page, and recovers by itself',
    { timeout: 90_000 },
    async () => {
      // Some load first, so the server holds open connections when they go silent.
      const warm = signupLoad(visitor, { concurrency: 4, prefix: 'warm-' });
      await until(() => warm.acked.length >= 50, '50 sign-ups before the fault');
      await warm.stop();
      expect(await readyStatus(server.origin)).toBe(200);

      proxy.blackhole();
      const blackholedAt = performance.now();

      // Five visitors at once, three times over: the first meet the pooled connections, the later
      // ones new connections that never complete.
      const answers = [];
      for (let round = 0; round < 3; round++) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, (_, i) => postSignup(visitor, `down-${round}-${i}@example.com`)),
          )),
        );
      }
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.body.error?.code).toBe('unavailable');
        expect(answer.body.error?.message).toMatch(
          /^Our database is not answering just now, so your sign-up could not be saved\./,
        );
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
      }
      const slowest503 = Math.max(...answers.map((a) => a.ms));

      // The page is served from memory, database or not.
      const pageStarted = performance.now();
      expect(await statusOf(`${server.origin}/`)).toBe(200);
      const pageMs = performance.now() - pageStarted;
      expect(pageMs).toBeLessThan(ANSWER_WITHIN_MS);
      const readyStarted = performance.now();
      expect(await readyStatus(server.origin)).toBe(503);
      const readyMs = performance.now() - readyStarted;
      const outageMs = performance.now() - blackholedAt;

      proxy.restore();
      const restoredAt = performance.now();
      const recovered: string[] = [];
      let n = 0;
      await until(async () => {
        const email = `back-${++n}@example.com`;
        if (!isAck(await postSignup(visitor, email))) return false;
        recovered.push(email);
        return true;
      }, 'a sign-up to be acknowledged after the database returned');
      const signupBackMs = performance.now() - restoredAt;
      await until(async () => (await readyStatus(server.origin)) === 200, '/readyz to say ready again');
      const readyBackMs = performance.now() - restoredAt;

      const missing = await missingSignups(store, [...warm.acked, ...recovered]);
      expect(missing).toEqual({ subscriber: [], outbox: [] });
      console.log(
        `PostgreSQL blackholed: ${answers.length} sign-ups refused 503 in words, slowest in ${Math.round(slowest503)} ms ` +
          `(median ${Math.round(answers.map((a) => a.ms).sort((a, b) => a - b)[Math.floor(answers.length / 2)] ?? 0)} ms); ` +
          `page 200 in ${Math.round(pageMs)} ms; /readyz 503 in ${Math.round(readyMs)} ms; outage ${Math.round(outageMs)} ms. ` +
          `Restored: first sign-up acknowledged after ${Math.round(signupBackMs)} ms, /readyz 200 after ${Math.round(readyBackMs)} ms, no restart.`,
      );
    },
  );
});
