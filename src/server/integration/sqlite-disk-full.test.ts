import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerHandle } from '../test/processes.ts';
import { openStore } from '../store/database.ts';
import { mountSmallDisk, type SmallDisk } from '../test/small-disk.ts';
import {
  isAck,
  missingSignups,
  postSignup,
  startServer,
  statusOf,
  until,
  visitorOf,
  type SignupAnswer,
} from '../test/fault-kit.ts';

// Fault: SQLite's disk fills up. The built server keeps its database on a small tmpfs the test
// mounts; a filler file takes all but a few kilobytes, and sign-ups are posted until the store
// refuses one. That refusal must be a 503 in words (never a 500 or a stack) with Retry-After, its
// log line must carry the error's code and no address, the file must pass its integrity check, and
// once the filler is deleted sign-ups must be taken again without a restart.
const MOUNT_SIZE = '16m';
const LEAVE_FREE_BYTES = 32 * 1024;

let disk: SmallDisk | undefined;
let file = '';

const integrity = (): unknown => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
};

describe('SQLite disk full', () => {
  let server: ServerHandle | undefined;

  beforeAll(() => {
    disk = mountSmallDisk('dh-disk-full-', MOUNT_SIZE);
    file = path.join(disk.dir, 'dh.sqlite');
  });

  afterAll(async () => {
    await server?.stop();
    disk?.remove();
  });

  it(
    'answers 503 in words, keeps the file whole, and takes sign-ups again once space returns',
    { timeout: 120_000 },
    async (ctx) => {
      if (!disk || disk.mounted !== true) return ctx.skip(`Skipped: ${disk?.mounted ?? 'no disk'}`);
      server = await startServer({ DATABASE_URL: `sqlite:${file}` });
      const visitor = await visitorOf(server.origin);
      const acked: string[] = [];
      let n = 0;
      const signUp = async (): Promise<SignupAnswer> => {
        const email = `full-${++n}@example.com`;
        const answer = await postSignup(visitor, email);
        if (isAck(answer)) acked.push(email);
        return answer;
      };
      expect(isAck(await signUp())).toBe(true);

      disk.fill(LEAVE_FREE_BYTES);

      // Sign-ups go on into the last kilobytes (and the WAL's space already allocated) until one is refused.
      let refused: SignupAnswer | undefined;
      const ackedBeforeFull = acked.length;
      await until(async () => {
        const answer = await signUp();
        if (isAck(answer)) return false;
        refused = answer;
        return true;
      }, 'the store to refuse a sign-up on the full disk');
      const ackedWhileFilling = acked.length - ackedBeforeFull;
      expect(refused?.status).toBe(503);
      expect(refused?.body.error?.code).toBe('unavailable');
      expect(refused?.body.error?.message).toMatch(
        /^Our database is not answering just now, so your sign-up could not be saved\./,
      );
      expect(Number(refused?.retryAfter)).toBeGreaterThan(0);
      // Still full: the next one is refused the same way, unless a checkpoint (on its own thread
      // since decision 0051) has just let the WAL start over in space it already holds: then it is
      // stored durably and acknowledged, and counted below with every other acknowledged one.
      // Either way it is never a 500 and never lost; the page is still served.
      const next = await signUp();
      expect(isAck(next) || (next.status === 503 && next.body.error?.code === 'unavailable')).toBe(true);
      expect(await statusOf(`${server.origin}/`)).toBe(200);

      // The log says what happened, by code, and names no one.
      await until(() => server?.output().includes('store unavailable') === true, 'the log line for the refusal');
      const log = server.output();
      expect(log).toMatch(/SQLITE_(FULL|IOERR)/);
      expect(log).not.toMatch(/@example\.com/);
      expect(integrity()).toBe('ok');

      disk.empty();
      const freedAt = performance.now();
      await until(async () => isAck(await signUp()), 'a sign-up to be taken once space returned');
      const backMs = performance.now() - freedAt;

      await server.stop();
      server = undefined;
      expect(integrity()).toBe('ok');
      const store = await openStore(`sqlite:${file}`);
      try {
        expect(await missingSignups(store, acked)).toEqual({ subscriber: [], outbox: [] });
      } finally {
        await store.close();
      }
      console.log(
        `SQLite disk full (${MOUNT_SIZE} tmpfs, ${LEAVE_FREE_BYTES / 1024} KB left): ${ackedWhileFilling} sign-ups taken into the last space, ` +
          `then 503 in words in ${Math.round(refused?.ms ?? 0)} ms; integrity ok; sign-ups taken again ${Math.round(backMs)} ms after the filler was deleted, no restart; ` +
          `all ${acked.length} acknowledged present with their outbox rows`,
      );
    },
  );
});
