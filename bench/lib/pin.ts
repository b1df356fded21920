// Cores of their own for the load and for the server (issue 40, decision 0067): the generator (this
// process, and what it spawns before a server is pinned, wrk included) on one core, the server and
// everything it needs (its SMTP sink, PostgreSQL) on the other. A launch never runs its load beside
// its server, and on two shared cores the generator's share moved with the server's. `taskset` is
// util-linux's (on every Debian); where it or a second core is missing, nothing is pinned and the
// table says so.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export const GENERATOR_CPU = '0';
export const SERVER_CPU = '1';

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this run pins (BENCH_PIN=0 turns it off; one core, or no taskset, cannot). */
export const pinning: { on: boolean; why: string } =
  process.env.BENCH_PIN === '0'
    ? { on: false, why: 'not pinned (BENCH_PIN=0)' }
    : availableParallelism() < 2
      ? { on: false, why: 'not pinned (one core)' }
      : tasksetWorks()
        ? {
            on: true,
            why: `generator on core ${GENERATOR_CPU}; server, SMTP sink and PostgreSQL on core ${SERVER_CPU}`,
          }
        : { on: false, why: 'not pinned (taskset failed)' };

/** Every thread of `pid` onto `cpus` (threads and children it makes later inherit it). */
export function pinProcess(pid: number, cpus: string): void {
  if (!pinning.on) return;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

const allCpus = (): string => `0-${availableParallelism() - 1}`;

function postgresPids(): number[] {
  try {
    return execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * PostgreSQL's server processes onto `cpus` (the postmaster too, so the backends it forks for new
 * connections inherit it); returns what puts them back on every core. A process that ended in
 * between is skipped.
 */
export function pinPostgres(cpus: string): () => void {
  if (!pinning.on) return () => undefined;
  const move = (to: string) => {
    for (const pid of postgresPids()) {
      try {
        execFileSync('taskset', ['-a', '-p', '-c', to, String(pid)], { stdio: 'ignore' });
      } catch {
        // It exited between pgrep and taskset.
      }
    }
  };
  move(cpus);
  return () => move(allCpus());
}

/** This process (the generator) onto its core for the rest of the run. */
export function pinGenerator(): void {
  pinProcess(process.pid, GENERATOR_CPU);
}
