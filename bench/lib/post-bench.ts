// What the POST benches (sign-ups, beacons) share: a throwaway SQLite data directory, CPU
// profiles of the production server, and the counts of what it answered and what it stored.
import { statfsSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { LoadSummary } from './load.ts';
import { tempDir } from './processes.ts';
import { progress } from './run.ts';

// statfs(2) f_type of tmpfs: memory, where fsync costs nothing.
const TMPFS_MAGIC = 0x01021994;

/** A warning when `dir` lives in memory, where "durable" commits would cost nothing; else null. */
export function tmpfsWarning(dir: string): string | null {
  try {
    if (statfsSync(dir).type !== TMPFS_MAGIC) return null;
  } catch {
    return null;
  }
  return (
    `Warning: ${path.dirname(dir)} is tmpfs (memory), so SQLite's fsyncs cost nothing here and ` +
    'the durable-write figures are better than any disk would give. Set TMPDIR to a directory on disk.'
  );
}

/**
 * Runs `fn` with a fresh directory for a SQLite database and a mail outbox (warning first when
 * it is tmpfs), and removes the directory after.
 */
export async function withSqliteDir<T>(
  prefix: string,
  fn: (paths: { file: string; outboxDir: string }) => Promise<T>,
): Promise<T> {
  const data = tempDir(prefix);
  try {
    const file = path.join(data.dir, 'bench.sqlite');
    const warning = tmpfsWarning(data.dir);
    if (warning) console.log(warning);
    return await fn({ file, outboxDir: path.join(data.dir, 'outbox') });
  } finally {
    data.remove();
  }
}

/** Each query's `n` (null, as from sum() over no rows, read as 0), from a SQLite file opened read-only. */
export function sqliteCounts<K extends string>(file: string, queries: Record<K, string>): Record<K, number> {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const counts = {} as Record<K, number>;
    for (const [key, sql] of Object.entries(queries) as [K, string][]) {
      counts[key] = (db.prepare(sql).get() as { n: number | null }).n ?? 0;
    }
    return counts;
  } finally {
    db.close();
  }
}

/**
 * Answers that reached the client over a probe (one 2xx) plus the warm-up and the measured run:
 * the 2xx ones, and the others with the errors.
 */
export function answerCounts(load: LoadSummary): { answered2xx: number; failed: number } {
  return {
    answered2xx: 1 + load.warmup.status2xx + load.status2xx,
    failed: load.warmup.non2xx + load.warmup.errors + load.non2xx + load.errors,
  };
}

/**
 * Node flags for profiling: with BENCH_CPU_PROF=<dir> set, each production server writes a V8 CPU
 * profile (open it in Chrome DevTools) into <dir> when it exits.
 */
export function cpuProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  progress(`a CPU profile of this server goes to ${path.resolve(dir)}`);
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}
