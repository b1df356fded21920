// `npm run bench:cluster`: durable sign-ups per second through nginx (deploy/nginx.conf) in front
// of two built instances on one PostgreSQL and one Redis, as the site runs on launch day, beside a
// bare node:http server answering the same POSTs; the Redis commands and PostgreSQL round trips
// per sign-up, counted on the wire; then a check that every acknowledged sign-up is stored with
// its outbox row. A measurement, not a test: it exits 0 whatever the figures, and non-zero only
// when it could not measure (no nginx, no dist/, no PostgreSQL or Redis).
import os from 'node:os';
import { clusterPrerequisites } from './lib/cluster.ts';
import { printRoundTrips, runClusterSignups } from './lib/cluster-signups.ts';
import { busyWarning, printLoadRows } from './lib/load-report.ts';
import { answerCounts, cpuProfileArgs } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl, redactUrl } from './lib/postgres.ts';
import { startBareServer, withServer } from './lib/processes.ts';
import { loadTitle, runBench } from './lib/run.ts';
import { loadSignups, SIGNUP_PATH } from './lib/signup-load.ts';
import { int, printTable, verdict } from './lib/table.ts';

const LOAD = { connections: 50, durationSec: 10, warmupSec: 2 };
// Issue 22: many instances cost what one does, within 1.5× of one PostgreSQL instance's target
// (150 µs); and one Redis command per sign-up (the rate limit's one script; judged by the test).
const TARGETS = { cpuUs: 1.5 * 150, redisPerSignup: 1 };
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main(): Promise<void> {
  const missing = clusterPrerequisites();
  if (missing) throw new Error(missing);
  const loadBefore = os.loadavg();
  const scratch = await createScratchDatabase(postgresBaseUrl());
  console.log(`PostgreSQL: scratch database ${scratch.name} on ${redactUrl(postgresBaseUrl())}; ${scratch.durability}`);
  console.log(`Redis: ${redactUrl(redisUrl)}, keys under a prefix of the run's own (deleted afterwards)`);
  try {
    const production = await runClusterSignups({ scratch, redisUrl, shape: LOAD, nodeArgs: cpuProfileArgs() });
    const { template, visitor } = production;
    const bare = await withServer(
      () =>
        startBareServer({
          status: 200,
          headers: { 'content-type': String(template.headers['content-type']) },
          body: template.body,
        }),
      async (server) => loadSignups(server, LOAD, 'bare node:http', { ...visitor, origin: server.origin }),
    );
    printLoadRows({
      summary: 'Cluster',
      title: loadTitle(`Durable sign-ups through nginx (POST ${SIGNUP_PATH}, JSON, a new address each)`, LOAD),
      unit: 'sign-ups/s',
      rows: [
        {
          label: 'two instances behind nginx, PostgreSQL + Redis',
          load: production.load,
          responseBytes: `${template.headerBytes} + ${template.body.length}`,
          maxCpuUs: TARGETS.cpuUs,
        },
        { label: 'bare node:http', load: bare },
      ],
      sideLabel: 'PostgreSQL backends',
    });
    console.log(
      '(server CPU here is both instances together; nginx, Redis and the wire counters in front of Redis and ' +
        'PostgreSQL are not counted.)',
    );
    console.log(
      `Sign-up requests each instance answered (nginx's access log): ${[...production.perInstance].map(([u, n]) => `${u} ${int(n)}`).join(', ')}`,
    );
    busyWarning(loadBefore);

    const [row] = await scratch.query<{ subscribers: string; outbox: string; sent: string }>(
      `select (select count(*) from subscribers) as subscribers, (select count(*) from outbox) as outbox,
              (select count(*) from outbox where status = 'sent') as sent`,
    );
    printRoundTrips(production, Number(row?.sent), { redisPerSignup: TARGETS.redisPerSignup, summary: 'Cluster' });
    const stored = Number(row?.subscribers);
    const outbox = Number(row?.outbox);
    const { answered2xx, failed } = answerCounts(production.load);
    const durable = stored >= answered2xx && outbox === stored;
    printTable(
      'Durability: sign-ups stored vs acknowledged',
      ['2xx answers', 'non-2xx+err', 'subscriber rows', 'outbox rows', 'durable'],
      [[int(answered2xx), int(failed), int(stored), int(outbox), verdict(durable)]],
    );
  } finally {
    await scratch.drop();
  }
}

runBench({ name: 'Cluster bench', timeoutMs: 4 * 60_000 }, main);
