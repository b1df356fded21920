// `tsx bench/signup-cpu-ab.ts <before-dist> [<after-dist>]`: server CPU per sign-up of two builds,
// measured in turns (A B, then B A, …) on the same machine, so a busy machine weighs on both alike. On a
// machine shared with others, req/s says little; CPU per request, in turns, is what a change can
// be judged by. Builds are copies of dist/ (`cp -r dist .bench/dist-before` before a change);
// the second defaults to dist/. BENCH_AB_STORE=postgres measures on a scratch PostgreSQL database.
import { cpSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoadSummary } from './lib/load.ts';
import { withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl } from './lib/postgres.ts';
import { builtServerOptions, onCleanup, repoRoot, startOnFreePort, withServer } from './lib/processes.ts';
import { loadAverage, progress, runBench } from './lib/run.ts';
import { loadSignups, probe, SIGNUP_ENV, visitorOf } from './lib/signup-load.ts';
import { int, printTable } from './lib/table.ts';

const SHAPE = { connections: 50, durationSec: 6, warmupSec: 2 };
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);

async function measure(dist: string, env: NodeJS.ProcessEnv): Promise<LoadSummary & { loadavg: string }> {
  const loadavg = loadAverage();
  const server = await withServer(
    () =>
      startOnFreePort((port) => {
        const opts = builtServerOptions(`server from ${dist}`, port, {
          ...SIGNUP_ENV,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          ...env,
        });
        return { ...opts, args: [path.join(dist, 'server/main.js')] };
      }),
    async (s) => {
      const visitor = await visitorOf(s);
      await probe(s, visitor);
      return loadSignups(s, SHAPE, path.relative(repoRoot, dist), visitor);
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
  const store = process.env.BENCH_AB_STORE === 'postgres' ? 'postgres' : 'sqlite';
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
          : await (async () => {
              const scratch = await createScratchDatabase(postgresBaseUrl());
              try {
                return await measure(build.dir, {
                  DATABASE_URL: scratch.url,
                  OUTBOX_DIR: path.join(os.tmpdir(), `dh-ab-out-${process.pid}`),
                });
              } finally {
                await scratch.drop();
              }
            })();
      const us = run.serverCpuUsPerRequest;
      if (us !== null) (cpu[build.name] ??= []).push(us);
      rows.push([
        String(round),
        build.name,
        int(run.reqPerSec),
        us === null ? 'n/a' : `${Math.round(us)} µs`,
        `${run.latencyP99Ms} ms`,
        run.loadavg,
        loadAverage(),
      ]);
    }
  }
  printTable(
    `Server CPU per sign-up on ${store}, builds in turns (${SHAPE.connections} connections, ${SHAPE.durationSec} s after ${SHAPE.warmupSec} s)`,
    ['Round', 'Build', 'sign-ups/s', 'CPU/request', 'p99', 'load avg before', 'load avg after'],
    rows,
  );
  for (const [name, values] of Object.entries(cpu)) {
    const sorted = [...values].sort((x, y) => x - y);
    console.log(
      `${name}: median CPU/request ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? NaN)} µs over ${values.length} runs`,
    );
  }
}

runBench({ name: 'Sign-up CPU A/B', timeoutMs: 15 * 60_000 }, main);
