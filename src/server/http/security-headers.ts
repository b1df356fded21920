import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

/** Security headers on every response, including errors and static files. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { styleHashes: string[] }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Only the stylesheet we inline, by hash; no 'unsafe-inline'.
        styleSrc: ["'self'", ...opts.styleHashes],
        imgSrc: ["'self'"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    // Origin must survive on our own form posts (the CSRF check reads it); cross-site, only the
    // origin leaves, never the path.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', permissionsPolicy);
  });
}
