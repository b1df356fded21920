import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { isJsonReply, type ContractOutput, type RouteContract } from '../../shared/route-contract.ts';

// The server's half of a route contract (src/shared/route-contract.ts): the route is registered
// from the contract's method, path and schemas, so what the client sends is what is validated.
// A console route's guard is not written here: its contract names the role (and fresh proof), and
// the console plugin puts the guard on the route (features/console/route-guards.ts). So a console
// contract's route takes no onRequest, which the compiler holds it to, and the start checks again.

type Get<C, K extends string> = C extends { [P in K]: infer S } ? ContractOutput<S> : unknown;

export type ContractRequest<C extends RouteContract> = FastifyRequest<{
  Params: Get<C, 'params'>;
  Querystring: Get<C, 'query'>;
  Body: Get<C, 'body'>;
}>;

/**
 * What a handler may return: the reply's data (serialised by its schema), or the reply once sent
 * (the only choice for a file or an empty answer).
 */
export type ContractHandler<C extends RouteContract> = (
  request: ContractRequest<C>,
  reply: FastifyReply,
) => Promise<ContractReplyInput<C> | FastifyReply>;

type ContractReplyInput<C extends RouteContract> = C['reply'] extends { _zod: { input: infer I } } ? I : never;

/**
 * The Fastify schema of a contract: its parts, its reply, and the shared error shape. A file or an
 * empty answer has no 2xx schema (a byte stream, or no body); its errors still take the one shape.
 */
export const contractSchema = (contract: RouteContract) => ({
  ...(contract.params ? { params: contract.params } : {}),
  ...(contract.query ? { querystring: contract.query } : {}),
  ...(contract.body ? { body: contract.body } : {}),
  response: {
    ...(isJsonReply(contract.reply) ? { 200: contract.reply } : {}),
    '4xx': apiErrorSchema,
    '5xx': apiErrorSchema,
  },
});

/** What a route may set beside its contract: no guard on a console route (one with a role). */
export type ContractRouteOptions<C extends RouteContract> = C extends { role: unknown }
  ? Omit<RouteShorthandOptions, 'schema' | 'onRequest'>
  : Omit<RouteShorthandOptions, 'schema'>;

export function registerContract<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: ContractHandler<C>,
): void;
export function registerContract<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  opts: ContractRouteOptions<C>,
  handler: ContractHandler<C>,
): void;
export function registerContract<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  optsOrHandler: ContractRouteOptions<C> | ContractHandler<C>,
  last?: ContractHandler<C>,
): void {
  const [opts, handler] = typeof optsOrHandler === 'function' ? [{}, optsOrHandler] : [optsOrHandler, last];
  if (!handler) throw new Error(`${contract.method} ${contract.path}: registerContract needs a handler`);
  app.route({
    ...opts,
    method: contract.method,
    url: contract.path,
    schema: contractSchema(contract),
    // The types above are what the schemas make of the request; Fastify checks it at run time.
    handler: handler as unknown as RouteHandlerMethod,
  });
}
