import { execFile as execFileCallback } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { loadEnv } from '../../src/server/env.ts';
import { secretBoxFromEnv } from '../../src/server/store/data-keys.ts';
import type { SecretBox } from '../../src/server/store/secret-box.ts';
import {
  onCleanup,
  repoRoot,
  runCleanups,
  type ServerHandle,
  startOnFreePort,
} from '../../src/server/test/processes.ts';

// Servers in child processes (the production build, clean-up on exit) are shared with the tests
// that run the build, so they live with the test kits; the benches take them through here.
export {
  BUILT_SERVER,
  builtServerOptions,
  freePort,
  onCleanup,
  repoRoot,
  runCleanups,
  type ServerHandle,
  startBuiltServer,
  startOnFreePort,
  startServer,
} from '../../src/server/test/processes.ts';

// The benches' (and tests') databases are throwaway, and so is their data key: one per run, in the
// environment every process started from here inherits, so they all open the same stored secrets.
process.env.DATA_KEY ??= randomBytes(32).toString('base64');
export const testSecretsForBench = (): SecretBox =>
  secretBoxFromEnv(loadEnv({ NODE_ENV: 'test', DATA_KEY: process.env.DATA_KEY }));

/**
 * Exits the process (after clean-up) if the bench is still running after `ms`, so a hung
 * Chrome, server or load run can never leave the script waiting for ever.
 */
export function startWatchdog(ms: number): void {
  setTimeout(() => {
    process.stderr.write(`\nBench exceeded its ${Math.round(ms / 1000)} s time limit; stopping.\n`);
    runCleanups();
    process.exit(1);
  }, ms).unref();
}

/** Rejects after `ms` (calling `onTimeout` first) unless `promise` settles sooner. */
export async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  onTimeout?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fresh directory under the system temp dir, removed at clean-up (or by calling `remove`), for
 * a bench that must read what the server stored after stopping it.
 */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const unregister = onCleanup(removeDir);
  return {
    dir,
    remove: () => {
      unregister();
      removeDir();
    },
  };
}

export interface BareResponse {
  status?: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A bare node:http server answering every request with one fixed response: the ceiling any
 * framework on this machine could reach for those bytes. Runs in its own process, like the
 * production server, so that both compete with the load generator in the same way.
 */
export function startBareServer(response: BareResponse): Promise<ServerHandle> {
  return startOnFreePort((port) => ({
    name: 'bare node:http server',
    command: process.execPath,
    // tsx only transpiles at load time; the request path runs as plain JavaScript.
    args: ['--import', 'tsx', path.join(repoRoot, 'bench/lib/bare-server-child.ts')],
    env: {
      ...process.env,
      BARE_PORT: String(port),
      BARE_STATUS: String(response.status ?? 200),
      BARE_HEADERS: JSON.stringify(response.headers),
    },
    stdin: response.body,
  }));
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; null where there is no
 * /proc (not Linux) or the process is gone.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may itself contain spaces):
    // index 0 is field 3 (state), so utime (field 14) and stime (field 15) are 11 and 12.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    // USER_HZ, the unit of /proc tick counts, is 100 on every Linux ABI Node supports.
    return Number.isFinite(ticks) ? ticks / 100 : null;
  } catch {
    return null;
  }
}

/**
 * The most memory a process has held resident since it started (VmHWM in /proc), in bytes; null
 * where there is no /proc or the process is gone. Read before the process stops.
 */
export function peakRssBytes(pid: number): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

const execFile = promisify(execFileCallback);

/**
 * Runs a bench child (a TypeScript file under bench/) to its end, killed if the bench is stopped,
 * and returns the JSON object on the last line it printed: its figures.
 */
export async function runFiguresChild<T>(
  script: string,
  env: NodeJS.ProcessEnv,
  opts: { timeoutMs: number; nodeArgs?: string[] },
): Promise<T> {
  const child = execFile(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(repoRoot, script)], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    timeout: opts.timeoutMs,
  });
  const unregister = onCleanup(() => child.child.kill('SIGKILL'));
  try {
    const { stdout } = await child;
    const last = stdout.trim().split('\n').at(-1) ?? '';
    try {
      return JSON.parse(last) as T;
    } catch {
      throw new Error(`${script} printed no figures: ${stdout}`);
    }
  } finally {
    unregister();
  }
}

/** Runs `use` against a freshly started server and stops the server afterwards, even on error. */
export async function withServer<T>(
  start: () => Promise<ServerHandle>,
  use: (server: ServerHandle) => Promise<T>,
): Promise<T> {
  const server = await start();
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}
