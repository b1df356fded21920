// `tsx bench/request-profile.ts [signup|beacon] [dist]`: a V8 CPU profile of the built server under
// the sign-up load (SQLite, or PostgreSQL with BENCH_PROFILE_STORE=postgres) or the beacon load, and
// where its time went *during the measured run only*: start-up (migrations, the ASN table, module
// loading) and the warm-up are left out, so the shares are those a request pays. Prints the CPU per
// request of the same run (inflated by the profiler's sampling, so compare it only with another
// profiled run) and the load average before and after.
//
// The window is found on one clock: V8 stamps a profile in microseconds of the monotonic clock
// (CLOCK_MONOTONIC on Linux), which is also what process.hrtime reads here, in another process.
// BENCH_PROFILE_SECONDS sets the measured run's length (10 s). TMPDIR=/dev/shm puts SQLite on
// tmpfs, where fsync is free: the difference to a disk run is the commit's waiting.
// BENCH_PROFILE_THROUGH=a,b,… adds the share of the busy time whose stack passes through each named
// function (as printed: "claimSome", "commitTransaction", "csrfProtection"; a name with its file and
// line, "run dist/server/main.js:5147", picks one of several of that name).
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beaconRequests, VISIT_PATH } from './lib/beacon-load.ts';
import { withSqliteDir } from './lib/post-bench.ts';
import { createScratchDatabase, postgresBaseUrl } from './lib/postgres.ts';
import { builtServerOptions, repoRoot, startOnFreePort, withServer } from './lib/processes.ts';
import { summariseProfile, type ProfileSummary } from './lib/profile-summary.ts';
import { loadAverage, loadRun, progress, runBench } from './lib/run.ts';
import { probe, SIGNUP_ENV, SIGNUP_PATH, signupRequests, visitorOf } from './lib/signup-load.ts';

const kind = process.argv[2] === 'beacon' ? 'beacon' : 'signup';
const dist = path.resolve(process.argv[3] ?? path.join(repoRoot, 'dist'));
const store = process.env.BENCH_PROFILE_STORE === 'postgres' ? 'postgres' : 'sqlite';
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const CONNECTIONS = 50;
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 30);

interface Result {
  file: string;
  window: { fromS: number; toS: number };
  cpuUs: number | null;
  reqPerSec: number;
  loadBefore: string;
  loadAfter: string;
}

async function profileRun(env: NodeJS.ProcessEnv): Promise<Result> {
  const dir = path.join(repoRoot, '.bench', 'profiles', `${kind}-${store}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const loadBefore = loadAverage();
  let window = { fromS: 0, toS: 0 };
  const measured = await withServer(
    () =>
      startOnFreePort((port) =>
        builtServerOptions(
          `profiled server from ${path.relative(repoRoot, dist)}`,
          port,
          { ...SIGNUP_ENV, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
          ['--cpu-prof', `--cpu-prof-dir=${dir}`],
          path.join(dist, 'server/main.js'),
        ),
      ),
    async (server) => {
      const target =
        kind === 'signup'
          ? await (async () => {
              const visitor = await visitorOf(server);
              await probe(server, visitor);
              return { url: `${server.origin}${SIGNUP_PATH}`, requests: signupRequests(visitor) };
            })()
          : { url: `${server.origin}${VISIT_PATH}`, requests: beaconRequests };
      const shape = { connections: CONNECTIONS, serverPid: server.pid, ...target };
      await loadRun(`${kind} warm-up`, { ...shape, durationSec: 3, warmupSec: 0 });
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const run = await loadRun(`${kind} load, profiled`, { ...shape, durationSec: SECONDS, warmupSec: 0 });
      const toUs = Number(process.hrtime.bigint() / 1000n);
      window = { fromS: fromUs, toS: toUs };
      progress('stopping the server (it writes its profile on exit)');
      return run;
    },
  );
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`No profile in ${dir}`);
  const full = path.join(dir, file);
  // Absolute monotonic microseconds → seconds after the profile's start.
  const { startTime } = JSON.parse(readFileSync(full, 'utf8')) as { startTime: number };
  return {
    file: full,
    window: { fromS: (window.fromS - startTime) / 1e6, toS: (window.toS - startTime) / 1e6 },
    cpuUs: measured.serverCpuUsPerRequest,
    reqPerSec: measured.reqPerSec,
    loadBefore,
    loadAfter: loadAverage(),
  };
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = kind === 'beacon' ? { TRUST_PROXY: 'true' } : {};
  let result: Result;
  if (store === 'postgres') {
    const scratch = await createScratchDatabase(postgresBaseUrl());
    try {
      result = await profileRun({
        ...env,
        DATABASE_URL: scratch.url,
        OUTBOX_DIR: path.join(os.tmpdir(), `dh-prof-out-${process.pid}`),
      });
    } finally {
      await scratch.drop();
    }
  } else {
    result = await withSqliteDir('dh-prof-', ({ file, outboxDir }) =>
      profileRun({ ...env, DATABASE_URL: `sqlite:${file}`, OUTBOX_DIR: outboxDir }),
    );
  }
  const summary: ProfileSummary = summariseProfile(
    JSON.parse(readFileSync(result.file, 'utf8')),
    undefined,
    result.window,
  );
  console.log(
    `${kind} on ${store}, ${path.relative(repoRoot, dist)}: ${Math.round(result.reqPerSec)} req/s, ` +
      `CPU/request ${result.cpuUs === null ? 'n/a' : `${Math.round(result.cpuUs)} µs`} (profiled), ` +
      `load average ${result.loadBefore} → ${result.loadAfter}`,
  );
  console.log(
    `profile: ${path.relative(repoRoot, result.file)}, window ${result.window.fromS.toFixed(1)}-${result.window.toS.toFixed(1)} s`,
  );
  printSummary(summary, TOP);
  const through = (process.env.BENCH_PROFILE_THROUGH ?? '').split(',').filter(Boolean);
  if (through.length > 0) {
    const raw: unknown = JSON.parse(readFileSync(result.file, 'utf8'));
    const busy = summary.totalMs - summary.idleMs;
    console.log('\nShare of the busy time through each function (inclusive)');
    for (const name of through) {
      const part = summariseProfile(raw, name, result.window);
      console.log(`${`${(((part.totalMs - part.idleMs) / busy) * 100).toFixed(1)}%`.padStart(7)}  ${name}`);
    }
  }
}

function printSummary(summary: ProfileSummary, top: number): void {
  const busy = summary.totalMs - summary.idleMs;
  console.log(`${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy`);
  const notIdle = (s: { name: string }) => s.name !== '((idle))' && !s.name.startsWith('(idle) ');
  const table = (title: string, rows: ProfileSummary['byGroup'], key: 'selfMs' | 'inclusiveMs') => {
    console.log(`\n${title}\n${'self'.padStart(7)} ${'incl'.padStart(7)}  name`);
    for (const s of rows
      .filter(notIdle)
      .sort((a, b) => b[key] - a[key])
      .slice(0, top)) {
      const pct = (v: number) => `${((v / busy) * 100).toFixed(1)}%`.padStart(7);
      console.log(`${pct(s.selfMs)} ${pct(s.inclusiveMs)}  ${s.name}`);
    }
  };
  table('By self time, per package/file', summary.byGroup, 'selfMs');
  table('By self time, per function', summary.byFunction, 'selfMs');
  table('By inclusive time, per function', summary.byFunction, 'inclusiveMs');
}

runBench({ name: `Request profile (${kind}, ${store})`, timeoutMs: 5 * 60_000 }, main);
