import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { filePaths, pagePaths } from '../../shared/paths.ts';
import { sendMemoryFile } from './memory-file.ts';
import type { SiteBuild } from './site-build.ts';

const YEAR = 365 * 24 * 60 * 60;

/** The public site: its documents from memory, and the files the build made. */
export const siteFeature = fp(
  async (app: FastifyInstance, opts: { build: SiteBuild }) => {
    const files = app.pages;
    // Pages set no cookies and are the same bytes for everyone, so a CDN can cache them and a spike
    // costs the server almost nothing; the sign-up form gets its cookies from /api/csrf.
    app.get(pagePaths.home, (request, reply) => sendMemoryFile(request, reply, files.pages.home));
    app.get(pagePaths.privacy, (request, reply) => sendMemoryFile(request, reply, files.pages.privacy));
    app.get(filePaths.robots, (request, reply) => sendMemoryFile(request, reply, files.robots));
    app.get(filePaths.sitemap, (request, reply) => sendMemoryFile(request, reply, files.sitemap));
    app.get(filePaths.manifest, (request, reply) => sendMemoryFile(request, reply, files.manifest));

    // Everything else the build made: hashed assets (cached for a year) and the few fixed-name
    // files (icons, share image), revalidated. .br/.gz siblings were written at build.
    await app.register(fastifyStatic, {
      root: opts.build.clientDir,
      prefix: '/',
      index: false,
      preCompressed: true,
      cacheControl: false,
      dotfiles: 'ignore',
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(filePaths.assetsDir)
            ? `public, max-age=${YEAR}, immutable`
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  },
  { name: 'site', fastify: '5.x', encapsulate: true, dependencies: ['dh-pages'], decorators: { fastify: ['pages'] } },
);
