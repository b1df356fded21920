import formBody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiError, codeForStatus, type ApiErrorBody } from '../../shared/api-error.ts';
import { csrfErrorMessage, isCsrfError } from './write-protection.ts';

// The HTTP contract every route shares: request and response schemas are the zod schemas in
// src/shared (fastify-type-provider-zod compiles them, so a route's types come from the same
// schema its requests are checked against and its replies must match), the only bodies accepted
// are JSON and the plain web form, and every JSON error has one shape (src/shared/api-error.ts).

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
}

/** The words for an error Fastify or a plugin raised, by status. Never the framework's own text. */
export function errorWords(error: ErrorLike, status: number): string {
  if (isCsrfError(error)) return csrfErrorMessage;
  switch (status) {
    case 400:
      return 'We could not read that request. Please check it and try again.';
    case 403:
      // Our own refusals (ForbiddenError) are written for people; anything else is not shown.
      return error.name === 'ForbiddenError' && error.message ? error.message : 'That is not allowed.';
    case 404:
      return 'Not found: there is nothing at this address.';
    case 405:
      return 'That address does not take this kind of request.';
    case 413:
      return 'That was more than this address takes (16 KB at most). Please send less.';
    case 415:
      return 'Please send a normal web form or JSON.';
    case 429:
      // Written by our rate-limit settings, with the wait in seconds.
      return error.message || 'Too many requests. Please wait a minute and try again.';
    case 503:
      return 'We are busy or restarting. Please try again in a few seconds.';
    default:
      return 'Something went wrong on our side. Please try again in a minute.';
  }
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

/** The one JSON error body for any error, logging the ones that are our fault. */
export function errorBody(error: FastifyError, request: FastifyRequest): { status: number; body: ApiErrorBody } {
  const fields = fieldErrors(error);
  if (fields) return { status: 400, body: apiError('invalid_fields', 'Please correct the fields named below.', fields) };
  const status = statusOf(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  return { status, body: apiError(isCsrfError(error) ? 'csrf' : codeForStatus(status), errorWords(error, status)) };
}

export const httpContractPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);

    // JSON is built in; urlencoded is the no-JavaScript form. Anything else is refused with 415.
    await app.register(formBody);
    app.removeContentTypeParser('text/plain');

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body } = errorBody(error, request);
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
