import type { z } from 'zod/mini';
import { fillPath, type JsonContract, type RouteContract } from '../../shared/route-contract.ts';
import { apiGet, apiSend, type ApiResult } from './http.ts';

// The client's half of a route contract (src/shared/route-contract.ts): the caller passes exactly
// the params, query and body the contract names, and gets its reply type back, checked.

type Part<K extends string, C, Key extends string> = C extends { [P in Key]: infer S extends z.ZodMiniType }
  ? { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

export type CallInput<C extends RouteContract> = Part<'params', C, 'params'> &
  Part<'query', C, 'query'> &
  Part<'body', C, 'body'>;

export interface CallOptions {
  /** e.g. the console's mark on its own polling (BACKGROUND_HEADER). Reads only. */
  headers?: Record<string, string>;
}

/** Calls the JSON route `contract` describes; GETs carry no XSRF token, writes do (http.ts). */
export function callContract<C extends JsonContract>(
  contract: C,
  input: CallInput<C>,
  options: CallOptions = {},
): Promise<ApiResult<z.output<C['reply']>>> {
  const { params, query, body } = input as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const path = fillPath(contract.path, params);
  const reply: C['reply'] = contract.reply;
  if (contract.method === 'GET') {
    const values: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(query ?? {})) values[k] = v === undefined || v === null ? undefined : String(v);
    return apiGet(path, reply, values, options.headers);
  }
  return apiSend(contract.method, path, body ?? {}, reply);
}
