import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { isApiPath } from '../../shared/paths.ts';

// Features the site never uses; denying them limits what injected code could reach.
const permissionsPolicy = [
  'accelerometer=()',
  'camera=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

/**
 * The security headers, worked out once by helmet (the well-kept source of what they should say)
 * and then copied onto every response by one synchronous hook. Running helmet per request (as
 * @fastify/helmet does) re-parses the CSP each time and cost about a tenth of the server's CPU in
 * `npm run bench:page`; the headers never change while the process lives.
 */
export interface SecurityHeaderOptions {
  styleHashes: string[];
  scriptHashes: string[];
  /** HSTS is sent only when the site's public address is https (docs/decisions/0012). */
  publicUrl: string;
}

export function securityHeaders(opts: SecurityHeaderOptions): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Our own files, plus the one inline loader by hash (see site-build.ts); nothing else.
        scriptSrc: ["'self'", ...opts.scriptHashes],
        // Only the stylesheet we inline, by hash; no 'unsafe-inline'.
        styleSrc: ["'self'", ...opts.styleHashes],
        // data: for the wallets' own icons, which EIP-6963 delivers as data URIs for an <img>
        // (the allowlist, decision 0045); an image from anywhere else is still refused.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    // Origin must survive on our own form posts (the same-origin check reads it); cross-site,
    // only the origin leaves, never the path.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Says what `frame-ancestors 'none'` says, for browsers too old to read CSP; SAMEORIGIN would
    // contradict it.
    xFrameOptions: { action: 'deny' },
    // Only over https, and only for this host: the site may live on a subdomain of a domain whose
    // other hosts are not ours to force onto https (includeSubDomains), and preloading is the
    // domain owner's one-way decision, not the app's.
    strictTransportSecurity:
      new URL(opts.publicUrl).protocol === 'https:' ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
  });
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let failed: unknown;
  // helmet is synchronous connect-style middleware; it only calls setHeader/removeHeader.
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  headers.set('permissions-policy', permissionsPolicy);
  return Object.fromEntries(headers);
}

/** The headers for a response to `url`, worked out once. */
export type HeadersFor = (url: string) => Record<string, string>;

/**
 * JSON endpoints under /api/ never render a document, so their CSP is the short "nothing at all"
 * policy OWASP suggests for APIs: the same protection in a third of the bytes, on the busiest
 * endpoint.
 */
export function securityHeadersFor(opts: SecurityHeaderOptions): HeadersFor {
  const headers = securityHeaders(opts);
  const apiHeaders = { ...headers, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" };
  return (url) => (isApiPath(url) ? apiHeaders : headers);
}

/**
 * Security headers on every response that goes through Fastify's hooks: pages, errors, 404s and
 * static files. (The few answers Fastify gives outside its hooks — an unreadable URL, a timed-out
 * or malformed request — get the same headers from `frameworkErrors` and the client-error handler
 * in http-contract.ts, which app.ts hands this same `headersFor`.)
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { headersFor: HeadersFor }) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(opts.headersFor(request.url));
      done();
    });
  },
  { name: 'dh-security-headers', fastify: '5.x' },
);
