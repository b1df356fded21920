import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, httpRequest, type RawResponse } from '../../../../bench/lib/http.ts';
import { adminApiPaths, apiPaths } from '../../../shared/paths.ts';
import { xsrf } from '../../../shared/xsrf.ts';
import { CHROME_UA, makeOperator, operatorIdOf, wrongCodeAt, type TestOperator } from '../../test/admin-kit.ts';
import { type ServerHandle, startBuiltServer } from '../../test/processes.ts';
import { deleteRedisKeys, redisSkipReason, testRedisPrefix, testRedisUrl } from '../../test/test-redis.ts';
import {
  dialectCases,
  openTestStore,
  serverDatabaseUrl,
  testPostgresUrl,
  type TestStore,
} from '../../test/test-store.ts';
import type { Database } from '../../store/schema.ts';
import { OPERATOR_WRONG_CODES } from './code-tries.ts';
import { createChallenge, PENDING_COOKIE } from './sessions.ts';
import { raceServerEnv } from '../../test/race-kit.ts';

// Issue 38, as it was found: real concurrent HTTP against the production build (dist/), answers
// sent at once over sockets of their own, each from its own loopback address (one client network
// each). Every limit must hold exactly, however the answers interleave: before, the checks read a
// count before their awaits and wrote the failure after them, and a burst passed them all (41 of
// 200 codes checked on PostgreSQL where ten were promised, 57 of 500 from one address).
// "Checked" is counted from the audit log: each checked wrong answer writes a failed sign-in row,
// and an answer refused before its check writes none.

const BUILT_SERVER_MS = 120_000;
/**
 * The overload guard off, as in the test apps (built-app.ts): hundreds of answers at once on a busy
 * machine lag the event loop past its limit, and its 503s would hide what the limits did.
 */
/** Hundreds of connections at once on a busy two-core machine. */
const RACE_MS = 90_000;

/** Pending sign-ins (the password step done) made straight in the store, as many as asked. */
async function pendingSignIns(db: Kysely<Database>, op: TestOperator, count: number): Promise<string[]> {
  const id = await operatorIdOf(db, op.email);
  const now = new Date();
  return Promise.all(Array.from({ length: count }, () => createChallenge(db, id, now)));
}

/** The XSRF cookie and its header value, fetched once from an instance; every instance accepts them. */
async function xsrfFrom(origin: string): Promise<{ cookie: string; token: string }> {
  const res = await httpRequest(`${origin}${apiPaths.csrf}`, { headers: { 'user-agent': CHROME_UA } });
  const cookie = cookiesFrom(res);
  const token = /(?:^|; )(?:__Host-)?XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1];
  if (!token) throw new Error(`GET ${apiPaths.csrf} set no XSRF cookie (${res.status})`);
  return { cookie, token };
}

/** A console POST as the page sends it, from loopback address `from`. */
function post(
  origin: string,
  route: string,
  json: unknown,
  opts: { xsrf: { cookie: string; token: string }; from: string; cookie?: string },
): Promise<RawResponse> {
  return httpRequest(`${origin}${route}`, {
    method: 'POST',
    headers: {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'same-origin',
      origin,
      'content-type': 'application/json',
      cookie: [opts.xsrf.cookie, opts.cookie].filter(Boolean).join('; '),
      [xsrf.header]: opts.xsrf.token,
    },
    body: JSON.stringify(json),
    localAddress: opts.from,
    timeoutMs: 60_000,
  });
}

const audited = async (db: Kysely<Database>, email: string, action: string) =>
  (
    await db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', action)
      .where('subject', '=', email)
      .execute()
  ).length;

/** Statuses by count, e.g. { 400: 10, 429: 190 }. */
const tally = (answers: RawResponse[]): Record<number, number> =>
  answers.reduce<Record<number, number>>((t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }), {});

/**
 * The races, against one instance or spread over several (`origins`, taken in turn). `net` keeps
 * each run's loopback addresses apart (127.net.x.y), so one race's back-off never meets another's.
 */
function races(opts: { db: () => Kysely<Database>; origins: () => string[]; outboxes: () => string[]; net: number }) {
  const { db } = opts;
  const at = (i: number) => opts.origins()[i % opts.origins().length] ?? '';
  let seq = 0;
  const newOperator = () => makeOperator(db(), `race-${opts.net}-${seq++}-${Date.now()}@example.com`, new Date());

  /**
   * `codes` wrong authenticator codes sent at once for `pending` new pending sign-ins of a new
   * operator, code i for pending sign-in i % pending, from loopback address `from(i)`.
   */
  async function codeBurst(pending: number, codes: number, from: (i: number) => string) {
    const op = await newOperator();
    const tokens = await pendingSignIns(db(), op, pending);
    const token = await xsrfFrom(at(0));
    const body = { method: 'totp', code: wrongCodeAt(op, new Date()) };
    const answers = await Promise.all(
      Array.from({ length: codes }, (_, i) =>
        post(at(i), adminApiPaths.secondFactor, body, {
          xsrf: token,
          from: from(i),
          cookie: `${PENDING_COOKIE}=${tokens[i % pending]}`,
        }),
      ),
    );
    const statuses = tally(answers);
    return { op, statuses, checked: await audited(db(), op.email, 'sign-in.failed') };
  }

  it(
    '40 pending sign-ins from 40 addresses, 200 wrong codes at once: exactly ten checked, one hold, owners mailed',
    async () => {
      const { op, statuses, checked } = await codeBurst(40, 200, (i) => `127.${opts.net}.1.${(i % 40) + 1}`);
      expect(Object.keys(statuses).sort(), JSON.stringify(statuses)).toEqual(
        Object.keys(statuses).filter((s) => ['400', '401', '429'].includes(s)),
      );
      expect(checked, JSON.stringify(statuses)).toBe(OPERATOR_WRONG_CODES);
      expect(statuses[400] ?? 0).toBeLessThanOrEqual(OPERATOR_WRONG_CODES);
      expect(await audited(db(), op.email, 'sign-in.codes-held')).toBe(1);
      // The owners' email (this operator is an owner), written by whichever instance started the hold.
      await expect
        .poll(() => opts.outboxes().flatMap((dir) => mailsTo(dir, op.email)).length, { timeout: 15_000 })
        .toBe(1);
    },
    RACE_MS,
  );

  it(
    '100 pending sign-ins from one address, 500 wrong codes at once: five checked (the pair backs off first)',
    async () => {
      const { statuses, checked } = await codeBurst(100, 500, () => `127.${opts.net}.2.1`);
      // The address from one network has five free failures; the operator's ten are never reached.
      expect(checked, JSON.stringify(statuses)).toBe(5);
      expect(statuses).toEqual({ 400: 5, 429: 495 });
    },
    RACE_MS,
  );

  it(
    '50 wrong passwords at once from one address: exactly five reach the password check',
    async () => {
      const op = await newOperator();
      const token = await xsrfFrom(at(0));
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          post(
            at(i),
            adminApiPaths.signIn,
            { email: op.email, password: `wrong password ${i}` },
            {
              xsrf: token,
              from: `127.${opts.net}.3.1`,
            },
          ),
        ),
      );
      const statuses = tally(answers);
      expect(statuses).toEqual({ 401: 5, 429: 45 });
      expect(await audited(db(), op.email, 'sign-in.failed')).toBe(5);
    },
    RACE_MS,
  );
}

/** Emails to `to` the file mailer wrote into `dir` (OUTBOX_DIR). */
function mailsTo(dir: string, to: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(dir, f), 'utf8')).filter((m) => m.includes(`To: ${to}`));
}

const newOutbox = () => mkdtempSync(path.join(os.tmpdir(), 'dh-race-outbox-'));

describe.each(dialectCases)('sign-in limits under a burst, one built instance ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let server: ServerHandle;
  const outbox = newOutbox();
  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    server = await startBuiltServer({
      ...raceServerEnv,
      DATABASE_URL: serverDatabaseUrl(store),
      OUTBOX_DIR: outbox,
    });
  }, BUILT_SERVER_MS);
  afterAll(async () => {
    await server?.stop();
    await store?.destroy();
  });
  describe.skipIf(skip)('races', () => {
    races({
      db: () => store.db,
      origins: () => [server.origin],
      outboxes: () => [outbox],
      net: dialect === 'sqlite' ? 10 : 20,
    });
  });
});

const twoSkip = !testPostgresUrl || !testRedisUrl;
describe.skipIf(twoSkip)(
  `sign-in limits under a burst, two built instances on one PostgreSQL and one Redis${twoSkip ? ` (${!testPostgresUrl ? 'skipped: set TEST_POSTGRES_URL to run' : redisSkipReason})` : ''}`,
  () => {
    let store: TestStore;
    const servers: ServerHandle[] = [];
    const outboxes = [newOutbox(), newOutbox()];
    const prefix = testRedisPrefix();
    beforeAll(async () => {
      store = await openTestStore('postgres');
      const env = {
        ...raceServerEnv,
        DATABASE_URL: serverDatabaseUrl(store),
        REDIS_URL: testRedisUrl ?? '',
        REDIS_KEY_PREFIX: prefix,
      };
      servers.push(...(await Promise.all(outboxes.map((dir) => startBuiltServer({ ...env, OUTBOX_DIR: dir })))));
    }, BUILT_SERVER_MS);
    afterAll(async () => {
      for (const s of servers) await s.stop();
      await store?.destroy();
      await deleteRedisKeys(prefix);
    });
    races({ db: () => store.db, origins: () => servers.map((s) => s.origin), outboxes: () => outboxes, net: 30 });
  },
);
