// `npm run bench:mail-load`: a launch broadcast to BENCH_RECIPIENTS (10,000) confirmed subscribers
// sent by the built server into a real SMTP sink in this process, where 3 % of recipients
// hard-bounce (550 5.1.1 at RCPT) and 0.2 % complain (a signed Mailgun webhook posted to the server
// as each of their emails is accepted, naming only the address, and posted twice as a provider's
// retry would). 0.5 % of the list was suppressed before the send. It prints, per store:
//   - when the brake paused the broadcast (sent so far, the minimum sample, its reason);
//   - after an operator's override, the emails/s of the rest of the send, beside the sink's own
//     ceiling measured in the same run (pooled nodemailer straight to it, no outbox);
//   - the checks: no suppressed address mailed, each address mailed once, each bounce and
//     complaint counted once.
// BENCH_CPU_PROF=<dir> writes the server's CPU profile there and prints where its time went.
// A measurement, not a test: it exits 0 whatever the figures, non-zero only when it could not measure.
import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ratesOf, minSampleOf } from '../src/server/features/broadcast/broadcast-brake.ts';
import { resume } from '../src/server/features/broadcast/broadcast-sending.ts';
import { Suppressions } from '../src/server/features/mail/suppression.ts';
import { apiPaths } from '../src/shared/paths.ts';
import type { Store } from '../src/server/store/database.ts';
import { startSmtpSink } from '../src/server/test/smtp-sink.ts';
import { BROADCAST_PREFIX, openMigratedStore, seedConfirmed, sinkCeiling, startBroadcast } from './lib/mail.ts';
import { cpuProfileArgs, withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl, redactUrl } from './lib/postgres.ts';
import { startBuiltServer, testSecretsForBench, withTimeout } from './lib/processes.ts';
import { summariseProfile } from './lib/profile-summary.ts';
import { loadAverage, progress, runBench } from './lib/run.ts';
import { int, printTable } from './lib/table.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const CONCURRENCY = 4; // the server's default MAIL_CONCURRENCY: the ceiling uses as many connections
const SIGNING_KEY = 'bench-mailgun-signing-key-0123456789';

// Which recipients bounce, complain, or were suppressed before: spread over the list by index.
const hardBounces = (i: number) => (i * 7919) % 1000 < 30; // 3 %
const complains = (i: number) => !hardBounces(i) && (i * 104_729) % 1000 >= 500 && (i * 104_729) % 1000 < 502; // 0.2 %
const suppressedBefore = (i: number) => !hardBounces(i) && !complains(i) && (i * 15_485_863) % 1000 < 5; // 0.5 %
const indexOf = (address: string) => Number(/^bc(\d+)@/.exec(address)?.[1] ?? -1);

interface LoadFigures {
  store: 'SQLite' | 'PostgreSQL';
  sample: number;
  pause: { sent: number; hard: number; complaints: number; afterMs: number; reason: string } | null;
  rest: { emails: number; seconds: number; perSec: number };
  ceilingPerSec: number;
  checks: {
    suppressedMailed: number;
    mailedTwice: number;
    hardCounted: number;
    hardRefused: number;
    complaintsCounted: number;
    complaintsPosted: number;
    retriesCounted: number;
  };
  profile: string | null;
}

/** A Mailgun "complained" webhook for this address, signed as Mailgun documents it. */
function mailgunComplaint(address: string, eventId: string): string {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = randomUUID();
  const signature = createHmac('sha256', SIGNING_KEY)
    .update(timestamp + token)
    .digest('hex');
  return JSON.stringify({
    signature: { timestamp, token, signature },
    'event-data': { id: eventId, event: 'complained', recipient: address },
  });
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const reached = (async () => {
    while (!(await check())) await new Promise((r) => setTimeout(r, 200));
  })();
  await withTimeout(reached, ms, what);
}

async function run(
  storeName: LoadFigures['store'],
  databaseUrl: string,
  profileDir: string | null,
): Promise<LoadFigures> {
  const store: Store = await openMigratedStore(databaseUrl);
  progress(`${storeName}: seeding ${int(RECIPIENTS)} confirmed subscribers, 0.5 % of them suppressed already`);
  await seedConfirmed(store, RECIPIENTS);
  const suppressions = new Suppressions(testSecretsForBench());
  const earlier = new Set<string>();
  for (let i = 0; i < RECIPIENTS; i++) {
    if (!suppressedBefore(i)) continue;
    earlier.add(`${BROADCAST_PREFIX}${i}@example.com`);
    await suppressions.suppress(store.db, {
      address: `${BROADCAST_PREFIX}${i}@example.com`,
      reason: 'hard-bounce',
      source: 'smtp',
      now: new Date(),
    });
  }

  const attempts = new Map<string, number>();
  const accepted: number[] = [];
  const refused: number[] = [];
  const webhooks: Promise<void>[] = [];
  const answers = { counted: 0, retriesCounted: 0, posted: 0, failed: 0 };
  let origin = '';
  const sink = await startSmtpSink(
    0,
    (rcpt) => {
      if (!rcpt.startsWith(BROADCAST_PREFIX)) return null;
      attempts.set(rcpt, (attempts.get(rcpt) ?? 0) + 1);
      if (!hardBounces(indexOf(rcpt))) return null;
      refused.push(performance.now());
      return { code: 550, message: '5.1.1 The email account that you tried to reach does not exist' };
    },
    {
      keep: false,
      onAccepted(recipients) {
        for (const r of recipients) {
          if (!r.startsWith(BROADCAST_PREFIX)) continue;
          accepted.push(performance.now());
          if (!complains(indexOf(r))) continue;
          // The person presses "spam": the provider tells us, and retries the same event once.
          const eventId = `mg-${r}`;
          const post = async (retry: boolean) => {
            const res = await fetch(`${origin}${apiPaths.mailgunWebhook}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: mailgunComplaint(r, eventId),
            });
            const body = (await res.json()) as { counted?: number };
            if (!res.ok) answers.failed++;
            if (retry) answers.retriesCounted += body.counted ?? 0;
            else answers.counted += body.counted ?? 0;
          };
          answers.posted++;
          webhooks.push(post(false).then(() => post(true)));
        }
      },
    },
  );
  const server = await startBuiltServer(
    {
      DATABASE_URL: databaseUrl,
      SMTP_URL: sink.url,
      MAIL_RATE_PER_SEC: '1000',
      MAILGUN_WEBHOOK_SIGNING_KEY: SIGNING_KEY,
      LOG_LEVEL: 'warn',
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : cpuProfileArgs(),
  );
  origin = server.origin;
  try {
    const started = performance.now();
    await startBroadcast(store);
    const b = await store.db
      .selectFrom('broadcasts')
      .select(['id', 'recipients'])
      .where('status', '=', 'sending')
      .executeTakeFirstOrThrow();
    const sample = minSampleOf(b.recipients ?? RECIPIENTS);
    progress(
      `${storeName}: broadcast to ${int(b.recipients ?? 0)} started; the brake judges after ${int(sample)} sent`,
    );
    const status = async () =>
      await store.db
        .selectFrom('broadcasts')
        .select(['status', 'paused_reason'])
        .where('id', '=', b.id)
        .executeTakeFirstOrThrow();
    const pending = async () =>
      Number(
        (
          await store.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('broadcast_id', '=', b.id)
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );

    // Every recipient not suppressed before is attempted once (a complaint comes after delivery).
    const expected = RECIPIENTS - earlier.size;
    const allAttempted = () =>
      until(() => Promise.resolve(attempts.size >= expected), 10 * 60_000, 'every recipient attempted');
    let pause: LoadFigures['pause'] = null;
    await until(
      async () => (await status()).status === 'paused' || attempts.size >= expected,
      10 * 60_000,
      'the broadcast to pause or finish',
    );
    const s = await status();
    if (s.status === 'paused') {
      const r = await ratesOf(store.db, b.id);
      pause = {
        sent: r.sent,
        hard: r.hard,
        complaints: r.complaints,
        afterMs: performance.now() - started,
        reason: s.paused_reason ?? '',
      };
      progress(`${storeName}: paused after ${int(r.sent)} sent: ${pause.reason}`);
      // Let the rows already in their SMTP exchange finish, then an operator overrides the pause.
      await Promise.all(webhooks);
      const before = accepted.length + refused.length;
      await resume(store.db, b.id, 'bench-operator', new Date());
      progress(`${storeName}: resumed by an operator's override; sending the rest`);
      const restStart = performance.now();
      // Waited for in the sink, not by asking the store: the bench's own queries would share the
      // sink's process and the server's database with the run.
      await allAttempted();
      await until(async () => (await pending()) === 0, 60_000, 'the last marks');
      // The last rows' marks commit just after their exchange: the figure is up to the last exchange.
      const last = Math.max(accepted.at(-1) ?? 0, refused.at(-1) ?? 0);
      const emails = accepted.length + refused.length - before;
      const seconds = (last - restStart) / 1000;
      await Promise.all(webhooks);
      const ceilingPerSec = await sinkCeiling(sink.url, emails, CONCURRENCY);
      return {
        store: storeName,
        sample,
        pause,
        rest: { emails, seconds, perSec: emails / seconds },
        ceilingPerSec,
        checks: await checks(),
        profile: null,
      };
    }
    const seconds = (Math.max(accepted.at(-1) ?? 0, refused.at(-1) ?? 0) - started) / 1000;
    const emails = accepted.length + refused.length;
    await Promise.all(webhooks);
    return {
      store: storeName,
      sample,
      pause,
      rest: { emails, seconds, perSec: emails / seconds },
      ceilingPerSec: await sinkCeiling(sink.url, emails, CONCURRENCY),
      checks: await checks(),
      profile: null,
    };

    async function checks(): Promise<LoadFigures['checks']> {
      const r = await ratesOf(store.db, b.id);
      return {
        suppressedMailed: [...earlier].filter((a) => attempts.has(a)).length,
        mailedTwice: [...attempts.values()].filter((n) => n > 1).length,
        hardCounted: r.hard,
        hardRefused: refused.length,
        complaintsCounted: r.complaints,
        complaintsPosted: answers.posted,
        retriesCounted: answers.retriesCounted + answers.failed,
      };
    }
  } finally {
    await server.stop();
    await sink.close();
    await store.close();
  }
}

/** Where the server's time went (its CPU profile: SQL, SQLite's commits, MIME building, by package), or null. */
function profileLine(dir: string): string | null {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return null;
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const s = summariseProfile(raw);
  const busy = s.totalMs - s.idleMs;
  const share = (msPart: number) => `${((msPart / busy) * 100).toFixed(0)} %`;
  const top = s.byGroup
    .filter((g) => !/idle|program/.test(g.name))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, 5)
    .map((g) => `${g.name} ${share(g.selfMs)}`);
  const commits = summariseProfile(raw, 'commitTransaction').totalMs;
  const mime = summariseProfile(raw, '_processMessages').totalMs;
  return (
    `busy ${(busy / 1000).toFixed(1)} s of ${(s.totalMs / 1000).toFixed(1)} s; of the busy time: commits ${share(commits)}, ` +
    `nodemailer's sending (MIME, SMTP) ${share(mime)}; self time by package: ${top.join(', ')}`
  );
}

async function measure(): Promise<LoadFigures[]> {
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
  const results: LoadFigures[] = [];
  results.push(
    await withSqliteDir('dh-bench-mail-load-', async ({ file }) => {
      const dir = profileDir ? path.join(profileDir, 'sqlite') : null;
      const f = await run('SQLite', `sqlite:${path.resolve(file)}`, dir);
      return { ...f, profile: dir ? profileLine(dir) : null };
    }),
  );
  let scratch;
  try {
    scratch = await createScratchDatabase(postgresBaseUrl());
  } catch (error) {
    console.log(
      `PostgreSQL skipped: no scratch database on ${redactUrl(postgresBaseUrl())} (${error instanceof Error ? error.message : String(error)}).`,
    );
    return results;
  }
  try {
    const dir = profileDir ? path.join(profileDir, 'postgres') : null;
    const f = await run('PostgreSQL', scratch.url, dir);
    results.push({ ...f, profile: dir ? profileLine(dir) : null });
  } finally {
    await scratch.drop();
  }
  return results;
}

function print(results: LoadFigures[], loadBefore: string): void {
  printTable(
    `Broadcast to ${int(RECIPIENTS)}: 3 % hard bounces at RCPT, 0.2 % complaints by signed webhook, 0.5 % suppressed before`,
    ['Store', 'paused after (sent / sample)', 'when', 'reason', 'rest: emails', 'emails/s', 'sink ceiling/s', 'ratio'],
    results.map((r) => [
      r.store,
      r.pause ? `${int(r.pause.sent)} / ${int(r.sample)}` : 'NOT PAUSED',
      r.pause ? `${(r.pause.afterMs / 1000).toFixed(2)} s` : '',
      r.pause?.reason ?? '',
      int(r.rest.emails),
      int(r.rest.perSec),
      int(r.ceilingPerSec),
      `${(r.rest.perSec / r.ceilingPerSec).toFixed(2)}×`,
    ]),
  );
  printTable(
    'Checks (each should read 0, or the two figures agree)',
    [
      'Store',
      'suppressed mailed',
      'mailed twice',
      'hard bounces counted / refused',
      'complaints counted / posted',
      'webhook retries counted',
    ],
    results.map((r) => [
      r.store,
      int(r.checks.suppressedMailed),
      int(r.checks.mailedTwice),
      `${int(r.checks.hardCounted)} / ${int(r.checks.hardRefused)}`,
      `${int(r.checks.complaintsCounted)} / ${int(r.checks.complaintsPosted)}`,
      int(r.checks.retriesCounted),
    ]),
  );
  for (const r of results) if (r.profile) console.log(`${r.store} server CPU profile: ${r.profile}`);
  console.log(
    `(emails/s: SMTP exchanges (accepted or refused at RCPT) after the override, first to last, server at MAIL_CONCURRENCY ${CONCURRENCY} ` +
      `and MAIL_RATE_PER_SEC 1000; the ceiling sends as many emails straight to the same sink over ${CONCURRENCY} pooled connections. ` +
      `Load average ${loadBefore} before, ${loadAverage()} after, on ${os.availableParallelism()} cores shared by six engineers working at once: figures are noisy.)`,
  );
}

runBench({ name: 'Mail load bench', timeoutMs: 20 * 60_000 }, async () => {
  const loadBefore = loadAverage();
  print(await measure(), loadBefore);
});
