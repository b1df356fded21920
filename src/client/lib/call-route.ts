import type { z } from 'zod/mini';
import type { ApiError } from '../../shared/api-error.ts';
import { fillPath, type ContractRoute, type JsonContract } from '../../shared/route-contract.ts';
import type { CallInput } from './call-contract.ts';
import { getJson, sendJson, type ApiResult, type ReplyReader } from './transport.ts';

// callContract's twin for a caller that must carry no zod (the allowlist's island): the same
// input, transport and answer, from the contract's method and path alone (ContractRoute). The
// reply is taken as the contract's type unparsed: the server answered it through that schema.

const isObject = (json: unknown): json is Record<string, unknown> => typeof json === 'object' && json !== null;

const trusting = <T>(): ReplyReader<T> => ({
  // Typed by the contract, whose reply schema the server serialised it with.
  reply: (json) => (isObject(json) ? { data: json as T } : null),
  error: (json) => {
    const error = isObject(json) && isObject(json.error) ? json.error : null;
    return error && typeof error.code === 'string' && typeof error.message === 'string'
      ? (error as unknown as ApiError)
      : null;
  },
});

/** Calls the JSON route `route` names; GETs carry no XSRF token, writes do (transport.ts). */
export function callRoute<C extends JsonContract>(
  route: ContractRoute<C>,
  input: CallInput<C>,
): Promise<ApiResult<z.output<C['reply']>>> {
  const { params, query, body } = input as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const path = fillPath(route.path, params);
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`callRoute takes a relative URL, got ${path}`);
  const read = trusting<z.output<C['reply']>>();
  if (route.method === 'GET') {
    const values: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(query ?? {})) values[k] = v === undefined || v === null ? undefined : String(v);
    return getJson(path, read, values);
  }
  return sendJson(route.method, path, body ?? {}, read);
}
