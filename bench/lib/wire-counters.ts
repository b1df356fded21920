// Redis commands and PostgreSQL round trips as the instances send them, counted by proxies in a
// child process (wire-counter-child.ts) that the instances are pointed at instead of the servers.
// Exact, whatever else the shared Redis and PostgreSQL serve meanwhile; the proxies' own CPU is
// not counted anywhere, and each adds a loopback hop to every command.
import path from 'node:path';
import type { WireProtocol } from '../../src/server/test/wire-counter.ts';
import { httpGet, httpRequest } from './http.ts';
import { repoRoot, type ServerHandle, startOnFreePort } from './processes.ts';

export interface WireCount {
  protocol: WireProtocol;
  requests: number;
  byName: Record<string, number>;
}

export interface WireCounters {
  /** `url` (redis://… or postgres://…) through its counter; its path, user and query kept. */
  urlFor(protocol: WireProtocol, url: string): string;
  counts(): Promise<WireCount[]>;
  reset(): Promise<void>;
  process: ServerHandle;
}

export async function startWireCounters(targets: { protocol: WireProtocol; url: string }[]): Promise<WireCounters> {
  const handle = await startOnFreePort((port) => ({
    name: 'wire counters',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(repoRoot, 'bench/lib/wire-counter-child.ts')],
    env: {
      ...process.env,
      WIRE_PORT: String(port),
      WIRE_TARGETS: JSON.stringify(
        targets.map(({ protocol, url }) => {
          const u = new URL(url);
          return {
            protocol,
            host: u.hostname || '127.0.0.1',
            port: Number(u.port || (protocol === 'redis' ? 6379 : 5432)),
          };
        }),
      ),
    },
    readyPath: '/counts',
  }));
  const counts = async (): Promise<WireCount[]> =>
    JSON.parse((await httpGet(`${handle.origin}/counts`)).body.toString('utf8')) as (WireCount & { port: number })[];
  const ports = new Map(((await counts()) as (WireCount & { port: number })[]).map((c) => [c.protocol, c.port]));
  return {
    urlFor(protocol, url) {
      const port = ports.get(protocol);
      if (port === undefined) throw new Error(`no ${protocol} counter was started`);
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    counts,
    async reset() {
      await httpRequest(`${handle.origin}/reset`, { method: 'POST' });
    },
    process: handle,
  };
}
