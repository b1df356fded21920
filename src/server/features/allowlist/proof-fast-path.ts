import type { IncomingMessage, ServerResponse } from 'node:http';
import { ethAddressPattern } from '../../../shared/allowlist/allowlist-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { FastPath } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import { notModifiedFor, type ProofAnswer } from './proof-answers.ts';
import type { ProofCache } from './proof-cache.ts';

// `GET /api/allowlist/proof/:address` answered before Fastify (decision 0049): the sale page's
// busiest read, from memory, for which Fastify's routing and hook chain cost most of a request.
// It takes only what the route would answer from memory at once: GET or HEAD, the exact path with
// an address the route's own schema accepts, no body, and a snapshot that needs no check right now.
// Anything else (a malformed address, a query string, a check due, a HEAD that would be a 304)
// goes to the route untouched,
// so its answers there, the 400 in words included, are the route's by construction.

const PREFIX = apiPaths.allowlistProof.slice(0, apiPaths.allowlistProof.indexOf(':'));
/** `0x` and 40 hex digits. */
const ADDRESS_LENGTH = 42;

interface Wire {
  full: Record<string, string>;
  /** Only for an answer that can be 304. */
  notModified: Record<string, string>;
}

export function proofFastPath(proofs: ProofCache, headersFor: HeadersFor): FastPath {
  // The security headers every /api/ response gets from the onRequest hook, from the same function.
  const security = headersFor(PREFIX);
  // Each answer's full header set, written once (the answers of listed addresses live as long as
  // their snapshot; a refusal's goes with it).
  const wires = new WeakMap<ProofAnswer, Wire>();
  const wireOf = (answer: ProofAnswer): Wire => {
    let wire = wires.get(answer);
    if (!wire) {
      wire = {
        full: { ...security, ...answer.headers },
        notModified: { ...security, ...answer.notModifiedHeaders },
      };
      wires.set(answer, wire);
    }
    return wire;
  };

  return {
    route: apiPaths.allowlistProof,
    answer(req: IncomingMessage, res: ServerResponse): number {
      const { url, method, headers } = req;
      if (url?.length !== PREFIX.length + ADDRESS_LENGTH || !url.startsWith(PREFIX)) return 0;
      if (method !== 'GET' && method !== 'HEAD') return 0;
      // A GET with a body is Fastify's to read or refuse.
      if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') return 0;
      const address = url.slice(PREFIX.length);
      if (!ethAddressPattern.test(address)) return 0;
      const answer = proofs.answerNow(address);
      if (answer === undefined) return 0;
      const wire = wireOf(answer);
      if (notModifiedFor(answer, headers['if-none-match'])) {
        // Fastify's HEAD route adds "Content-Length: 0" to a 304 of its own; a rare request, left
        // to it rather than copying that here.
        if (method === 'HEAD') return 0;
        res.writeHead(304, wire.notModified).end();
        return 304;
      }
      res.writeHead(answer.status, wire.full).end(method === 'HEAD' ? undefined : answer.body);
      return answer.status;
    },
  };
}
