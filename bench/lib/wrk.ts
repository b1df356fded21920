// Closed-loop ceilings with wrk (native, from Debian: `apt-get install wrk`), so the load
// generator is not the bottleneck the way a JavaScript one is on two cores: its one thread spends
// a few µs a request where autocannon or node:http spend tens. Used by the headline bench.
import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertLocal } from './http.ts';
import { tempDir } from './processes.ts';
import { progress } from './run.ts';

const execFile = promisify(execFileCallback);

export const WRK = process.env.WRK_PATH ?? '/usr/bin/wrk';

export const wrkMissing = (): string | null =>
  existsSync(WRK) ? null : `wrk is not installed at ${WRK} (Debian: \`apt-get install wrk\`; or set WRK_PATH).`;

export interface WrkShape {
  /** wrk threads: one leaves the other core to the server, as the open loop does. */
  threads: number;
  connections: number;
  durationSec: number;
  warmupSec: number;
}

export const WRK_SHAPE: WrkShape = { threads: 1, connections: 16, durationSec: 5, warmupSec: 1 };

export interface WrkResult {
  perSec: number;
  requests: number;
  /** Answers outside 2xx/3xx, plus connect, read, write and timeout errors. */
  failed: number;
  p99Ms: number;
}

const unitMs: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Parses wrk's text report (with --latency). */
export function parseWrk(text: string): WrkResult {
  const perSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0;
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(text);
  const p99Ms = p99 ? Number(p99[1]) * (unitMs[p99[2] ?? 'ms'] ?? 1) : NaN;
  if (!Number.isFinite(perSec)) throw new Error(`wrk printed no rate:\n${text}`);
  return { perSec, requests, failed: non2xx + socketErrors, p99Ms };
}

/**
 * wrk against `url` for a warm-up (discarded), then the measured run. `paths`, when given, are
 * asked in turn, one per request (a Lua script); `headers` go with every request.
 */
export async function runWrk(
  label: string,
  url: string,
  opts: { headers?: Record<string, string>; paths?: string[]; shape?: WrkShape } = {},
): Promise<WrkResult> {
  assertLocal(url);
  const shape = opts.shape ?? WRK_SHAPE;
  const args = ['--latency', `-t${shape.threads}`, `-c${shape.connections}`];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}: ${value}`);
  const dir = opts.paths ? tempDir('dh-wrk-') : null;
  try {
    if (dir && opts.paths) {
      const script = path.join(dir.dir, 'paths.lua');
      // Each wrk thread walks the list from its own start; the paths are plain ASCII (no quoting needed
      // beyond JSON's, which Lua's string syntax accepts for these characters).
      writeFileSync(
        script,
        `local paths = {${opts.paths.map((p) => JSON.stringify(p)).join(',')}}\n` +
          'local i = 0\n' +
          'request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n',
      );
      args.push('-s', script);
    }
    progress(`wrk: ${label}, ${shape.connections} connections, ${shape.warmupSec} s warm-up + ${shape.durationSec} s`);
    await execFile(WRK, [...args, `-d${shape.warmupSec}s`, url], { timeout: (shape.warmupSec + 30) * 1000 });
    const { stdout } = await execFile(WRK, [...args, `-d${shape.durationSec}s`, url], {
      timeout: (shape.durationSec + 30) * 1000,
    });
    return parseWrk(stdout);
  } finally {
    dir?.remove();
  }
}
