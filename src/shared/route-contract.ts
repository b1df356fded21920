import type { z } from 'zod/mini';
import type { ApiErrorCode } from './api-error.ts';

// One object per JSON route: its method, path, the schemas of what it takes (path params, query,
// body) and of what it answers, and the error codes it may answer with (besides the ones any
// route may: rate_limited, payload_too_large, internal, unavailable…). The server registers the
// route from it (src/server/lib/register-contract.ts) and the client calls it with it
// (src/client/lib/call-contract.ts), so a path, method and shape are paired once, here, and a call
// with the wrong shape does not compile. docs/decisions/0033-route-contracts-fields-and-message-codes.md

type Schema = z.ZodMiniType;

export interface RouteContract {
  method: 'GET' | 'POST';
  /** From src/shared/paths.ts; `:name` segments are filled from `params`. */
  path: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The 2xx answer; every error answers in the one shape of api-error.ts. */
  reply: Schema;
  errors: readonly ApiErrorCode[];
}

/** Keeps the literal types of a contract (its schemas), checked against RouteContract. */
export const defineContract = <const C extends RouteContract>(contract: C): C => contract;

/** What a schema of the contract is as parsed (undefined when the contract has none). */
export type ContractOutput<S> = S extends Schema ? z.output<S> : undefined;
/** What a caller passes for a schema of the contract. */
export type ContractInput<S> = S extends Schema ? z.input<S> : undefined;

/** The path with its `:name` segments filled in (each value URL-encoded). */
export function fillPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (segment, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
