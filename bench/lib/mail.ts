// What the mail benches share: an SMTP sink in this process that notes when it accepted each
// recipient's message, a list of confirmed subscribers and a running broadcast made through the
// store layer, and the sink's own ceiling (pooled nodemailer straight to it, no outbox).
import { startSend } from '../../src/server/features/broadcast/broadcast-sending.ts';
import { createDraft } from '../../src/server/features/broadcast/broadcast-store.ts';
import { openStore, type Store } from '../../src/server/store/database.ts';
import { migrateToLatest } from '../../src/server/store/migrate.ts';
import { startSmtpSink } from '../../src/server/test/smtp-sink.ts';
import { cpuProfileArgs } from './post-bench.ts';
import path from 'node:path';
import { httpGet } from './http.ts';
import {
  cpuSeconds,
  repoRoot,
  runFiguresChild,
  type ServerHandle,
  startBuiltServer,
  startOnFreePort,
  testSecretsForBench,
  withTimeout,
} from './processes.ts';

/** Seeded subscribers' addresses start with this; every other address is a sign-up's. */
export const BROADCAST_PREFIX = 'bc';

export interface RecordingSink {
  url: string;
  /** performance.now() when the server answered 250 to each recipient's message (the first time). */
  acceptedAt: Map<string, number>;
  /** Messages accepted so far: to seeded (broadcast) addresses, and to all others. */
  counts: { broadcast: number; other: number };
  /** Resolves once `done()` holds (checked at every accepted message), rejects after `ms`. */
  until(done: () => boolean, ms: number, what: string): Promise<void>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that parses nothing and keeps only when each recipient's mail came. */
export async function startRecordingSink(): Promise<RecordingSink> {
  const acceptedAt = new Map<string, number>();
  const counts = { broadcast: 0, other: 0 };
  const waiters = new Set<() => void>();
  const sink = await startSmtpSink(0, undefined, {
    keep: false,
    onAccepted(recipients) {
      const at = performance.now();
      for (const r of recipients) {
        if (!acceptedAt.has(r)) acceptedAt.set(r, at);
        if (r.startsWith(BROADCAST_PREFIX)) counts.broadcast++;
        else counts.other++;
      }
      for (const w of waiters) w();
    },
  });
  return {
    url: sink.url,
    acceptedAt,
    counts,
    until(done, ms, what) {
      let check: () => void = () => undefined;
      const reached = new Promise<void>((resolve) => {
        check = () => {
          if (!done()) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
      return withTimeout(reached, ms, what, () => waiters.delete(check));
    },
    close: () => sink.close(),
  };
}

export interface SinkProcess {
  /** smtp://127.0.0.1:port, for a server's SMTP_URL. */
  url: string;
  /** Messages the sink has accepted so far. */
  accepted(): Promise<number>;
  process: ServerHandle;
}

/**
 * An SMTP sink in a process of its own (smtp-sink-child.ts), for a bench whose load generator's
 * timing must not share an event loop with the SMTP sessions. Its CPU is the machine's, as a mail
 * server on the same host would be; `process.pid` lets a bench count it.
 */
export async function startSinkProcess(): Promise<SinkProcess> {
  const handle = await startOnFreePort((port) => ({
    name: 'SMTP sink',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(repoRoot, 'bench/lib/smtp-sink-child.ts')],
    env: { ...process.env, SINK_HTTP_PORT: String(port) },
  }));
  const read = async () =>
    JSON.parse((await httpGet(`${handle.origin}/`)).body.toString('utf8')) as { url: string; accepted: number };
  const { url } = await read();
  return { url, accepted: async () => (await read()).accepted, process: handle };
}

/** Opens (and migrates) the store at `databaseUrl`, as the server would find it. */
export async function openMigratedStore(databaseUrl: string): Promise<Store> {
  const store = await openStore(databaseUrl);
  await migrateToLatest(store.db, { secrets: testSecretsForBench() });
  return store;
}

/** `n` confirmed subscribers, bc<i>@example.com, in chunks of 500. */
export async function seedConfirmed(store: Store, n: number): Promise<void> {
  const now = new Date().toISOString();
  await store.db
    .insertInto('consent_wordings')
    .values({ version: 'bench', text: 'bench wording', created_at: now })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
  for (let from = 0; from < n; from += 500) {
    const rows = Array.from({ length: Math.min(500, n - from) }, (_, k) => {
      const i = from + k;
      const email = `${BROADCAST_PREFIX}${i}@example.com`;
      return {
        id: `b0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        email,
        email_key: email,
        name: 'Bench',
        comment: '',
        status: 'confirmed' as const,
        created_at: now,
        updated_at: now,
        confirmed_at: now,
        unsubscribed_at: null,
        last_confirmation_at: now,
        consent_version: 'bench',
        consent_at: now,
        consent_page: '/',
        country: null,
        region: null,
        city: null,
      };
    });
    await store.db.insertInto('subscribers').values(rows).execute();
  }
}

/** Creates a broadcast and starts it (one outbox row per confirmed subscriber); the recipients. */
export async function startBroadcast(store: Store): Promise<number> {
  const now = new Date();
  const id = await createDraft(
    store.db,
    {
      subject: 'The presale is live',
      body: '# The presale is live\n\nThank you for waiting with us. Read the FAQ before you buy.',
    },
    'bench',
    now,
  );
  // A team of one, and the bench's own fixed text (no address): what is measured is the sending.
  const started = await startSend(store.db, id, { email: 'bench', via: 'command-line' }, now, {
    approvals: 1,
    refusalOf: () => null,
  });
  if (started.outcome !== 'started') throw new Error(`The bench broadcast could not be started (${started.outcome}).`);
  return started.recipients;
}

/**
 * The sink's ceiling: `count` emails of a broadcast's size sent straight to it by pooled
 * nodemailer (`connections` at once) from a process of its own, as the server is; emails/s.
 */
export async function sinkCeiling(sinkUrl: string, count: number, connections: number): Promise<number> {
  return (await sinkCeilingWithCpu(sinkUrl, count, connections)).perSec;
}

/** sinkCeiling, with the CPU its client spent per email (ms). */
export async function sinkCeilingWithCpu(
  sinkUrl: string,
  count: number,
  connections: number,
): Promise<{ perSec: number; cpuMsPerEmail: number }> {
  const figures = await runFiguresChild<{ ms?: number; cpuMs?: number }>(
    'bench/lib/smtp-blast-child.ts',
    { SINK_URL: sinkUrl, BLAST_COUNT: String(count), BLAST_CONNECTIONS: String(connections) },
    { timeoutMs: 120_000 },
  );
  if (!figures.ms) throw new Error('The SMTP ceiling client printed no time.');
  return { perSec: count / (figures.ms / 1000), cpuMsPerEmail: (figures.cpuMs ?? NaN) / count };
}

export interface BroadcastThroughput {
  recipients: number;
  /** From the first broadcast email the sink accepted to the last. */
  seconds: number;
  emailsPerSec: number;
  /** The same number of emails, pooled nodemailer straight to the same sink, in the same run. */
  ceilingPerSec: number;
  /**
   * CPU (user + system) per email: the server's during the send, and the ceiling's client's. On a
   * machine whose cores are all busy, their ratio bounds the throughput ratio, and the neighbours'
   * load moves it far less than it moves either rate.
   */
  serverCpuMsPerEmail: number;
  ceilingCpuMsPerEmail: number;
}

/**
 * A `recipients`-strong broadcast sent by the built server (MAIL_RATE_PER_SEC at its maximum, so
 * the pace is not the limit) into a sink in this process, then the sink's ceiling.
 */
export async function measureBroadcastThroughput(
  databaseUrl: string,
  recipients: number,
): Promise<BroadcastThroughput> {
  const store = await openMigratedStore(databaseUrl);
  const sink = await startRecordingSink();
  try {
    await seedConfirmed(store, recipients);
    const server = await startBuiltServer(
      { DATABASE_URL: databaseUrl, SMTP_URL: sink.url, MAIL_RATE_PER_SEC: '1000', LOG_LEVEL: 'warn' },
      cpuProfileArgs(),
    );
    let serverCpuSeconds = NaN;
    try {
      const cpuBefore = cpuSeconds(server.pid);
      await startBroadcast(store);
      await sink.until(() => sink.counts.broadcast >= recipients, 10 * 60_000, `a ${recipients}-recipient broadcast`);
      const cpuAfter = cpuSeconds(server.pid);
      if (cpuBefore !== null && cpuAfter !== null) serverCpuSeconds = cpuAfter - cpuBefore;
    } finally {
      await server.stop();
    }
    const times = [...sink.acceptedAt].filter(([r]) => r.startsWith(BROADCAST_PREFIX)).map(([, at]) => at);
    const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
    const connections = Number(process.env.MAIL_CONCURRENCY ?? 4);
    const ceiling = await sinkCeilingWithCpu(sink.url, recipients, connections);
    return {
      recipients,
      seconds,
      emailsPerSec: recipients / seconds,
      ceilingPerSec: ceiling.perSec,
      serverCpuMsPerEmail: (serverCpuSeconds * 1000) / recipients,
      ceilingCpuMsPerEmail: ceiling.cpuMsPerEmail,
    };
  } finally {
    await sink.close();
    await store.close();
  }
}
