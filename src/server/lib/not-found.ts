import type { FastifyReply } from 'fastify';
import { apiError } from '../../shared/api-error.ts';

/**
 * A 404 in the API's one error shape, saying in words what is not there. Every route answers a
 * missing thing through this, so a search for how a 404 is sent finds one way.
 */
export const notFound = (reply: FastifyReply, message: string): FastifyReply =>
  reply.code(404).send(apiError('not_found', message));
