// How many bytes of log a request costs at the default level (LOG_LEVEL=info), with a line per
// request (LOG_REQUESTS=on) and without (off, behind a proxy that logs access). A launch-day spike
// once filled 164 MB in 80 s with request lines; this is the figure that says what a spike writes.
import { setTimeout as sleep } from 'node:timers/promises';
import { type ServerHandle, startBuiltServer, withServer } from './processes.ts';
import { type LoadShape, loadRun, loadTitle, progress } from './run.ts';
import { recordSummary } from './summary.ts';
import { int, printTable, verdict } from './table.ts';

/** Waits until the server's stdout has stopped growing (its last lines are through the pipe). */
async function settledStdout(server: ServerHandle): Promise<number> {
  let last = server.stdoutBytes();
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const now = server.stdoutBytes();
    if (now === last) return now;
    last = now;
  }
  return last;
}

interface LogVolume {
  logRequests: 'on' | 'off';
  requests: number;
  bytes: number;
}

async function measure(
  logRequests: 'on' | 'off',
  path: string,
  headers: Record<string, string>,
  shape: LoadShape,
): Promise<LogVolume> {
  return withServer(
    () => startBuiltServer({ LOG_LEVEL: 'info', LOG_REQUESTS: logRequests }),
    async (server) => {
      const before = await settledStdout(server);
      const load = await loadRun(`log volume, LOG_REQUESTS=${logRequests}`, {
        url: `${server.origin}${path}`,
        headers,
        serverPid: server.pid,
        ...shape,
      });
      const bytes = (await settledStdout(server)) - before;
      // The warm-up's requests reach the server and its log too.
      return { logRequests, requests: load.requests + load.warmup.responses, bytes };
    },
  );
}

/** Measures and prints log bytes per request of GET `path`, LOG_REQUESTS on and off. */
export async function logVolumeSection(
  path: string,
  headers: Record<string, string>,
  shape: LoadShape,
  bench: string,
): Promise<void> {
  progress(`log volume: the production server at LOG_LEVEL=info, LOG_REQUESTS on then off`);
  const rows: LogVolume[] = [];
  for (const mode of ['on', 'off'] as const) rows.push(await measure(mode, path, headers, shape));
  printTable(
    loadTitle(`Log bytes per request of GET ${path} (LOG_LEVEL=info; the server's stdout over the run)`, shape),
    ['LOG_REQUESTS', 'requests', 'log bytes', 'bytes/request'],
    rows.map((r) => [
      r.logRequests,
      int(r.requests),
      int(r.bytes),
      r.requests > 0 ? (r.bytes / r.requests).toFixed(1) : 'n/a',
    ]),
  );
  recordSummary(
    rows.map((r) => ({
      bench,
      figure: `Log bytes per request of GET ${path}, LOG_LEVEL=info, LOG_REQUESTS=${r.logRequests}`,
      value: r.requests > 0 ? (r.bytes / r.requests).toFixed(1) : 'n/a',
      // Off, an ordinary 200 writes nothing at all.
      target: r.logRequests === 'off' ? `0 ${verdict(r.bytes === 0)}` : '',
    })),
  );
}
