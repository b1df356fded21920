import { z } from 'zod/mini';

// The one shape of every JSON error the server sends, whatever raised it (a route, validation,
// Fastify itself, a rate limit, a 404): a stable code for programs, a sentence for people, and
// per-field sentences when fields are involved. The client's HTTP helper parses every error with
// this schema, so a reply that does not match is itself handled as an error.

const apiErrorCodes = [
  'bad_request',
  'invalid_fields',
  /** No valid operator session (the console shows its sign-in). */
  'unauthorized',
  'forbidden',
  /** The console's sensitive actions: an authenticator code from the last five minutes is needed. */
  'fresh_proof_required',
  'csrf',
  'not_found',
  /** The thing changed state meanwhile (e.g. a broadcast sent by another click or operator). */
  'conflict',
  'method_not_allowed',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'precondition_required',
  'rate_limited',
  'internal',
  'unavailable',
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(apiErrorCodes),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

export type ApiErrorBody = z.output<typeof apiErrorSchema>;
export type ApiError = ApiErrorBody['error'];

/** The code that goes with an HTTP status when nothing more specific is known. */
export function codeForStatus(status: number): ApiErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 408:
      return 'request_timeout';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 428:
      return 'precondition_required';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

export const apiError = (code: ApiErrorCode, message: string, fields?: Record<string, string>): ApiErrorBody => ({
  error: { code, message, ...(fields ? { fields } : {}) },
});

/** A reply that only says what happened, in words (e.g. the one-click unsubscribe). */
export const messageReplySchema = z.object({ message: z.string() });
export type MessageReply = z.output<typeof messageReplySchema>;
