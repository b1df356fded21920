// `npm run bench`: the benchmarks that drive decisions, one after another (so none competes with
// another for the two cores), each bounded by its own watchdog and this one by the sum (34 minutes),
// loopback only; then one table of their figures, each a ratio to a reference measured in the same
// run, with the load average at start and end and the run's duration.
// Each bench's detailed tables go to .bench/<name>.log, named at the end.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/processes.ts';
import { machineLine, progress } from './lib/run.ts';
import { readSummary, summaryFileEnv } from './lib/summary.ts';
import { printTable } from './lib/table.ts';

interface BenchEntry {
  name: string;
  file: string;
  /** Kills the bench after this long (each bench also has its own, shorter watchdog). */
  limitMin: number;
  env?: NodeJS.ProcessEnv;
  nodeArgs?: string[];
}

// Issue 40: the headline first (a viral hour's steps on pinned cores, SQLite and PostgreSQL against a
// bare server on the same core, three runs and the worst taken, with wrk's page and proof ceilings;
// about 12 minutes), then, from issue 32, the two figures still held to a target:
// broadcasts against the SMTP sink's ceiling (3,000 recipients a store instead of 10,000) and log
// bytes per request. Left out, each still its own `npm run bench:<name>`: page (Lighthouse and the
// page bar, 10+ minutes alone), signup, beacon and cluster (closed-loop req/s and CPU per request
// against a bare server: issue 22's measure, retired; the headline's steps load the same routes),
// the mail latency part (a sign-up's p99 with its confirmation mailed is in the headline's mix),
// and console (a million visits seeded, minutes before its first figure).
const BENCHES: BenchEntry[] = [
  { name: 'headline', file: 'bench/headline-bench.ts', limitMin: 25 },
  {
    name: 'mail',
    file: 'bench/mail-latency-bench.ts',
    limitMin: 4,
    env: { BENCH_MAIL: 'throughput', BENCH_RECIPIENTS: process.env.BENCH_RECIPIENTS ?? '3000' },
  },
  { name: 'logs', file: 'bench/log-volume-bench.ts', limitMin: 2 },
  // Issue 38: a visit through an invite link (a random code each) against / on one server, ≥ 0.8×.
  { name: 'invite', file: 'bench/invite-bench.ts', limitMin: 3 },
];

const outDir = path.join(repoRoot, '.bench');

function runOne(bench: BenchEntry, summaryFile: string): Promise<string> {
  const log = path.join(outDir, `${bench.name}.log`);
  const out = createWriteStream(log);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(bench.nodeArgs ?? []), '--import', 'tsx', bench.file], {
      cwd: repoRoot,
      env: { ...process.env, ...bench.env, [summaryFileEnv]: summaryFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    // Progress lines go to the log and to this terminal, so a long run shows where it is.
    child.stderr.on('data', (chunk: Buffer) => {
      out.write(chunk);
      process.stderr.write(chunk.toString('utf8').replace(/^· /gm, `· ${bench.name}: `));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), bench.limitMin * 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      out.end();
      const rel = path.relative(repoRoot, log);
      resolve(
        code === 0
          ? rel
          : `${rel} (${signal ? `stopped by ${signal}` : `failed, exit ${code}`}; its last lines say why)`,
      );
    });
  });
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const summaryFile = path.join(outDir, 'summary.jsonl');
  rmSync(summaryFile, { force: true });
  const startedAt = Date.now();
  const first = machineLine('npm run bench');
  const logs: string[] = [];
  // BENCH_ONLY=signup,beacon runs just those, for a quick look.
  const only = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
  for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) {
    if (!existsSync(path.join(repoRoot, bench.file))) continue;
    progress(`${bench.name}: starting (${bench.file}, at most ${bench.limitMin} min)`);
    logs.push(`${bench.name}: ${await runOne(bench, summaryFile)}`);
  }

  const rows = readSummary(summaryFile);
  printTable(
    'All benchmarks (loopback, one server at a time; each figure beside the reference measured in the same run: the ' +
      "load generator against a bare node:http server sending the same bytes, or the SMTP sink's own ceiling)",
    ['Bench', 'Figure', 'Measured', 'Reference', 'Ratio', 'Tail', 'Target'],
    rows.map((r) => [r.bench, r.figure, r.value, r.ceiling, r.ratio, r.tail, r.target]),
  );
  console.log(`\nLoad average at start: ${first}`);
  console.log(`Load average at end:   ${machineLine('ended')}`);
  console.log(`npm run bench took ${((Date.now() - startedAt) / 60_000).toFixed(1)} min (budget 15).`);
  console.log('\nDetails of each bench:');
  for (const line of logs) console.log(`  ${line}`);
  if (rows.length === 0) process.exitCode = 1;
}

await main();
