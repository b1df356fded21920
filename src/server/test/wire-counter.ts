import net, { type Socket } from 'node:net';

// A TCP proxy that counts what a client asks of Redis or PostgreSQL, read off the wire: the app
// cannot under-report its own round trips when the count is taken between it and the server. Used
// by the tests that pin the round trips a sign-up costs and by the cluster bench's figures.

export type WireProtocol = 'redis' | 'postgres';

export interface WireCounts {
  /**
   * Redis: commands sent (each RESP array; EVALSHA is one, whatever its script does inside).
   * PostgreSQL: round trips, each a simple Query or an extended-protocol Sync, after which the
   * driver waits for ReadyForQuery.
   */
  requests: number;
  /** Requests by name: Redis command names (lower case); PostgreSQL 'query' and 'sync'. */
  byName: Map<string, number>;
}

export interface WireCounter {
  port: number;
  /** redis://… or postgres://… like `url`, through this proxy. */
  urlFor(url: string): string;
  counts(): WireCounts;
  /** Starts counting from zero again (open connections stay). */
  reset(): void;
  close(): Promise<void>;
}

/**
 * RESP as clients send it: arrays of bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`). Reads a
 * stream in whatever chunks TCP delivers and calls `onCommand` with each command's name.
 */
function respReader(onCommand: (name: string) => void): (chunk: Buffer) => void {
  let buffer: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    let at = 0;
    for (;;) {
      const parsed = readCommand(buffer, at);
      if (!parsed) break;
      onCommand(parsed.name);
      at = parsed.end;
    }
    buffer = buffer.subarray(at);
  };
}

function readLine(buffer: Buffer, at: number): { line: string; end: number } | null {
  const cr = buffer.indexOf('\r\n', at);
  return cr < 0 ? null : { line: buffer.toString('latin1', at, cr), end: cr + 2 };
}

function readCommand(buffer: Buffer, at: number): { name: string; end: number } | null {
  const head = readLine(buffer, at);
  if (!head) return null;
  if (!head.line.startsWith('*')) throw new Error(`not a RESP command: ${head.line.slice(0, 20)}`);
  const parts = Number(head.line.slice(1));
  let end = head.end;
  let name = '';
  for (let i = 0; i < parts; i++) {
    const size = readLine(buffer, end);
    if (!size) return null;
    const length = Number(size.line.slice(1));
    if (buffer.length < size.end + length + 2) return null;
    if (i === 0) name = buffer.toString('latin1', size.end, size.end + length).toLowerCase();
    end = size.end + length + 2;
  }
  return { name, end };
}

/**
 * PostgreSQL's frontend messages (https://www.postgresql.org/docs/current/protocol-message-formats.html):
 * an untyped start-up packet (or SSLRequest) first, then a type byte and an int32 length each.
 */
function postgresReader(onMessage: (type: string) => void): (chunk: Buffer) => void {
  let buffer: Buffer = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    let at = 0;
    for (;;) {
      if (!started) {
        if (buffer.length < at + 8) break;
        const length = buffer.readInt32BE(at);
        const code = buffer.readInt32BE(at + 4);
        if (buffer.length < at + length) break;
        at += length;
        // SSLRequest (80877103) and GSSENCRequest (80877104) come before the real start-up.
        if (code !== 80877103 && code !== 80877104) started = true;
        continue;
      }
      if (buffer.length < at + 5) break;
      const length = buffer.readInt32BE(at + 1);
      if (buffer.length < at + 1 + length) break;
      onMessage(String.fromCharCode(buffer[at] as number));
      at += 1 + length;
    }
    buffer = buffer.subarray(at);
  };
}

const POSTGRES_ROUND_TRIPS: Record<string, string> = { Q: 'query', S: 'sync' };

export async function startWireCounter(
  protocol: WireProtocol,
  target: { host: string; port: number },
): Promise<WireCounter> {
  let counts: WireCounts = { requests: 0, byName: new Map() };
  const count = (name: string) => {
    counts.requests++;
    counts.byName.set(name, (counts.byName.get(name) ?? 0) + 1);
  };
  const sockets = new Set<Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const read =
      protocol === 'redis'
        ? respReader(count)
        : postgresReader((type) => {
            const name = POSTGRES_ROUND_TRIPS[type];
            if (name) count(name);
          });
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the counter has no port');
  return {
    port: address.port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(address.port);
      return u.toString();
    },
    counts: () => ({ requests: counts.requests, byName: new Map(counts.byName) }),
    reset() {
      counts = { requests: 0, byName: new Map() };
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A counter in front of the server `url` names (redis://… or postgres://…). */
export function wireCounterFor(protocol: WireProtocol, url: string): Promise<WireCounter> {
  const u = new URL(url);
  return startWireCounter(protocol, {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || (protocol === 'redis' ? 6379 : 5432)),
  });
}
