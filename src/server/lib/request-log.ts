import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { logSafeError } from './log-safe.ts';

// The request log: at most one line a request, the same for Fastify's routes and the fast paths
// (decision 0049), which both call `RequestLog.line`. nginx (or any proxy) already writes an
// access line for every request; what the app adds is the line a proxy cannot write well (status
// and time as the app saw them) and, above all, the lines that need reading: errors, refusals and
// slow answers. LOG_REQUESTS=off keeps only those. Each line holds method, path (the `req`
// serializer: never the query string), status and time taken: never an address, agent or email.

/** Past this, an answer is slow and always gets a line (warn): a visitor waited a second. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Refusals worth a line even with LOG_REQUESTS=off: a form or body the app would not take (400,
 * 413, 415), a sign-in or CSRF check failed (401, 403), a conflict (409), a limit reached (429).
 * Not 404 or 405: scanners send those by the thousand, and nothing is to be done about them.
 */
export const LOGGED_REFUSALS: ReadonlySet<number> = new Set([400, 401, 403, 409, 413, 415, 429]);

export interface RequestOutcome {
  method: string;
  /** As requested; the `req` serializer keeps only its path. */
  url: string;
  status: number;
  /** From the request's arrival to the answer handed to the socket. */
  ms: number;
}

type LineLevel = 'error' | 'warn' | 'info';

// FastifyBaseLogger's type has no isLevelEnabled; pino's level names have these values.
const LEVEL_VALUE: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const enabled = (log: FastifyBaseLogger, level: LineLevel | 'debug'): boolean =>
  (LEVEL_VALUE[level] ?? 0) >= (LEVEL_VALUE[log.level] ?? Infinity);

/** The level of a request's line, or null when it gets none. */
export function requestLineLevel(status: number, ms: number, logRequests: boolean): LineLevel | null {
  if (status >= 500) return 'error';
  if (LOGGED_REFUSALS.has(status) || ms > SLOW_REQUEST_MS) return 'warn';
  return logRequests ? 'info' : null;
}

/**
 * Fastify's log controller (Fastify 5's way to shape its own request lines; its
 * `disableRequestLogging` option is deprecated): the line when a response is done instead of two,
 * and 'incoming request' kept only at debug (where a hung request is what one looks for).
 */
export class RequestLog extends LogController {
  constructor(readonly logRequests: boolean) {
    super();
  }

  /** The one line for a request (or none); `reqId` for requests Fastify never saw (fast paths). */
  line(log: FastifyBaseLogger, r: RequestOutcome, reqId?: () => string): void {
    const level = requestLineLevel(r.status, r.ms, this.logRequests);
    if (level === null || !enabled(log, level)) return;
    log[level](
      {
        ...(reqId ? { reqId: reqId() } : {}),
        req: { method: r.method, url: r.url },
        res: { statusCode: r.status },
        responseTime: r.ms,
      },
      'request completed',
    );
  }

  /** At debug only: a request has arrived (its line comes when it is answered). */
  started(log: FastifyBaseLogger, method: string, url: string, reqId?: () => string): void {
    if (!enabled(log, 'debug')) return;
    log.debug({ ...(reqId ? { reqId: reqId() } : {}), req: { method, url } }, 'incoming request');
  }

  override incomingRequest(request: FastifyRequest): void {
    this.started(request.log, request.method, request.url);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      // The response broke off (the socket failed): always a line, and the error only as safe words.
      reply.log.error(
        {
          req: { method: request.method, url: request.url },
          res: { statusCode: reply.statusCode },
          err: logSafeError(error),
          responseTime: reply.elapsedTime,
        },
        'request errored',
      );
      return;
    }
    this.line(reply.log, {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
    });
  }

  /** Fastify's own 404 line quotes the raw URL, query string and all; the request's line says 404. */
  override routeNotFound(): void {}
}
