import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { healthPaths } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from './built-app.ts';
import { openTestStore, testClock } from './test-store.ts';

/**
 * Two instances on one store (and one Redis when `env` names it) with one clock, as a load
 * balancer sees them; `lines` is both instances' log. `close` closes the apps, then the store.
 */
export async function openTwoInstances(env: Record<string, string>) {
  const store = await openTestStore('sqlite');
  const clock = testClock();
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const opened: TestApp[] = [];
  const close = async () => {
    for (const t of opened) await t.close();
    await store.destroy();
  };
  try {
    for (let i = 0; i < 2; i++)
      opened.push(await buildTestApp({ store, clock, logStream, env: { LOG_LEVEL: 'info', ...env } }));
  } catch (error) {
    await close();
    throw error;
  }
  const [a, b] = opened as [TestApp, TestApp];
  return { a, b, store, clock, lines, close };
}

/** Waits, by asking, until the instance's /readyz answers `status` (never a fixed sleep). */
export async function readyzUntil(t: TestApp, redis: 'answering' | 'unreachable'): Promise<LightMyRequestResponse> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await t.app.inject({ url: healthPaths.ready });
    if (res.statusCode === 200 && res.json<{ redis?: string }>().redis === redis) return res;
    if (Date.now() > deadline) throw new Error(`/readyz still answers ${res.statusCode}: ${res.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
