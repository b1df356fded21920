// `npm run bench`: every benchmark in one go, one after another (so none competes with another for
// the two cores), each bounded by its own watchdog and this one by the sum, loopback only; then one
// table of the headline figures, each beside the bare node:http ceiling measured in the same run.
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

// The console bench seeds a tenth of its full data set here (100,000 subscribers, 1,000,000 visits)
// so the whole run stays under an hour; `npm run bench:console` runs it at full size.
const BENCHES: BenchEntry[] = [
  { name: 'page', file: 'bench/page-bench.ts', limitMin: 16 },
  { name: 'signup', file: 'bench/signup-bench.ts', limitMin: 6 },
  { name: 'beacon', file: 'bench/beacon-bench.ts', limitMin: 5 },
  { name: 'mail', file: 'bench/mail-latency-bench.ts', limitMin: 24 },
  { name: 'cluster', file: 'bench/cluster-bench.ts', limitMin: 5 },
  {
    name: 'console',
    file: 'bench/console-bench.ts',
    limitMin: 15,
    env: {
      BENCH_SUBSCRIBERS: process.env.BENCH_SUBSCRIBERS ?? '100000',
      BENCH_VISITS: process.env.BENCH_VISITS ?? '1000000',
    },
    nodeArgs: ['--expose-gc'],
  },
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
  const first = machineLine('npm run bench');
  const logs: string[] = [];
  // BENCH_ONLY=signup,beacon runs just those, for a quick look.
  const only = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
  for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) {
    if (!existsSync(path.join(repoRoot, bench.file))) continue;
    progress(`${bench.name}: starting (${bench.file}, at most ${bench.limitMin} min)`);
    logs.push(`${bench.name}: ${await runOne(bench, summaryFile)}`);
  }

  console.log(first);
  console.log(`${machineLine('ended')}`);
  const rows = readSummary(summaryFile);
  printTable(
    'All benchmarks (loopback, one server at a time; "bare" = a node:http server answering the same requests in the same run; ' +
      'CPU/request = server CPU per answer, production / bare)',
    ['Bench', 'Figure', 'Production', 'Bare node:http', 'Ratio', 'CPU/request', 'p50', 'Tail', 'Peak RSS', 'Target'],
    rows.map((r) => [
      r.bench,
      r.figure,
      r.value,
      r.ceiling,
      r.ratio,
      r.cpuPerRequest,
      r.p50,
      r.tail,
      r.peakRss,
      r.target,
    ]),
  );
  console.log('\nDetails of each bench:');
  for (const line of logs) console.log(`  ${line}`);
  if (rows.length === 0) process.exitCode = 1;
}

await main();
