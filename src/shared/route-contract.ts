import type { z } from 'zod/mini';
import type { ApiErrorCode } from './api-error.ts';

// One object per JSON route: its method, path, the schemas of what it takes (path params, query,
// body) and of what it answers, and the error codes it may answer with (besides the ones any
// route may: rate_limited, payload_too_large, internal, unavailable…). The server registers the
// route from it (src/server/lib/register-contract.ts) and the client calls it with it
// (src/client/lib/call-contract.ts), so a path, method and shape are paired once, here, and a call
// with the wrong shape does not compile. docs/decisions/0033-route-contracts-fields-and-message-codes.md
//
// Contracts are listed in src/shared/admin/contracts.ts (the console's), signup-schema.ts (the
// sign-up), allowlist/allowlist-schema.ts (the wallet allowlist's, which the page's island calls
// by their ContractRoute, allowlist/allowlist-routes.ts) and csrf-contract.ts (the form's cookies). Not a contract, on purpose: the visit beacon
// (src/client/analytics/beacon.ts), which stays dependency-free so it loads before anything else,
// and sends a type-checked copy of its path; and the documents (/confirm, /unsubscribe and the
// no-JavaScript answer of /signup), which answer with a page.

type Schema = z.ZodMiniType;

/** A 2xx that is not JSON: a file the browser saves (its media type), e.g. the CSV downloads. */
interface FileReply {
  file: string;
}
/** A 2xx with no body (204), e.g. GET /api/csrf, whose answer is its cookies. */
interface EmptyReply {
  empty: 204;
}

export interface RouteContract {
  method: 'GET' | 'POST';
  /** From src/shared/paths.ts; `:name` segments are filled from `params`. */
  path: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The 2xx answer: its JSON schema, a file or nothing; every error answers in the one shape of api-error.ts. */
  reply: Schema | FileReply | EmptyReply;
  errors: readonly ApiErrorCode[];
}

/** Keeps the literal types of a contract (its schemas), checked against RouteContract. */
export const defineContract = <const C extends RouteContract>(contract: C): C => contract;

/**
 * A contract's method and path alone, for a caller that must carry no zod (the allowlist's
 * plain-script island, held to a few KB): what it sends at run time, typed by its contract (a
 * type-only import) whose method and path the compiler holds it to. callRoute
 * (src/client/lib/call-route.ts) calls it as callContract calls the contract, trusting the reply's
 * type where callContract checks it against the schema (the server has already answered by it).
 */
export interface ContractRoute<C extends RouteContract> {
  method: C['method'];
  path: C['path'];
  /** Never set: carries the contract's type to the caller. */
  readonly contract?: C;
}

/** A contract whose 2xx is JSON (what callContract calls). */
export type JsonContract = RouteContract & { reply: Schema };
/** A contract whose 2xx is a file (what the console's download calls). */
export type FileContract = RouteContract & { reply: FileReply };

/** Whether a reply is JSON with a schema (not a file, not empty). */
export const isJsonReply = (reply: RouteContract['reply']): reply is Schema => '_zod' in reply;

/** What a schema of the contract is as parsed (undefined when the contract has none). */
export type ContractOutput<S> = S extends Schema ? z.output<S> : undefined;

/** The path with its `:name` segments filled in (each value URL-encoded). */
export function fillPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (segment, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
