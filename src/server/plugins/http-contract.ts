import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import formBody from '@fastify/formbody';
import type {
  ConnectionError,
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { messagesFor } from '../../../content/messages/catalog.ts';
import { defaultLocale, type Locale } from '../../shared/locales.ts';
import { answerLocale } from './request-locale.ts';
import { apiError, codeForStatus, type ApiErrorBody } from '../../shared/api-error.ts';
import { API_PREFIX } from '../../shared/paths.ts';
import { logSafeError } from '../lib/log-safe.ts';
import { isStoreUnavailable, STORE_RETRY_AFTER_S } from '../store/store-errors.ts';
import type { HeadersFor } from './security-headers.ts';
import { isCsrfError } from './write-protection.ts';

// The HTTP contract every route shares: request and response schemas are the zod schemas in
// src/shared (fastify-type-provider-zod compiles them, so a route's types come from the same
// schema its requests are checked against and its replies must match), the only bodies accepted
// are JSON and the plain web form, and every JSON error has one shape (src/shared/api-error.ts).

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
}

// The words of the one error shape, by status (content/messages/<locale>/http-errors.ts): in the
// language the request asks for (request-locale.ts), else the site's default.
const words = messagesFor(defaultLocale).httpErrors;

/** The words for an error Fastify or a plugin raised, by status. Never the framework's own text. */
export function errorWords(error: ErrorLike, status: number, locale: Locale = defaultLocale): string {
  const words = messagesFor(locale).httpErrors;
  const wordsByStatus: Readonly<Record<number, string>> = words;
  if (isCsrfError(error)) return words.csrf;
  // Our own refusals (ForbiddenError) are written for people; anything else is not shown.
  if (status === 403 && error.name === 'ForbiddenError' && error.message) return error.message;
  // Written by our rate-limit settings, with the wait in seconds.
  if (status === 429 && error.message) return error.message;
  return wordsByStatus[status] ?? words[500];
}

export const statusOf = (error: { statusCode?: number }): number =>
  error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;

/** Per-field sentences from a schema validation error, keyed by the top-level field name. */
export function fieldErrors(error: FastifyError): Record<string, string> | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const fields: Record<string, string> = {};
  for (const issue of error.validation) {
    const field = issue.instancePath.split('/')[1] || 'request';
    fields[field] ??= issue.message ?? 'This value is not valid.';
  }
  return fields;
}

/**
 * The client went away before its request had arrived (closed the tab, lost the network): nothing
 * is wrong on our side, so it is worth an info line, never an error.
 */
export const isClientAbort = (error: { code?: string }, request: FastifyRequest): boolean =>
  request.raw.aborted ||
  request.raw.socket?.destroyed === true ||
  error.code === 'ECONNRESET' ||
  error.code === 'ECONNABORTED';

/** What a request that needed the database is told while the database is out of reach or out of room. */
export const storeUnavailableWords = words.storeDown({ seconds: STORE_RETRY_AFTER_S });

export interface ErrorAnswer {
  status: number;
  body: ApiErrorBody;
  /** Seconds for a Retry-After header, when waiting is the remedy. */
  retryAfterS?: number;
}

/** The one JSON error body for any error, logging the ones that are our fault. */
export function errorBody(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  // A socket error is the store's only while the visitor's own connection is still there: a
  // visitor who went away mid-body raises ECONNRESET too (handled below).
  const visitorGone = request.raw.aborted || request.raw.socket?.destroyed === true;
  if (!visitorGone && isStoreUnavailable(error)) {
    // Not a bug, and not the visitor's doing: the store is down, unreachable or full. Logged (the
    // operator must hear of it) with the same care as any error: code and words, never a value.
    request.log.error({ err: logSafeError(error) }, 'store unavailable');
    return { status: 503, body: apiError('unavailable', storeUnavailableWords), retryAfterS: STORE_RETRY_AFTER_S };
  }
  const locale = answerLocale(request, true);
  const fields = fieldErrors(error);
  if (fields) {
    return { status: 400, body: apiError('invalid_fields', messagesFor(locale).httpErrors.invalidFields, fields) };
  }
  if (isClientAbort(error, request)) {
    request.log.info('request aborted by the client');
    return { status: 400, body: apiError('bad_request', errorWords(error, 400, locale)) };
  }
  const status = statusOf(error);
  // Only what is safe to keep: a database error's detail can quote the row it refused.
  if (status >= 500) request.log.error({ err: logSafeError(error) }, 'request failed');
  return {
    status,
    body: apiError(isCsrfError(error) ? 'csrf' : codeForStatus(status), errorWords(error, status, locale)),
  };
}

/**
 * Fastify's `frameworkErrors`: a URL it cannot even decode (`/%`), or a route parameter over
 * `maxParamLength`. These are answered before any hook runs, so without this they would go out
 * with no security header and Fastify's own body, which quotes the URL back. Here they get the
 * headers, and the one error shape or (for a browser) the page `sendPage` gives; never the URL.
 */
export function frameworkErrorHandler(
  headersFor: HeadersFor,
  sendPage: (request: FastifyRequest, reply: FastifyReply, status: number) => FastifyReply | undefined,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    reply.headers(headersFor(request.url)).header('cache-control', 'no-store');
    // FST_ERR_BAD_URL and FST_ERR_MAX_PARAM_LENGTH are the visitor's; an async constraint
    // failing (we have none) would be ours.
    const status = error.code === 'FST_ERR_ASYNC_CONSTRAINT' ? 500 : 400;
    if (status >= 500) request.log.error({ err: logSafeError(error) }, 'request failed');
    return (
      sendPage(request, reply, status) ??
      reply.code(status).send(apiError(codeForStatus(status), errorWords(error, status)))
    );
  };
}

/**
 * Answers what Node's HTTP parser refused before Fastify saw a request: a request that took longer
 * than the request or header timeout (408), headers over the size limit (431), bytes that are not
 * HTTP (400). Fastify's default handler sends these without security headers and logs the raw
 * packet at trace level, request line and cookies included; this one sends the one error shape
 * with the headers, and logs only the error's code.
 */
export function clientErrorHandler(headersFor: HeadersFor, log: () => FastifyBaseLogger) {
  return (error: ConnectionError, socket: Socket): void => {
    // The client is gone already: nothing to answer, nothing wrong.
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    if (status === 408) log().info({ code: error.code }, 'request timed out; connection closed');
    else log().debug({ code: error.code }, 'unreadable request; connection closed');
    // A response already under way on this socket (say, a 413 sent while the body was still
    // arriving) must not have another written into it; Node's own handler makes the same check.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(apiError(codeForStatus(status), errorWords({}, status === 431 ? 400 : status)));
      const headers = {
        // No document is ever sent here, so the API's short policy fits.
        ...headersFor(API_PREFIX),
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        'cache-control': 'no-store',
        connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n${head}\r\n${body}`);
    }
    socket.destroy();
  };
}

export const httpContractPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);

    // JSON is built in; urlencoded is the no-JavaScript form. Anything else is refused with 415.
    await app.register(formBody);
    app.removeContentTypeParser('text/plain');

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body, retryAfterS } = errorBody(error, request);
      if (retryAfterS !== undefined) reply.header('retry-after', String(retryAfterS));
      return reply.code(status).send(body);
    });

    // Fastify's own 503-while-closing answers in its shape; ours answers in the one shape.
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    app.addHook('onRequest', (_request: FastifyRequest, reply: FastifyReply, done) => {
      if (!closing) return done();
      reply.code(503).header('connection', 'close').header('retry-after', '5');
      return reply.send(apiError('unavailable', errorWords({}, 503)));
    });
  },
  { name: 'dh-http-contract', fastify: '5.x' },
);
