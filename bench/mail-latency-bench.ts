// `npm run bench:mail`: how long a person waits for their confirmation email, measured from the
// moment the load client receives the sign-up's answer to the moment the SMTP server (a sink in
// this process) accepts the message for that address. Two cases, on SQLite and (when a
// PostgreSQL server is reachable, as for the other benches) on PostgreSQL:
//   (a) a 10 s sign-up burst, as fast as the server takes them (bench:signup's load);
//   (b) a lighter sign-up stream while a 10,000-recipient broadcast is sending, with
//       MAIL_RATE_PER_SEC raised so the broadcast really fills its slots.
// Then (issue 21) the throughput of a BENCH_RECIPIENTS-strong (10,000) broadcast beside the SMTP
// sink's own ceiling measured in the same run, with the load average beside each figure.
// BENCH_MAIL=latency or =throughput runs only that part.
// A measurement, not a test: it exits 0 whatever the figures, and non-zero only when it could not
// measure. Other benches (a one-table runner) call measureMailLatency() for the figures.
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import type { Store } from '../src/server/store/database.ts';
import { busyWarning } from './lib/load-report.ts';
import {
  BROADCAST_PREFIX,
  type BroadcastThroughput,
  measureBroadcastThroughput,
  openMigratedStore,
  type RecordingSink,
  seedConfirmed,
  startBroadcast,
  startRecordingSink,
} from './lib/mail.ts';
import { withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl, redactUrl } from './lib/postgres.ts';
import { startBuiltServer, withServer, type ServerHandle } from './lib/processes.ts';
import { loadAverage, loadRun, progress, runBench } from './lib/run.ts';
import { recordSummary } from './lib/summary.ts';
import { headersFor, probeSignup, SIGNUP_ENV, SIGNUP_PATH, visitorOf } from './lib/signup-load.ts';
import { int, printTable } from './lib/table.ts';

const BURST = { connections: 50, durationSec: 10, warmupSec: 0 };
const STREAM = { connections: 4, durationSec: 10, warmupSec: 0, overallRate: 40 };
const BROADCAST_RECIPIENTS = 10_000;
// MAIL_RATE_PER_SEC's maximum: the pace is not what holds the broadcast back.
const BROADCAST_RATE = '1000';
/** How long confirmations may take to arrive after the sign-ups stop before they count as late. */
const DRAIN_MS = 120_000;

export interface MailLatencyFigures {
  store: 'SQLite' | 'PostgreSQL';
  scenario: string;
  /** Sign-ups the load client saw acknowledged (2xx). */
  acknowledged: number;
  /** Of those, confirmations the SMTP server accepted within the drain time. */
  delivered: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Broadcast emails the sink accepted while the sign-ups were sent (case b). */
  broadcastDuring: number | null;
  /** Broadcast emails still unsent when the sign-ups stopped (case b): > 0 means it ran throughout. */
  broadcastLeftAtEnd: number | null;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

// One counter for the process, so no two sign-ups share an address (nor one of the seeded list's).
let sequence = 0;
const nextEmail = (): string => `s${++sequence}@example.com`;

interface Acks {
  at: Map<string, number>;
}

/**
 * Sign-up requests that note, per address, when its 2xx answer reached this client. Autocannon
 * hands onResponse the context its setupRequest filled for the same request (one request in
 * flight per connection).
 */
function signupRequests(headers: Record<string, string>, acks: Acks): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: SIGNUP_PATH,
      headers,
      setupRequest: (request, context) => {
        const email = nextEmail();
        (context as { email?: string }).email = email;
        return { ...request, body: JSON.stringify({ name: 'Bench', email }) };
      },
      onResponse: (status, _body, context) => {
        const email = (context as { email?: string }).email;
        if (email && status >= 200 && status < 300) acks.at.set(email, performance.now());
      },
    },
  ];
}

async function sendSignups(
  server: ServerHandle,
  label: string,
  shape: typeof BURST | typeof STREAM,
  acks: Acks,
): Promise<void> {
  const visitor = await visitorOf(server);
  const email = nextEmail();
  await probeSignup(server, visitor, JSON.stringify({ name: 'Bench', email }));
  acks.at.set(email, performance.now());
  await loadRun(label, {
    url: `${server.origin}${SIGNUP_PATH}`,
    requests: signupRequests(headersFor(visitor), acks),
    serverPid: server.pid,
    ...shape,
  });
}

/** Waits for every acknowledged sign-up's confirmation (or the drain time), then the figures. */
async function latencies(
  sink: RecordingSink,
  acks: Acks,
): Promise<Pick<MailLatencyFigures, 'acknowledged' | 'delivered' | 'p50Ms' | 'p95Ms' | 'maxMs'>> {
  const emails = [...acks.at.keys()];
  // Checked at every accepted message: step past the arrived ones, so the whole wait is O(n).
  let arrivedUpTo = 0;
  const arrived = () => {
    while (arrivedUpTo < emails.length && sink.acceptedAt.has(emails[arrivedUpTo] ?? '')) arrivedUpTo++;
    return arrivedUpTo === emails.length;
  };
  progress(`waiting for ${int(emails.length)} confirmations (at most ${DRAIN_MS / 1000} s)`);
  await sink.until(arrived, DRAIN_MS, 'the confirmations').catch((error: unknown) => progress(String(error)));
  const took: number[] = [];
  for (const e of emails) {
    const accepted = sink.acceptedAt.get(e);
    const acked = acks.at.get(e);
    if (accepted !== undefined && acked !== undefined) took.push(Math.max(0, accepted - acked));
  }
  took.sort((a, b) => a - b);
  return {
    acknowledged: emails.length,
    delivered: took.length,
    p50Ms: quantile(took, 0.5),
    p95Ms: quantile(took, 0.95),
    maxMs: took.at(-1) ?? NaN,
  };
}

type StoreName = MailLatencyFigures['store'];

async function burst(storeName: StoreName, databaseUrl: string): Promise<MailLatencyFigures> {
  const sink = await startRecordingSink();
  try {
    progress(`${storeName}: (a) a ${BURST.durationSec} s sign-up burst`);
    const acks: Acks = { at: new Map() };
    const figures = await withServer(
      () => startBuiltServer({ ...SIGNUP_ENV, DATABASE_URL: databaseUrl, SMTP_URL: sink.url }),
      async (server) => {
        await sendSignups(server, `${storeName}, sign-up burst`, BURST, acks);
        return latencies(sink, acks);
      },
    );
    return {
      store: storeName,
      scenario: `(a) ${BURST.durationSec} s sign-up burst, ${BURST.connections} connections`,
      ...figures,
      broadcastDuring: null,
      broadcastLeftAtEnd: null,
    };
  } finally {
    await sink.close();
  }
}

async function duringBroadcast(storeName: StoreName, databaseUrl: string, store: Store): Promise<MailLatencyFigures> {
  progress(`${storeName}: (b) seeding ${int(BROADCAST_RECIPIENTS)} confirmed subscribers`);
  await seedConfirmed(store, BROADCAST_RECIPIENTS);
  const sink = await startRecordingSink();
  try {
    const acks: Acks = { at: new Map() };
    const figures = await withServer(
      () =>
        startBuiltServer({
          ...SIGNUP_ENV,
          DATABASE_URL: databaseUrl,
          SMTP_URL: sink.url,
          MAIL_RATE_PER_SEC: BROADCAST_RATE,
        }),
      async (server) => {
        const recipients = await startBroadcast(store);
        // Under way before the sign-ups start: the worker finds it at its next poll.
        await sink.until(() => sink.counts.broadcast >= 100, 30_000, 'the broadcast to start');
        const before = sink.counts.broadcast;
        await sendSignups(server, `${storeName}, sign-ups during a broadcast`, STREAM, acks);
        const during = sink.counts.broadcast - before;
        const left = recipients - sink.counts.broadcast;
        return { ...(await latencies(sink, acks)), broadcastDuring: during, broadcastLeftAtEnd: left };
      },
    );
    return {
      store: storeName,
      scenario: `(b) ${STREAM.overallRate} sign-ups/s for ${STREAM.durationSec} s during a ${int(BROADCAST_RECIPIENTS)}-recipient broadcast`,
      ...figures,
    };
  } finally {
    await sink.close();
  }
}

/** Both cases on SQLite, then on PostgreSQL when a scratch database can be made. */
export async function measureMailLatency(): Promise<MailLatencyFigures[]> {
  const results: MailLatencyFigures[] = [];
  const sqlite = (prefix: string, fn: (url: string) => Promise<MailLatencyFigures>) =>
    withSqliteDir(prefix, ({ file }) => fn(`sqlite:${path.resolve(file)}`));
  results.push(await sqlite('dh-bench-mail-a-', (url) => burst('SQLite', url)));
  results.push(
    await sqlite('dh-bench-mail-b-', async (url) => {
      const store = await openMigratedStore(url);
      try {
        return await duringBroadcast('SQLite', url, store);
      } finally {
        await store.close();
      }
    }),
  );

  const pgUrl = postgresBaseUrl();
  for (const scenario of ['a', 'b'] as const) {
    let scratch;
    try {
      scratch = await createScratchDatabase(pgUrl);
    } catch (error) {
      console.log(
        `PostgreSQL skipped: no scratch database on ${redactUrl(pgUrl)} (${error instanceof Error ? error.message : String(error)}).`,
      );
      break;
    }
    try {
      if (scenario === 'a') results.push(await burst('PostgreSQL', scratch.url));
      else {
        const store = await openMigratedStore(scratch.url);
        try {
          results.push(await duringBroadcast('PostgreSQL', scratch.url, store));
        } finally {
          await store.close();
        }
      }
    } finally {
      await scratch.drop();
    }
  }
  return results;
}

const ms = (v: number): string => (Number.isFinite(v) ? `${v < 100 ? v.toFixed(1) : int(v)} ms` : 'n/a');

export function printMailLatency(results: MailLatencyFigures[]): void {
  recordSummary(
    results.map((r) => ({
      bench: 'Mail',
      figure: `confirmation latency, ${r.store}, ${r.scenario}`,
      value: `${int(r.delivered)} of ${int(r.acknowledged)} sent`,
      p50: ms(r.p50Ms),
      tail: `p95 ${ms(r.p95Ms)}`,
    })),
  );
  printTable(
    'Confirmation email latency: sign-up answered (load client) → message accepted by the SMTP server',
    [
      'Store',
      'Case',
      'acknowledged',
      'delivered',
      'p50',
      'p95',
      'max',
      'broadcast sent during',
      'broadcast left at end',
    ],
    results.map((r) => [
      r.store,
      r.scenario,
      int(r.acknowledged),
      int(r.delivered),
      ms(r.p50Ms),
      ms(r.p95Ms),
      ms(r.maxMs),
      r.broadcastDuring === null ? '' : int(r.broadcastDuring),
      r.broadcastLeftAtEnd === null ? '' : int(Math.max(0, r.broadcastLeftAtEnd)),
    ]),
  );
  console.log(
    `(delivered: confirmations accepted within ${DRAIN_MS / 1000} s of the last sign-up; the server runs with its defaults ` +
      `(MAIL_CONCURRENCY 4), MAIL_RATE_PER_SEC ${BROADCAST_RATE} in case (b); seeded addresses start "${BROADCAST_PREFIX}". ` +
      'The sink and the load client share this process, so a busy client can delay a timestamp by a little.)',
  );
}

const THROUGHPUT_RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);

export interface ThroughputFigures extends BroadcastThroughput {
  store: MailLatencyFigures['store'];
  /** The load average (1, 5, 15 min) before and after this store's run. */
  loadBefore: string;
  loadAfter: string;
}

/** The broadcast's emails/s beside the sink's ceiling, on SQLite, then PostgreSQL when reachable. */
export async function measureThroughput(): Promise<ThroughputFigures[]> {
  const results: ThroughputFigures[] = [];
  const one = async (store: ThroughputFigures['store'], url: string) => {
    progress(`${store}: a ${int(THROUGHPUT_RECIPIENTS)}-recipient broadcast into a local SMTP sink, then its ceiling`);
    const loadBefore = loadAverage();
    const figures = await measureBroadcastThroughput(url, THROUGHPUT_RECIPIENTS);
    results.push({ store, ...figures, loadBefore, loadAfter: loadAverage() });
  };
  await withSqliteDir('dh-bench-mail-t-', ({ file }) => one('SQLite', `sqlite:${path.resolve(file)}`));
  let scratch;
  try {
    scratch = await createScratchDatabase(postgresBaseUrl());
  } catch (error) {
    console.log(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}.`);
    return results;
  }
  try {
    await one('PostgreSQL', scratch.url);
  } finally {
    await scratch.drop();
  }
  return results;
}

export function printThroughput(results: ThroughputFigures[]): void {
  const ratio = (r: ThroughputFigures) => `${(r.emailsPerSec / r.ceilingPerSec).toFixed(2)}×`;
  recordSummary(
    results.map((r) => ({
      bench: 'Mail',
      figure: `broadcast throughput, ${r.store}, ${int(r.recipients)} recipients`,
      value: `${int(r.emailsPerSec)} emails/s`,
      ceiling: `${int(r.ceilingPerSec)} emails/s`,
      ratio: ratio(r),
      target: `≥ 0.8× ${r.emailsPerSec / r.ceilingPerSec >= 0.8 ? 'met' : 'not met'}`,
    })),
  );
  printTable(
    `Broadcast throughput: ${int(THROUGHPUT_RECIPIENTS)} recipients sent by the server vs the SMTP sink's own ceiling`,
    [
      'Store',
      'time',
      'emails/s',
      'sink ceiling/s',
      'ratio',
      'CPU/email: server',
      'ceiling',
      'load average before',
      'after',
    ],
    results.map((r) => [
      r.store,
      `${r.seconds.toFixed(1)} s`,
      int(r.emailsPerSec),
      int(r.ceilingPerSec),
      ratio(r),
      `${r.serverCpuMsPerEmail.toFixed(2)} ms`,
      `${r.ceilingCpuMsPerEmail.toFixed(2)} ms`,
      r.loadBefore,
      r.loadAfter,
    ]),
  );
  console.log(
    '(emails/s: first to last broadcast email the sink accepted, the built server at MAIL_CONCURRENCY 4 and ' +
      'MAIL_RATE_PER_SEC 1000; the ceiling sends as many emails straight to the same sink over 4 pooled ' +
      'connections from a process of its own, right after, in the same run. CPU/email: user + system CPU of the ' +
      "server during the send, and of the ceiling's client, per email: with every core busy, their ratio bounds the " +
      "throughput ratio, and the neighbours' load moves it far less than either rate.)",
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = process.env.BENCH_MAIL;
  runBench({ name: 'Mail latency and throughput bench', timeoutMs: 25 * 60_000 }, async () => {
    const loadBefore = os.loadavg();
    if (only !== 'throughput') printMailLatency(await measureMailLatency());
    if (only !== 'latency') printThroughput(await measureThroughput());
    busyWarning(loadBefore);
  });
}
