import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { filePaths, pagePaths } from '../../../shared/paths.ts';
import { inviteQueryName, isInviteCode } from '../../../shared/referrals.ts';
import type { FastPaths } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import { sendMemoryFile } from './memory-file.ts';
import { pageFastPath } from './page-fast-path.ts';
import type { SiteBuild } from './site-build.ts';
import { sendSlottedFile } from './slotted-file.ts';

const YEAR = 365 * 24 * 60 * 60;

/** The public site: its documents from memory, and the files the build made. */
export const siteFeature = fp(
  async (app: FastifyInstance, opts: { build: SiteBuild; fastPaths: FastPaths; headersFor: HeadersFor }) => {
    const files = app.pages;
    // Pages set no cookies and are the same bytes for everyone, so a CDN can cache them and a spike
    // costs the server almost nothing; the sign-up form gets its cookies from /api/csrf.
    for (const locale of locales) {
      const pages = files.in(locale);
      const home = localePath(locale, pagePaths.home);
      // A plain visit, from memory before Fastify (page-fast-path.ts); the route below answers the
      // rest (an invite link, HEAD) and is what the fast path must match.
      opts.fastPaths.add(pageFastPath(home, () => pages.pages.home, opts.headersFor));
      app.get(home, (request, reply) => {
        // Through a friend's invite link: the same page with one line more and the code in the
        // form, from memory too (the code spliced into the prebuilt, precompressed page), so an
        // invite costs what a page costs. Kept by no cache but the visitor's, and not stored even
        // there (the code is the friend's; a shared cache must never hand it to someone else, and
        // the page is rebuilt as cheaply as it is revalidated). Every other visit, a malformed
        // code's too, is the page from memory, as cacheable as ever.
        const invite = (request.query as Record<string, unknown> | undefined)?.[inviteQueryName];
        if (!isInviteCode(invite)) return sendMemoryFile(request, reply, pages.pages.home);
        return sendSlottedFile(request, reply, pages.homeWithInvite, invite, { cacheControl: 'private, no-store' });
      });
      app.get(localePath(locale, pagePaths.privacy), (request, reply) =>
        sendMemoryFile(request, reply, pages.pages.privacy),
      );
      app.get(localePath(locale, pagePaths.terms), (request, reply) =>
        sendMemoryFile(request, reply, pages.pages.terms),
      );
      // `/es` is the Spanish home page without its slash: one address per page, so it moves there
      // for good (a 308 keeps a HEAD a HEAD; nothing posts here).
      if (home !== pagePaths.home) app.get(home.slice(0, -1), (_request, reply) => reply.redirect(home, 308));
    }
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
