import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ServerHandle } from '../test/processes.ts';
import { dialectCases, openTestStore, serverDatabaseUrl } from '../test/test-store.ts';
import { isAck, missingSignups, postSignup, signupLoad, startServer, until, visitorOf } from '../test/fault-kit.ts';

// Fault: `kill -9` of the server in the middle of a sign-up burst, then a restart on the same
// database. Every sign-up the server acknowledged was committed before it answered (group
// commit: durable, then 200), so every one must be there, each with its confirmation email queued
// in the outbox; SQLite's file must pass its integrity check. The kill comes after a number of
// acknowledgements (a condition, not a time), with requests in flight.
const ACKS_BEFORE_KILL = 400;
const CLIENTS = 16;

describe.each(dialectCases)('kill -9 during sign-up load ($label)', ({ dialect, skip }) => {
  it.skipIf(skip)('loses no acknowledged sign-up and leaves the database whole', { timeout: 120_000 }, async () => {
    // Migrated here, so a PostgreSQL schema's migration bookkeeping lives in that schema. Only the
    // server writes; this store reads afterwards.
    const store = await openTestStore(dialect);
    const url = serverDatabaseUrl(store);

    let server: ServerHandle | undefined = await startServer({ DATABASE_URL: url });
    try {
      const load = signupLoad(await visitorOf(server.origin), { concurrency: CLIENTS, prefix: `k${dialect}-` });
      const started = performance.now();
      await until(() => load.acked.length >= ACKS_BEFORE_KILL, `${ACKS_BEFORE_KILL} acknowledged sign-ups`);
      const handle = server;
      process.kill(handle.pid, 'SIGKILL');
      const loadMs = performance.now() - started;
      await load.stop();
      await handle.stop();
      server = undefined;

      // The same database, a new process: it must start (and so pass its migrations check) and
      // take sign-ups again.
      server = await startServer({ DATABASE_URL: url });
      expect(isAck(await postSignup(await visitorOf(server.origin), `after-kill-${dialect}@example.com`))).toBe(true);
      await server.stop();
      server = undefined;

      const missing = await missingSignups(store, load.acked);
      expect(missing.subscriber).toEqual([]);
      expect(missing.outbox).toEqual([]);
      if (dialect === 'sqlite') {
        const file = new Database(url.slice('sqlite:'.length), { readonly: true });
        try {
          expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          file.close();
        }
      }
      console.log(
        `kill -9 (${dialect}): ${load.acked.length} sign-ups acknowledged in ${Math.round(loadMs)} ms, all present with their outbox rows; ` +
          `${load.unanswered} request(s) in flight at the kill got no answer, ${load.refused} refused`,
      );
    } finally {
      await server?.stop();
      await store.destroy();
    }
  });
});
