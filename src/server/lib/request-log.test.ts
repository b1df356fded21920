import type http from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiPaths, healthPaths, pagePaths } from '../../shared/paths.ts';
import { ask, captureLogLines, serveAppTwice } from '../test/fast-path-harness.ts';
import { FastPaths } from './fast-paths.ts';
import { RequestLog, SLOW_REQUEST_MS } from './request-log.ts';

// The request log (request-log.ts): at most one line a request, through Fastify and through the
// fast paths alike; with LOG_REQUESTS=off, none for an ordinary answer and still one for an error,
// a refusal or a slow answer.

const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const beacon = (client: number) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'sec-fetch-site': 'same-origin',
    'user-agent': chrome,
    'x-forwarded-for': `130.149.7.${client}`,
  },
  body: JSON.stringify({ p: '/', tz: 'Europe/Berlin', l: 'de-DE' }),
});
const N = 5;
// Every key a request's line may have: method and path, status, time, and nothing of the client.
const LINE_KEYS = ['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time'];

/** Resolves once `check` holds, polling the log as it grows (no fixed sleep). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const completed = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'request completed');

describe('at the default level, one line a request', () => {
  const served = serveAppTwice({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'info' } });

  it('through Fastify: N requests, N lines, each with method, path, status and time only', async () => {
    const before = served.lines.length;
    for (let i = 0; i < N; i++)
      expect((await ask(served.fastPort, `${healthPaths.alive}?token=secret`)).status).toBe(200);
    const since = () => served.lines.slice(before);
    await until(() => completed(since()).length === N, `${N} request lines`);
    expect(since()).toHaveLength(N);
    for (const line of since()) {
      expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
      expect(line).toMatchObject({
        level: 30,
        req: { method: 'GET', path: healthPaths.alive },
        res: { statusCode: 200 },
      });
      expect(String(line.reqId)).toMatch(/^req-/);
      expect(typeof line.responseTime).toBe('number');
    }
  });

  it('through the beacon’s route: N beacons, N lines', async () => {
    const before = served.lines.length;
    for (let i = 1; i <= N; i++) expect((await ask(served.fastPort, apiPaths.visit, beacon(i))).status).toBe(204);
    const since = () => served.lines.slice(before);
    await until(() => completed(since()).length === N, `${N} request lines`);
    expect(since()).toHaveLength(N);
    for (const line of since()) {
      expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
      expect(line).toMatchObject({
        level: 30,
        req: { method: 'POST', path: apiPaths.visit },
        res: { statusCode: 204 },
      });
      expect(String(line.reqId)).toMatch(/^req-/);
    }
  });
});

describe('with LOG_REQUESTS=off', () => {
  const served = serveAppTwice({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'info', LOG_REQUESTS: 'off' } });

  it('an ordinary answer (a health check, a beacon) gets no line; a refusal gets one', async () => {
    const before = served.lines.length;
    for (let i = 1; i <= N; i++) {
      expect((await ask(served.fastPort, healthPaths.alive)).status).toBe(200);
      expect((await ask(served.fastPort, apiPaths.visit, beacon(i))).status).toBe(204);
    }
    // A write from another site: refused (403), and that is worth a line.
    const refused = await ask(served.fastPort, pagePaths.signup, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: '{}',
    });
    expect(refused.status).toBe(403);
    const since = () => served.lines.slice(before);
    await until(() => completed(since()).length > 0, 'the refusal’s line');
    expect(since()).toHaveLength(1);
    expect(since()[0]).toMatchObject({
      level: 40,
      req: { method: 'POST', path: pagePaths.signup },
      res: { statusCode: 403 },
    });
  });
});

/** A log capture and a Fastify app with the app's serializers, logging through `requests`. */
function bareApp(requests: RequestLog) {
  const { stream, lines } = captureLogLines();
  const app = Fastify({
    logger: {
      level: 'info',
      stream,
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
    logController: requests,
  });
  return { app, lines };
}

describe('the rule, with LOG_REQUESTS=off: errors, refusals and slow answers still get their line', () => {
  it('through Fastify: a 500, a 429 and a slow 200 one line each; a quick 200 and a 404 none', async () => {
    const { app, lines } = bareApp(new RequestLog(false));
    app.get('/ok', () => 'ok');
    app.get('/fails', () => {
      throw new Error('a bug');
    });
    app.get('/limited', (_req, reply) => reply.code(429).send('later'));
    app.get('/slow', async () => {
      // The handler is what is slow here: the line depends on the time taken, measured by Fastify.
      await new Promise((r) => setTimeout(r, SLOW_REQUEST_MS + 50));
      return 'at last';
    });
    try {
      const statuses = [];
      for (const url of ['/ok', '/fails', '/ok', '/limited', '/no-such-page', '/slow'])
        statuses.push((await app.inject({ url })).statusCode);
      expect(statuses).toEqual([200, 500, 200, 429, 404, 200]);
      await until(() => completed(lines).length >= 3, 'three lines');
      const requestLines = completed(lines).map((l) => [
        l.level,
        (l.req as { path: string }).path,
        (l.res as { statusCode: number }).statusCode,
      ]);
      expect(requestLines).toEqual([
        [50, '/fails', 500],
        [40, '/limited', 429],
        [40, '/slow', 200],
      ]);
      // Fastify's 'Route GET:/no-such-page not found' line is gone too (it quoted the raw URL).
      expect(lines.filter((l) => String(l.msg).includes('not found'))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('through a fast path: the same rule, through the same RequestLog', () => {
    const lines: { level: string; fields: Record<string, unknown> }[] = [];
    const log = Object.fromEntries(
      ['error', 'warn', 'info', 'debug'].map((level) => [
        level,
        (fields: Record<string, unknown>) => lines.push({ level, fields }),
      ]),
    );
    const paths = new FastPaths();
    let status = 200;
    let busyMs = 0;
    paths.add({
      route: '/x',
      answer: () => {
        // A fast path that is not fast (a stand-in for a stalled event loop): busy, then answers.
        const until = performance.now() + busyMs;
        while (performance.now() < until);
        return status;
      },
    });
    paths.start({
      log: { level: 'info', ...log } as unknown as Parameters<FastPaths['start']>[0]['log'],
      metrics: { httpAnswer: () => () => {} } as unknown as Parameters<FastPaths['start']>[0]['metrics'],
      requests: new RequestLog(false),
    });
    const req = { method: 'GET', url: '/x?sig=secret' } as http.IncomingMessage;
    const res = { headersSent: true } as http.ServerResponse;
    const answer = (s: number, ms = 0) => {
      status = s;
      busyMs = ms;
      expect(paths.handle(req, res)).toBe(true);
    };
    answer(200);
    answer(404);
    expect(lines).toEqual([]);
    answer(500);
    answer(429);
    answer(200, SLOW_REQUEST_MS + 20);
    expect(lines.map((l) => [l.level, (l.fields.res as { statusCode: number }).statusCode])).toEqual([
      ['error', 500],
      ['warn', 429],
      ['warn', 200],
    ]);
  });
});
