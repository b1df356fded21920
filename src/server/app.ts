import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { siteContent } from '../../content/site-content.ts';
import { parseSiteContent } from '../shared/content-schema.ts';
import type { Env } from './env.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import type { SiteBuild } from './site/site-build.ts';
import { buildSiteFiles } from './site/site-files.ts';
import { registerSiteRoutes } from './site/site-routes.ts';

export interface AppDeps {
  env: Env;
  build: SiteBuild;
  /** Injected so tests can fix "now". */
  clock?: () => Date;
}

// The request log never holds a client address or a query string (which may carry tokens):
// the privacy notice promises exactly method, path, status and time taken.
const loggerOptions = (env: Env): FastifyServerOptions['logger'] => ({
  level: env.LOG_LEVEL,
  serializers: {
    req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
});

export async function buildApp({ env, build, clock = () => new Date() }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(env),
    // Fastify's default is 1 MiB; nothing we accept is near that.
    bodyLimit: 16 * 1024,
    return503OnClosing: true,
  });
  const content = parseSiteContent(siteContent);
  const files = buildSiteFiles({ build, content, publicUrl: env.PUBLIC_URL, year: clock().getUTCFullYear() });

  await registerSecurityHeaders(app, { styleHashes: build.styleHashes });

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'Something went wrong on our side. Please try again in a minute.' });
    }
    return reply.code(status).send({ error: error.message });
  });

  await registerSiteRoutes(app, { build, files });
  return app;
}
