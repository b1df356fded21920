// `tsx bench/signup-cpu-ab.ts <before-dist> [<after-dist>]`: server CPU per sign-up of two builds,
// measured in turns (A B, then B A, …) on the same machine, so a busy machine weighs on both alike. On a
// machine shared with others, req/s says little; CPU per request, in turns, is what a change can
// be judged by. Builds are copies of dist/ (`cp -r dist .bench/dist-before` before a change);
// the second defaults to dist/. BENCH_AB_STORE=postgres measures on a scratch PostgreSQL database;
// BENCH_AB_STORE=cluster two instances behind nginx on PostgreSQL + Redis (bench/lib/cluster-signups.ts),
// with the Redis commands and PostgreSQL round trips per sign-up each build sent (counted on the
// wire on PostgreSQL alone too, so one instance and two compare like with like).
import { cpSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { perSignup, runClusterSignups } from './lib/cluster-signups.ts';
import { type LoadSummary } from './lib/load.ts';
import { withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl, type ScratchDatabase } from './lib/postgres.ts';
import { builtServerOptions, onCleanup, repoRoot, startOnFreePort, withServer } from './lib/processes.ts';
import { loadAverage, progress, runBench } from './lib/run.ts';
import { loadSignups, probe, SIGNUP_ENV, visitorOf } from './lib/signup-load.ts';
import { int, printTable } from './lib/table.ts';
import { startWireCounters, type WireCount } from './lib/wire-counters.ts';

const SHAPE = { connections: 50, durationSec: 6, warmupSec: 2 };
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Measured = LoadSummary & { loadavg: string; roundTrips?: string };

/** Two instances behind nginx running `dist`, on a scratch database of their own. */
async function measureCluster(dist: string): Promise<Measured> {
  const loadavg = loadAverage();
  const scratch = await createScratchDatabase(postgresBaseUrl());
  try {
    const run = await runClusterSignups({ scratch, redisUrl, shape: SHAPE, server: path.join(dist, 'server/main.js') });
    return { ...run.load, loadavg, roundTrips: await roundTripsText(run.counts, run.stored, scratch) };
  } finally {
    await scratch.drop();
  }
}

/** Per sign-up stored, as the server sent them, and the confirmation emails sent by the end. */
async function roundTripsText(counts: WireCount[], stored: number, scratch: ScratchDatabase): Promise<string> {
  const [row] = await scratch.query<{ n: string }>(`select count(*) as n from outbox where status = 'sent'`);
  const per = counts.map((c) => `${c.protocol === 'redis' ? 'Redis' : 'PG'} ${perSignup(c, stored).total.toFixed(2)}`);
  return `${per.join(', ')} (${int(stored)} stored, ${int(Number(row?.n))} emails sent)`;
}

/** One instance on a scratch PostgreSQL database, its round trips counted on the wire. */
async function measurePostgres(dist: string): Promise<Measured> {
  const scratch = await createScratchDatabase(postgresBaseUrl());
  const wire = await startWireCounters([{ protocol: 'postgres', url: scratch.url }]);
  try {
    const stored = async () =>
      Number((await scratch.query<{ n: string }>('select count(*) as n from subscribers'))[0]?.n);
    let before = 0;
    const run = await measure(
      dist,
      {
        DATABASE_URL: wire.urlFor('postgres', scratch.url),
        OUTBOX_DIR: path.join(os.tmpdir(), `dh-ab-out-${process.pid}`),
      },
      scratch.backendPids,
      async () => {
        before = await stored();
        await wire.reset();
      },
    );
    return { ...run, roundTrips: await roundTripsText(await wire.counts(), (await stored()) - before, scratch) };
  } finally {
    await wire.process.stop();
    await scratch.drop();
  }
}

async function measure(
  dist: string,
  env: NodeJS.ProcessEnv,
  sidePids?: () => Promise<number[]>,
  afterProbe: () => Promise<void> = async () => undefined,
): Promise<Measured> {
  const loadavg = loadAverage();
  const server = await withServer(
    () =>
      startOnFreePort((port) => {
        return builtServerOptions(
          `server from ${dist}`,
          port,
          { ...SIGNUP_ENV, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
          [],
          path.join(dist, 'server/main.js'),
        );
      }),
    async (s) => {
      const visitor = await visitorOf(s);
      await probe(s, visitor);
      await afterProbe();
      return loadSignups(s, SHAPE, path.relative(repoRoot, dist), visitor, sidePids);
    },
  );
  return { ...server, loadavg };
}

async function main(): Promise<void> {
  const [a, b = path.join(repoRoot, 'dist')] = process.argv.slice(2).map((d) => path.resolve(d));
  if (!a || !existsSync(path.join(a, 'server/main.js')))
    throw new Error('usage: tsx bench/signup-cpu-ab.ts <before-dist> [<after-dist>]');
  // The "after" build is copied too, so `npm run build` during the run cannot change it; inside
  // the repository, where the build's bare imports find node_modules.
  const bCopy = path.join(repoRoot, '.bench', `dist-ab-${process.pid}`);
  cpSync(b, bCopy, { recursive: true });
  onCleanup(() => rmSync(bCopy, { recursive: true, force: true }));
  const builds = [
    { name: path.relative(repoRoot, a) || a, dir: a },
    { name: `${path.relative(repoRoot, b)} (copied)`, dir: bCopy },
  ];
  const store = (['postgres', 'cluster'] as const).find((s) => s === process.env.BENCH_AB_STORE) ?? 'sqlite';
  const rows: string[][] = [];
  const cpu: Record<string, number[]> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of round % 2 ? builds : [...builds].reverse()) {
      progress(`round ${round}: ${build.name} on ${store}`);
      const run =
        store === 'sqlite'
          ? await withSqliteDir('dh-ab-', ({ file, outboxDir }) =>
              measure(build.dir, { DATABASE_URL: `sqlite:${file}`, OUTBOX_DIR: outboxDir }),
            )
          : store === 'cluster'
            ? await measureCluster(build.dir)
            : await measurePostgres(build.dir);
      const us = run.serverCpuUsPerRequest;
      if (us !== null) (cpu[build.name] ??= []).push(us);
      rows.push([
        String(round),
        build.name,
        int(run.reqPerSec),
        us === null ? 'n/a' : `${Math.round(us)} µs`,
        run.sideCpuUsPerRequest === null ? '' : `${Math.round(run.sideCpuUsPerRequest)} µs`,
        run.roundTrips ?? '',
        `${run.latencyP99Ms} ms`,
        run.loadavg,
        loadAverage(),
      ]);
    }
  }
  printTable(
    `Server CPU per sign-up on ${store}, builds in turns (${SHAPE.connections} connections, ${SHAPE.durationSec} s after ${SHAPE.warmupSec} s)`,
    [
      'Round',
      'Build',
      'sign-ups/s',
      'CPU/request',
      'PostgreSQL backends',
      'per sign-up (on the wire)',
      'p99',
      'load avg before',
      'load avg after',
    ],
    rows,
  );
  for (const [name, values] of Object.entries(cpu)) {
    const sorted = [...values].sort((x, y) => x - y);
    console.log(
      `${name}: median CPU/request ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? NaN)} µs, ` +
        `worst ${Math.round(sorted.at(-1) ?? NaN)} µs, over ${values.length} runs`,
    );
  }
}

runBench({ name: 'Sign-up CPU A/B', timeoutMs: 15 * 60_000 }, main);
