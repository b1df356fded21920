// How every bench starts, reports progress, runs its load and ends: a watchdog, one line on the
// machine, progress on stderr, and an exit code that says only whether it could measure.
import os from 'node:os';
import { type LoadOptions, type LoadSummary, runLoad } from './load.ts';
import { runCleanups, startWatchdog } from './processes.ts';

export const progress = (message: string): void => {
  process.stderr.write(`· ${message}\n`);
};

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** One line on where and on what the figures were taken. */
export function machineLine(name: string): string {
  return `${name}: node ${process.version}, ${os.availableParallelism()} cores, load average ${loadAverage()}`;
}

/** The shape of a bench's load runs. */
export interface LoadShape {
  connections: number;
  durationSec: number;
  warmupSec: number;
}

/** A table title for load runs of this shape: `what`, then how they were run. */
export const loadTitle = (what: string, shape: LoadShape): string =>
  `${what}: ${shape.connections} connections, ${shape.durationSec} s after a ${shape.warmupSec} s warm-up, ` +
  'one server at a time';

/** `runLoad`, announced on stderr under `label`. */
export function loadRun(label: string, opts: LoadOptions & LoadShape): Promise<LoadSummary> {
  progress(`load: ${label}, ${opts.connections} connections, ${opts.warmupSec} s warm-up + ${opts.durationSec} s`);
  return runLoad(opts);
}

/**
 * Runs a bench's `main`: starts the watchdog, prints the machine line (with `headerExtra` after
 * it), then exits 0 once the figures are out, or 1 with the error when it could not measure;
 * clean-ups run either way. It exits rather than waiting for the event loop to drain, since
 * Lighthouse and load generators can leave timers and sockets behind.
 */
export function runBench(
  opts: { name: string; timeoutMs: number; headerExtra?: string },
  main: () => Promise<void>,
): void {
  startWatchdog(opts.timeoutMs);
  console.log(`${machineLine(opts.name)}${opts.headerExtra ?? ''}`);
  main().then(
    () => {
      runCleanups();
      process.exit(0);
    },
    (error: unknown) => {
      runCleanups();
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`\nBench failed: ${message}\n`);
      process.exit(1);
    },
  );
}
