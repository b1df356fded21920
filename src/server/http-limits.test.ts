import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../shared/api-error.ts';
import { pagePaths } from '../shared/paths.ts';
import { timeouts } from './app.ts';
import { buildTestApp, type TestApp } from './test/built-app.ts';
import { postSignupForm, postSignupJson, visitPage } from './test/visitor.ts';

// The time and size limits, against a real listening server and raw sockets: what a slowloris
// client, an oversized form and a visitor who closes the tab mid-upload actually get.

let t: TestApp;
let port: number;
const logLines: string[] = [];

beforeAll(async () => {
  const log = new PassThrough();
  log.on('data', (chunk: Buffer) => logLines.push(...String(chunk).split('\n').filter(Boolean)));
  t = await buildTestApp({ env: { LOG_LEVEL: 'debug' }, logStream: log });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface Trickle {
  /** Resolves when the server closes the connection, with everything it sent. */
  closed: Promise<string>;
  stop(): void;
}

/** Opens a connection, writes `head` and then one byte of `drip` every 250 ms, for ever. */
function trickle(head: string, drip: string): Trickle {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (chunk) => (received += String(chunk)));
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    socket.write(head);
    let i = 0;
    // Faster than any idle timeout: only a limit on the whole request can end this.
    timer = setInterval(() => socket.write(drip[i++ % drip.length] ?? 'x'), 250);
  });
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    }),
  );
  return { closed, stop: () => socket.destroy() };
}

/** `promise`, or a failure naming `what` after `ms` (a generous bound, not a measurement). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('slow clients are cut off', () => {
  it(
    'a body trickled a byte at a time is closed after the request timeout, with a 408 in the one shape and the security headers',
    async () => {
      const body = trickle(
        `POST ${pagePaths.signup} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000\r\nSec-Fetch-Site: same-origin\r\n\r\n`,
        '{"name":"slow"}',
      );
      const headers = trickle(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'X-Slow: 1\r\n');
      try {
        // Upper bounds: the limit, plus Node's check interval, plus room for a busy machine.
        const [bodyReply, headersReply] = await Promise.all([
          within(body.closed, timeouts.requestMs + timeouts.checkEveryMs + 10_000, 'the slow body'),
          within(headers.closed, timeouts.headersMs + timeouts.checkEveryMs + 10_000, 'the slow headers'),
        ]);
        for (const reply of [bodyReply, headersReply]) {
          expect(reply).toMatch(/^HTTP\/1\.1 408 /);
          const [head = '', json = ''] = reply.split('\r\n\r\n');
          expect(head.toLowerCase()).toContain("content-security-policy: default-src 'none'");
          expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
          expect(head.toLowerCase()).toContain('connection: close');
          expect(apiErrorSchema.parse(JSON.parse(json)).error.code).toBe('request_timeout');
        }
      } finally {
        body.stop();
        headers.stop();
      }
      // A timeout is the client's doing: an info line, no error.
      expect(logLines.some((l) => l.includes('"level":30') && l.includes('request timed out'))).toBe(true);
    },
    timeouts.requestMs + 30_000,
  );

  it('the limits are set on the listening server', () => {
    expect(t.app.server.requestTimeout).toBe(timeouts.requestMs);
    expect(t.app.server.headersTimeout).toBe(timeouts.headersMs);
    expect(t.app.server.keepAliveTimeout).toBe(timeouts.keepAliveMs);
    expect(t.app.server.timeout).toBe(timeouts.idleMs);
    // Node refuses a header timeout longer than the request timeout; ours is shorter on purpose.
    expect(timeouts.headersMs).toBeLessThan(timeouts.requestMs);
  });
});

describe('every body parser stops at the body limit', () => {
  const big = 'x'.repeat(20 * 1024);

  it('an oversized JSON body gets 413 in the one shape', async () => {
    const visitor = await visitPage(t.app);
    const res = await postSignupJson(t.app, visitor, { name: 'Pat', email: 'pat@example.com', comment: big });
    expect(res.statusCode).toBe(413);
    expect(apiErrorSchema.parse(res.json()).error.code).toBe('payload_too_large');
  });

  it('an oversized urlencoded form gets 413 too (the no-JavaScript form answers with its page)', async () => {
    const visitor = await visitPage(t.app);
    const res = await postSignupForm(t.app, visitor, { name: 'Pat', email: 'pat@example.com', comment: big });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('16 KB');
  });

  it('an endless chunked form (no Content-Length) is cut at the limit over a real socket', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (c) => (received += String(c)));
    socket.on('error', () => undefined);
    await new Promise((r) => socket.on('connect', r));
    socket.write(
      `POST ${pagePaths.signup} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nOrigin: https://dh.example\r\n\r\n`,
    );
    // Four times the limit, then wait for the answer: it must come without the body ever ending.
    const chunk = 'a'.repeat(4096);
    for (let i = 0; i < 16; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answered = new Promise<void>((resolve) => {
      const check = () => received.includes('\r\n\r\n') && resolve();
      check();
      socket.on('data', check);
      socket.on('close', () => resolve());
    });
    await within(answered, 10_000, 'the 413');
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
  });
});

describe('a client that goes away mid-body', () => {
  it.each([
    ['JSON sign-up', pagePaths.signup, 'application/json'],
    ['form sign-up', pagePaths.signup, 'application/x-www-form-urlencoded'],
    ['one-click unsubscribe', `${pagePaths.unsubscribe}?id=x&sig=y`, 'multipart/form-data; boundary=b'],
  ])('is logged at info, never as an error (%s)', async (_label, path, type) => {
    const before = logLines.length;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.on('connect', r));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: 1000\r\nSec-Fetch-Site: same-origin\r\n\r\nname=`,
    );
    // Wait until the server has started on this request, then vanish.
    await within(
      (async () => {
        while (!logLines.slice(before).some((l) => l.includes('incoming request')))
          await new Promise((r) => setTimeout(r, 20));
      })(),
      10_000,
      'the request to start',
    );
    socket.destroy();
    await within(
      (async () => {
        while (!logLines.slice(before).some((l) => l.includes('request aborted by the client')))
          await new Promise((r) => setTimeout(r, 20));
      })(),
      10_000,
      'the abort to be logged',
    );
    const lines = logLines.slice(before);
    expect(lines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    expect(lines.find((l) => l.includes('request aborted by the client'))).toContain('"level":30');
  });
});
