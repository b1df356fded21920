import { safeParse } from 'fast-content-type-parse';
import type { FastifyRequest } from 'fastify';

/**
 * The request body's media type, lower-cased and without parameters ("application/json"), or ''
 * when there is none or the header cannot be read. One parser (the Fastify team's
 * fast-content-type-parse, RFC 9110 grammar) for every decision that depends on it, so letter
 * case, parameters or stray spaces can never make two parts of the server disagree.
 */
export function mediaTypeOf(request: FastifyRequest): string {
  const header = request.headers['content-type'];
  return typeof header === 'string' ? safeParse(header).type : '';
}

/** The only body a plain HTML form (JavaScript off) sends us. */
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
