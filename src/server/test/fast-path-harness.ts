import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { metricsPath } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from './built-app.ts';

// A fast path (decision 0049) against the route behind it, over real HTTP: the same app served
// twice, once as main.ts serves it (fast paths first) and once through Fastify's own handler
// alone (`app.routing`, what a fast path hands anything else to).

export interface Answer {
  status: number;
  /** Name and value pairs in the order they came, names lower-cased; Date only as present. */
  headers: [string, string][];
  body: string;
}

export interface AskOptions {
  method?: string;
  /** A list sends the header once per value. */
  headers?: Record<string, string | string[]>;
  /** Sent as it is; with `chunked`, in two chunks without a Content-Length. */
  body?: string;
  chunked?: boolean;
}

export function ask(port: number, path: string, opts: AskOptions = {}): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const headers = { ...opts.headers };
    if (opts.body !== undefined && !opts.chunked) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const req = http.request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = (res.rawHeaders[i] ?? '').toLowerCase();
          // The two answers are a few milliseconds apart; the second may tick over.
          headers.push([name, name === 'date' ? '(a date)' : (res.rawHeaders[i + 1] ?? '')]);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined && opts.chunked) {
      const half = Math.floor(opts.body.length / 2);
      req.write(opts.body.slice(0, half));
      req.end(opts.body.slice(half));
    } else req.end(opts.body);
  });
}

export const header = (a: Answer, name: string): string | undefined => a.headers.find(([n]) => n === name)?.[1];

/** The app listening as main.ts serves it, and a second server on Fastify's own handler alone. */
async function serveTwice(
  app: FastifyInstance,
): Promise<{ fastPort: number; routePort: number; close: () => Promise<void> }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const fastPort = (app.server.address() as AddressInfo).port;
  // Kept alive as long as the app's own server, so even Keep-Alive reads the same.
  const routeServer = http.createServer((req, res) => app.routing(req, res));
  routeServer.keepAliveTimeout = app.server.keepAliveTimeout;
  await new Promise<void>((resolve) => routeServer.listen(0, '127.0.0.1', resolve));
  const routePort = (routeServer.address() as AddressInfo).port;
  return {
    fastPort,
    routePort,
    close: async () => {
      routeServer.closeAllConnections();
      await new Promise((resolve) => routeServer.close(resolve));
    },
  };
}

/** The app's log as parsed lines, and the stream to hand `buildTestApp` as its `logStream`. */
export function captureLogLines(): { stream: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}

export interface ServedTwice {
  readonly t: TestApp;
  /** The app as main.ts serves it: the fast paths first. */
  readonly fastPort: number;
  /** Fastify's own handler alone. */
  readonly routePort: number;
  /** The app's log, parsed. */
  readonly lines: Record<string, unknown>[];
  /** The log lines the fast paths wrote (their request ids start with `fast-`). */
  fastLines(): Record<string, unknown>[];
  /** The metrics page, read with the METRICS_TOKEN the app was built with. */
  scrape(): Promise<string>;
}

/**
 * For a describe block: builds the test app (logging to a capture) before its tests, serves it
 * twice (see serveTwice), and closes both after them.
 */
export function serveAppTwice(
  options: Omit<NonNullable<Parameters<typeof buildTestApp>[0]>, 'logStream'>,
): ServedTwice {
  const { stream, lines } = captureLogLines();
  let built: { t: TestApp; fastPort: number; routePort: number; close: () => Promise<void> } | undefined;
  const ready = () => {
    if (!built) throw new Error('serveAppTwice: used outside its describe block’s tests');
    return built;
  };
  beforeAll(async () => {
    const t = await buildTestApp({ ...options, logStream: stream });
    built = { t, ...(await serveTwice(t.app)) };
  });
  afterAll(async () => {
    await built?.close();
    await built?.t.close();
  });
  return {
    get t() {
      return ready().t;
    },
    get fastPort() {
      return ready().fastPort;
    },
    get routePort() {
      return ready().routePort;
    },
    lines,
    fastLines: () => lines.filter((l) => String(l.reqId).startsWith('fast-')),
    scrape: async () =>
      (
        await ready().t.app.inject({
          url: metricsPath,
          headers: { authorization: `Bearer ${options.env?.METRICS_TOKEN ?? ''}` },
        })
      ).body,
  };
}
