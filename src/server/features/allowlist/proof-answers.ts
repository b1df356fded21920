import { createHash } from 'node:crypto';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { AllowlistProof } from '../../../shared/allowlist/allowlist-schema.ts';
import { apiError } from '../../../shared/api-error.ts';

// What `GET /api/allowlist/proof/:address` answers, written once as bytes and headers, so that the
// Fastify route and the fast path in front of it (proof-fast-path.ts, decision 0049) send the same
// answer from the same source. The security headers are not here: both take those from the one
// `headersFor` every response gets them from.

/** Public, the same for everyone until the next snapshot. */
const PROOF_CACHE_CONTROL = 'public, max-age=60';
const JSON_TYPE = 'application/json; charset=utf-8';

export interface ProofAnswer {
  readonly status: 200 | 404;
  /** The route's own headers, in the order they go out; Content-Length is the body's. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** A proof's entity tag; null for a refusal, which is never answered 304. */
  readonly etag: string | null;
  /** What a 304 to this answer carries besides the security headers (RFC 9110 §15.4.5). */
  readonly notModifiedHeaders: Readonly<Record<string, string>> | null;
}

/** A proof as the route sends it: the JSON the reply schema describes, with its entity tag. */
export function proofAnswer(proof: AllowlistProof): ProofAnswer {
  // Fields named one by one, in the schema's order: the bytes the route's serializer wrote before.
  const body = Buffer.from(JSON.stringify({ root: proof.root, proof: proof.proof }));
  // Strong: the same bytes always get the same tag, on every instance, since a snapshot never
  // changes. 132 bits of SHA-256 are plenty to tell two answers apart.
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return {
    status: 200,
    headers: {
      'cache-control': PROOF_CACHE_CONTROL,
      etag,
      'content-type': JSON_TYPE,
      'content-length': String(body.length),
    },
    body,
    etag,
    notModifiedHeaders: { 'cache-control': PROOF_CACHE_CONTROL, etag },
  };
}

function refusal(message: string): ProofAnswer {
  const body = Buffer.from(JSON.stringify(apiError('not_found', message)));
  return {
    status: 404,
    headers: { 'content-type': JSON_TYPE, 'content-length': String(body.length) },
    body,
    etag: null,
    notModifiedHeaders: null,
  };
}

/** Before any freeze. */
export const noSnapshotAnswer: ProofAnswer = refusal(walletRefusals.noSnapshot);

/** An address not on the latest snapshot, named as it was asked for (it passed the address check). */
export const notOnListAnswer = (address: string): ProofAnswer => refusal(walletRefusals.notOnList({ address }));

/** The headers of a 304 when the request's If-None-Match names this answer; null to send it in full. */
export const notModifiedFor = (answer: ProofAnswer, ifNoneMatch: string | undefined) =>
  answer.etag !== null && matchesIfNoneMatch(ifNoneMatch, answer.etag) ? answer.notModifiedHeaders : null;

/**
 * Whether an If-None-Match names this tag: weak comparison, as RFC 9110 §13.1.2 asks of it, so
 * `W/"…"` matches too, and `*` matches any current answer.
 */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
