import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteContent } from '../../../shared/content-schema.ts';
import { isApiPath } from '../../../shared/paths.ts';
import { notFound } from '../../lib/not-found.ts';
import { errorWords } from '../../plugins/http-contract.ts';
import { pageLocale } from '../../plugins/request-locale.ts';
import { sendMemoryFile } from './memory-file.ts';
import type { SiteBuild } from './site-build.ts';
import { buildSiteFiles, type SiteFiles } from './site-files.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every document, rendered once at start; and the two that show a result, per request. */
    pages: SiteFiles;
  }
}

const wantsHtml = (request: FastifyRequest): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && /text\/html|\*\/\*/.test(request.headers.accept ?? '');

/** 404: the page in the site's look for a browser, the one error shape for anything else. */
function sendNotFound(request: FastifyRequest, reply: FastifyReply, files: SiteFiles): FastifyReply {
  // In the language of the address it was asked at (`/es/…` is Spanish).
  if (wantsHtml(request))
    return sendMemoryFile(request, reply, files.in(pageLocale(request)).pages['not-found'], { status: 404 });
  return notFound(reply, errorWords({}, 404));
}

/**
 * An address that cannot even be decoded (`/%`): for a browser, the not-found page ("there is
 * nothing at this address" is the truth) with the 400 it is; anything else gets the one error
 * shape from the caller (undefined here).
 */
export function sendUnreadableAddressPage(
  request: FastifyRequest,
  reply: FastifyReply,
  files: SiteFiles,
  status: number,
): FastifyReply | undefined {
  return wantsHtml(request) && !isApiPath(request.url)
    ? sendMemoryFile(request, reply, files.in(pageLocale(request)).pages['not-found'], {
        status,
        cacheControl: 'no-store',
      })
    : undefined;
}

/**
 * The rendered documents, shared by the features that answer with a page (the site itself, and
 * the sign-up form's no-JavaScript answers), and the 404 for every address nobody claimed.
 */
export const pagesPlugin = fp(
  async (app: FastifyInstance, opts: { build: SiteBuild; content: SiteContent; publicUrl: string }) => {
    const files = buildSiteFiles({ ...opts, clock: app.clock });
    app.decorate('pages', files);
    app.setNotFoundHandler((request, reply) => sendNotFound(request, reply, files));
  },
  { name: 'dh-pages', fastify: '5.x', dependencies: ['dh-clock'], decorators: { fastify: ['clock'] } },
);
