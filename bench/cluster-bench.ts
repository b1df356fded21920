// `npm run bench:cluster`: durable sign-ups per second through nginx (deploy/nginx.conf) in front
// of two built instances on one PostgreSQL and one Redis, as the site runs on launch day, beside a
// bare node:http server answering the same POSTs; then a check that every acknowledged sign-up is
// stored with its outbox row. A measurement, not a test: it exits 0 whatever the figures, and
// non-zero only when it could not measure (no nginx, no dist/, no PostgreSQL or Redis).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { deleteRedisKeys } from '../src/server/test/test-redis.ts';
import { clusterPrerequisites, startCluster } from './lib/cluster.ts';
import { busyWarning, printLoadRows } from './lib/load-report.ts';
import { answerCounts } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl, redactUrl } from './lib/postgres.ts';
import { startBareServer, withServer } from './lib/processes.ts';
import { loadTitle, progress, runBench } from './lib/run.ts';
import { loadSignups, probe, SIGNUP_ENV, SIGNUP_PATH, visitorOf } from './lib/signup-load.ts';
import { int, printTable, verdict } from './lib/table.ts';

const LOAD = { connections: 50, durationSec: 10, warmupSec: 2 };
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main(): Promise<void> {
  const missing = clusterPrerequisites();
  if (missing) throw new Error(missing);
  const loadBefore = os.loadavg();
  const scratch = await createScratchDatabase(postgresBaseUrl());
  console.log(`PostgreSQL: scratch database ${scratch.name} on ${redactUrl(postgresBaseUrl())}; ${scratch.durability}`);
  const prefix = `dh-bench:${randomBytes(4).toString('hex')}:`;
  console.log(`Redis: ${redactUrl(redisUrl)}, keys under ${prefix} (deleted afterwards)`);
  try {
    progress('starting two instances and nginx');
    const cluster = await startCluster({
      databaseUrl: scratch.url,
      redisUrl,
      env: { ...SIGNUP_ENV, REDIS_KEY_PREFIX: prefix },
    });
    const { production, template, visitor } = await (async () => {
      try {
        const target = { origin: cluster.url, pid: cluster.instances.map((i) => i.pid) };
        const visitor = await visitorOf(target);
        const template = await probe(target, visitor);
        const load = await loadSignups(
          target,
          LOAD,
          'two instances behind nginx, PostgreSQL + Redis',
          visitor,
          scratch.backendPids,
        );
        return {
          production: { load, perInstance: cluster.answeredBy((l) => l.includes(SIGNUP_PATH)) },
          template,
          visitor,
        };
      } finally {
        progress('stopping nginx and the instances (SIGTERM: they finish their commits first)');
        await cluster.stop();
      }
    })();

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
        },
        { label: 'bare node:http', load: bare },
      ],
      sideLabel: 'PostgreSQL backends',
    });
    console.log('(server CPU here is both instances together; nginx and Redis are not counted.)');
    console.log(
      `Sign-up requests each instance answered (nginx's access log): ${[...production.perInstance].map(([u, n]) => `${u} ${int(n)}`).join(', ')}`,
    );
    busyWarning(loadBefore);

    const [row] = await scratch.query<{ subscribers: string; outbox: string }>(
      'select (select count(*) from subscribers) as subscribers, (select count(*) from outbox) as outbox',
    );
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
    // Only the run's keys: the Redis server may be shared.
    await deleteRedisKeys(prefix, redisUrl).catch(() => undefined);
  }
}

runBench({ name: 'Cluster bench', timeoutMs: 4 * 60_000 }, main);
