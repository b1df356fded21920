import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendMemoryFile } from './memory-file.ts';
import type { SiteBuild } from './site-build.ts';
import type { SiteFiles } from './site-files.ts';

const YEAR = 365 * 24 * 60 * 60;

const wantsHtml = (request: FastifyRequest): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && /text\/html|\*\/\*/.test(request.headers.accept ?? '');

export function sendNotFound(request: FastifyRequest, reply: FastifyReply, files: SiteFiles): FastifyReply {
  if (wantsHtml(request)) return sendMemoryFile(request, reply, files.pages['not-found'], { status: 404 });
  return reply.code(404).send({ error: 'Not found: there is nothing at this address.' });
}

export async function registerSiteRoutes(
  app: FastifyInstance,
  { build, files }: { build: SiteBuild; files: SiteFiles },
): Promise<void> {
  // Pages set no cookies and are the same bytes for everyone, so a CDN can cache them and a spike
  // costs the server almost nothing; the sign-up form gets its cookies from /api/csrf.
  app.get('/', (request, reply) => sendMemoryFile(request, reply, files.pages.home));
  app.get('/privacy', (request, reply) => sendMemoryFile(request, reply, files.pages.privacy));
  app.get('/robots.txt', (request, reply) => sendMemoryFile(request, reply, files.robots));
  app.get('/sitemap.xml', (request, reply) => sendMemoryFile(request, reply, files.sitemap));
  app.get('/site.webmanifest', (request, reply) => sendMemoryFile(request, reply, files.manifest));

  // Everything else the build made: hashed assets (cached for a year) and the few fixed-name files
  // (icons, share image), revalidated. .br/.gz siblings were written at build.
  await app.register(fastifyStatic, {
    root: build.clientDir,
    prefix: '/',
    index: false,
    preCompressed: true,
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (res, filePath) => {
      res.header(
        'cache-control',
        filePath.includes('/assets/') ? `public, max-age=${YEAR}, immutable` : 'public, max-age=0, must-revalidate',
      );
    },
  });

  app.setNotFoundHandler((request, reply) => sendNotFound(request, reply, files));
}
