import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseJson } from 'secure-json-parse';
import { apiPaths } from '../../../shared/paths.ts';
import { visitBeaconSchema, type VisitBeacon } from '../../../shared/visit-schema.ts';
import { clientAddress, type TrustFn } from '../../lib/client-address.ts';
import type { FastPath } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import type { VisitIntake } from './visit-intake.ts';
import { VISIT_BODY_LIMIT } from './visit-routes.ts';

// `POST /api/visit` answered before Fastify (decision 0052): every page view sends one, and
// Fastify's routing, hook chain and body parsing cost most of what a beacon cost. It takes only
// what the page's own script sends and the route would take: the exact path, a JSON body of a
// stated length within the route's limit, `Sec-Fetch-Site: same-origin`, while the overload guard
// is not shedding writes. Anything else (an older browser that sends only Origin, a chunked or
// oversized body, another content type, another site) goes to the route untouched. Whatever the
// body turns out to be, the route's answer is the same 204, so the answer is the route's; what is
// counted is decided by the one intake both share.

/** Fastify's reading of a JSON body: a `__proto__` or `constructor.prototype` key refuses it. */
const JSON_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * The beacon in a body, as the route would have it after parsing and validation; 'unparsable' when
 * Fastify's JSON parser would refuse it, 'invalid' when the schema would.
 */
function readBeacon(body: Buffer): VisitBeacon | 'unparsable' | 'invalid' {
  if (body.length === 0) return 'unparsable';
  let value: unknown;
  try {
    value = parseJson(body.toString('utf8'), undefined, JSON_OPTIONS);
  } catch {
    return 'unparsable';
  }
  const parsed = visitBeaconSchema.safeParse(value);
  return parsed.success ? parsed.data : 'invalid';
}

export interface VisitFastPathOptions {
  headersFor: HeadersFor;
  /** The trust in forwarding proxies that Fastify's `request.ip` uses. */
  trust: false | TrustFn;
  /** Whether the overload guard sheds writes now (it answers beacons 204 then, and counts none). */
  underPressure: () => boolean;
  /** A failure after the request was taken: logged, never thrown into the server. */
  onError: (error: unknown) => void;
}

export function visitFastPath(intake: VisitIntake, opts: VisitFastPathOptions): FastPath {
  // The security headers the onRequest hook gives every /api/ response, then the route's own.
  const security = opts.headersFor(apiPaths.visit);
  const headers = { ...security, 'cache-control': 'no-store' };
  // Fastify closes the connection after a body its parser refused ("the client may send more").
  const closing = { ...security, connection: 'close', 'cache-control': 'no-store' };

  return {
    route: apiPaths.visit,
    answer(req: IncomingMessage, res: ServerResponse): number {
      if (req.url !== apiPaths.visit || req.method !== 'POST') return 0;
      const h = req.headers;
      if (h['sec-fetch-site'] !== 'same-origin' || h['content-type'] !== 'application/json') return 0;
      // A chunked body, or one the route would refuse by its length, is Fastify's to read or refuse.
      if (h['transfer-encoding'] !== undefined || h['content-length'] === undefined) return 0;
      if (!(Number(h['content-length']) <= VISIT_BODY_LIMIT)) return 0;
      if (opts.underPressure()) return 0;
      const address = clientAddress(req, opts.trust);
      if (address === undefined) return 0;

      // Node frames the body by its Content-Length, so no more than the limit can arrive.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A connection reset before the body ended: nobody to answer and nothing to count.
      req.on('error', () => undefined);
      req.on('end', () => {
        try {
          // Answered once the request is read, as the route answers.
          const beacon = readBeacon(Buffer.concat(chunks));
          res.writeHead(204, beacon === 'unparsable' ? closing : headers).end();
          if (typeof beacon === 'string') intake.refuse();
          else intake.take(beacon, h, address);
        } catch (error) {
          opts.onError(error);
          if (!res.headersSent) res.destroy();
        }
      });
      return 204;
    },
  };
}
