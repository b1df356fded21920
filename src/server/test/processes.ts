import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// Servers in child processes, for the tests that run the production build as `npm start` does
// (src/server/integration/: killed, starved or cut off for real) and for the benches, which import
// this module: bench/ may use src/, never the other way round.

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

// ---------------------------------------------------------------------------------------------
// Clean-up: whatever a bench or test starts must die with it, on success, on a thrown error, on
// Ctrl-C, or when a bench's watchdog fires. Each entry is synchronous so it can also run from
// process 'exit'.

const cleanups = new Set<() => void>();
let handlersInstalled = false;

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', runCleanups);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      runCleanups();
      process.exit(code);
    });
  }
}

/** Registers a synchronous clean-up; returns a function that unregisters it. */
export function onCleanup(fn: () => void): () => void {
  installExitHandlers();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

export function runCleanups(): void {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // Best effort: one failed kill must not stop the others.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Servers in child processes.

/** A port that was free a moment ago. Another process could take it first; callers retry. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

export interface ServerHandle {
  name: string;
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  pid: number;
  /** The last few KB the child wrote to stdout/stderr, for error messages. */
  output: () => string;
  /** Bytes the child has written to stdout so far (a server of ours: its log). */
  stdoutBytes: () => number;
  stop: () => Promise<void>;
  /** Sends `signal` (e.g. SIGKILL, for a crash) and resolves once the process has exited. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  port: number;
  env?: NodeJS.ProcessEnv;
  /** Sent to the child's stdin, which is then closed. */
  stdin?: Buffer;
  /** Requested until it answers with a status below 500. */
  readyPath?: string;
  timeoutMs?: number;
}

const OUTPUT_TAIL = 8 * 1024;

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The status `url` answers with, on a connection of its own (no agent: nothing stays open). */
function statusOf(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('error', reject);
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

export async function startServer(opts: StartOptions): Promise<ServerHandle> {
  const { name, command, args, port, env = process.env, stdin, readyPath = '/', timeoutMs = 15_000 } = opts;
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const unregister = onCleanup(() => {
    if (isRunning(child)) child.kill('SIGKILL');
  });

  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
  };
  let stdoutBytes = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    keep(chunk);
  });
  child.stderr?.on('data', keep);
  child.stdin?.on('error', () => {
    // A child that exits before reading stdin is reported by the exit check below instead.
  });
  child.stdin?.end(stdin);

  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    unregister();
    if (!isRunning(child)) return;
    child.kill('SIGTERM');
    if (await waitForExit(child, 5_000)) return;
    child.kill('SIGKILL');
    await waitForExit(child, 2_000);
  };

  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`${name} could not start: ${error.message}`)));
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it was ready:\n${tail.trim()}`)),
    );
  });

  const ready = (async () => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && isRunning(child)) {
      try {
        if ((await statusOf(`${origin}${readyPath}`, 1_000)) < 500) return;
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    throw new Error(`${name} did not answer ${readyPath} within ${timeoutMs / 1000} s:\n${tail.trim()}`);
  })();
  // Whichever of the two loses the race below settles later, unobserved; that is expected.
  for (const p of [exited, ready]) p.catch(() => undefined);

  try {
    await Promise.race([ready, exited]);
    // Another process may have answered on the port while ours failed to bind it.
    if (!isRunning(child)) throw new Error(`${name} exited during start-up:\n${tail.trim()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  const kill = async (signal: NodeJS.Signals) => {
    unregister();
    if (!isRunning(child)) return;
    child.kill(signal);
    if (!(await waitForExit(child, 5_000))) throw new Error(`${name} did not exit within 5 s of ${signal}`);
  };
  return { name, origin, port, pid: child.pid ?? 0, output: () => tail, stdoutBytes: () => stdoutBytes, stop, kill };
}

/**
 * Starts a server on a fresh free port, retrying when the port was taken between choosing it and
 * the child binding it (the only way to learn the port of a child that logs nothing at start).
 */
export async function startOnFreePort(
  make: (port: number) => Omit<StartOptions, 'port'>,
  attempts = 3,
): Promise<ServerHandle> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    const port = await freePort();
    try {
      return await startServer({ ...make(port), port });
    } catch (error) {
      lastError = error;
      if (!String(error).includes('EADDRINUSE')) break;
    }
  }
  throw lastError;
}

// BENCH_BUILT_SERVER runs another build (e.g. the previous commit's, copied aside) for A/B runs.
export const BUILT_SERVER = process.env.BENCH_BUILT_SERVER
  ? path.resolve(process.env.BENCH_BUILT_SERVER)
  : path.join(repoRoot, 'dist/server/main.js');

/**
 * How to start the production build (`node dist/server/main.js`) on `port` on loopback, as
 * production runs it; `env` adds to and wins over those settings.
 */
export function builtServerOptions(
  name: string,
  port: number,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  /** Another build's main.js (an A/B run's older copy of dist/). */
  server = BUILT_SERVER,
): Omit<StartOptions, 'port'> {
  return {
    name,
    command: process.execPath,
    args: [...nodeArgs, server],
    // Opening the geo databases and migrating take seconds; on a busy two-core machine (tests
    // beside it) more than 15.
    timeoutMs: 30_000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Request logging at info would measure the logger, not the server.
      LOG_LEVEL: 'warn',
      ...env,
    },
  };
}

/**
 * The production build, `node dist/server/main.js`, as `npm start` would run it, but with its
 * SQLite database and mail outbox in a throwaway directory: a bench must not write into the
 * developer's data/. `extraEnv` wins over every default (e.g. a DATABASE_URL for PostgreSQL).
 */
export async function startBuiltServer(
  extraEnv: NodeJS.ProcessEnv = {},
  /** Flags for node itself, e.g. --cpu-prof (which NODE_OPTIONS does not accept). */
  nodeArgs: string[] = [],
): Promise<ServerHandle> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dh-bench-'));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  const unregister = onCleanup(removeData);
  try {
    const server = await startOnFreePort((port) =>
      builtServerOptions(
        'production server',
        port,
        {
          // Canonical and og:url links must match the address Lighthouse loads, or SEO flags them.
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.sqlite')}`,
          OUTBOX_DIR: path.join(dataDir, 'outbox'),
          ...extraEnv,
        },
        nodeArgs,
      ),
    );
    return {
      ...server,
      stop: async () => {
        await server.stop();
        unregister();
        removeData();
      },
    };
  } catch (error) {
    unregister();
    removeData();
    throw error;
  }
}
