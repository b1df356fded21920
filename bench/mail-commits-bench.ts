// `tsx bench/mail-commits-bench.ts`: the transactions a broadcast costs the outbox worker, per
// email: the jobs it hands the store's group committer (claims, marks, releases) and the commits
// those become. A count, not a timing: at full speed it hardly moves with the machine's load
// (docs/decisions/0046-broadcast-throughput.md). The real worker and committer, over a real
// SQLite file (and PostgreSQL when BENCH_POSTGRES_URL's server is reachable), sending
// BENCH_RECIPIENTS (1,000) broadcast rows into a real SMTP sink in this process at
// MAIL_CONCURRENCY 4; the composer reads the recipient's address, as a real one does.
import path from 'node:path';
import type { Transaction } from 'kysely';
import { smtpMailer } from '../src/server/features/mail/mailer.ts';
import type { Composer } from '../src/server/features/mail/outbox.ts';
import { OutboxWorker } from '../src/server/features/mail/outbox-worker.ts';
import { confirmedAddress } from '../src/server/features/signups/queries.ts';
import { GroupCommitter } from '../src/server/store/group-commit.ts';
import type { Database } from '../src/server/store/schema.ts';
import { startSmtpSink } from '../src/server/test/smtp-sink.ts';
import { openMigratedStore, seedConfirmed, startBroadcast } from './lib/mail.ts';
import { withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl } from './lib/postgres.ts';
import { progress, runBench } from './lib/run.ts';
import { int, printTable } from './lib/table.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1_000);

/** The group committer, counting the jobs it is handed (each its own transaction without it). */
class CountingCommitter extends GroupCommitter {
  jobs = 0;
  override run<T>(job: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    this.jobs++;
    return super.run(job);
  }
}

interface Count {
  store: string;
  seconds: number;
  jobs: number;
  commits: number;
}

async function count(store: string, url: string): Promise<Count> {
  const s = await openMigratedStore(url);
  let accepted = 0;
  const sink = await startSmtpSink(0, undefined, { keep: false, onAccepted: () => accepted++ });
  try {
    await seedConfirmed(s, RECIPIENTS);
    await startBroadcast(s);
    const composer: Composer = async (row) => {
      const to = await confirmedAddress(s.db, row.subscriber_id);
      return to ? { to, subject: 'Count', text: 'Counted.', html: '<p>Counted.</p>' } : 'cancel';
    };
    const committer = new CountingCommitter(s.db);
    const mailer = smtpMailer(sink.url, 'Bench <bench@example.com>', 4);
    const worker = new OutboxWorker({
      db: s.db,
      dialect: s.dialect,
      mailer,
      kinds: new Map([['broadcast', composer]]),
      committer,
      concurrency: 4,
      broadcastRatePerSec: 1000,
    });
    progress(`${store}: a ${int(RECIPIENTS)}-recipient broadcast through the outbox worker`);
    const started = performance.now();
    worker.start();
    await new Promise<void>((resolve) => {
      const check = () => (accepted >= RECIPIENTS ? resolve() : setTimeout(check, 20));
      check();
    });
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    await committer.idle();
    mailer.close();
    return { store, seconds, jobs: committer.jobs, commits: committer.batches };
  } finally {
    await sink.close();
    await s.close();
  }
}

runBench({ name: 'Mail commits bench', timeoutMs: 10 * 60_000 }, async () => {
  const counts = [
    await withSqliteDir('dh-bench-mail-commits-', ({ file }) => count('SQLite', `sqlite:${path.resolve(file)}`)),
  ];
  try {
    const scratch = await createScratchDatabase(postgresBaseUrl());
    try {
      counts.push(await count('PostgreSQL', scratch.url));
    } finally {
      await scratch.drop();
    }
  } catch (error) {
    console.log(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}.`);
  }
  printTable(
    `Transactions per email: a ${int(RECIPIENTS)}-recipient broadcast, MAIL_CONCURRENCY 4`,
    ['Store', 'time', 'transactions asked', 'per email', 'commits', 'per email'],
    counts.map((c) => [
      c.store,
      `${c.seconds.toFixed(1)} s`,
      int(c.jobs),
      (c.jobs / RECIPIENTS).toFixed(3),
      int(c.commits),
      (c.commits / RECIPIENTS).toFixed(3),
    ]),
  );
});
