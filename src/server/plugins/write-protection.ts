import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { xsrf } from '../../shared/xsrf.ts';
import { isOwnOrigin } from '../lib/own-origin.ts';

// CSRF follows OWASP's signed double-submit cookie: @fastify/csrf-protection keeps a per-visitor
// secret in an HttpOnly, signed cookie (`_csrf`) and derives the token from it; the token is also
// put in a readable `XSRF-TOKEN` cookie, which our one HTTP helper copies into an
// `X-XSRF-TOKEN` header on every write. A forged token fails against the visitor's own secret.
// On top, every write must come from our own origin (Sec-Fetch-Site / Origin), which is also what
// protects the no-JavaScript form, since static HTML cannot carry a per-visitor token.
// https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html

const XSRF_COOKIE = xsrf.cookie;
const XSRF_HEADER = xsrf.header;
const SECRET_COOKIE = '_csrf';
// When this visitor first got a page: the sign-up time trap measures from here.
const LOADED_COOKIE = 'dh_t';
const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

export interface WriteProtection {
  /**
   * Gives a visitor the CSRF and time-trap cookies if they have none yet. `loadedAt` backdates the
   * time trap (for a person who has already filled the form in).
   */
  issueVisitorCookies(request: FastifyRequest, reply: FastifyReply, loadedAt?: Date): void;
  /** Milliseconds since this visitor's first page load (signed cookie), or null when unknown. */
  msSincePageLoad(request: FastifyRequest, now: Date): number | null;
  /** preHandler: refuses a write that does not come from our own origin (403). */
  sameOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * preHandler: refuses a write whose X-XSRF-TOKEN does not match the visitor's secret (403,
   * error code FST_CSRF_*; see csrfErrorMessage).
   */
  csrfToken: FastifyInstance['csrfProtection'];
}

export class ForbiddenError extends Error {
  statusCode = 403;
  override name = 'ForbiddenError';
}

export const isCsrfError = (error: { code?: string }): boolean => (error.code ?? '').startsWith('FST_CSRF');
export const csrfErrorMessage = 'Your security token is missing or out of date. Reload the page and try again.';

declare module 'fastify' {
  interface FastifyInstance {
    protection: WriteProtection;
  }
}

export const writeProtectionPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string }) => {
    await app.register(fastifyCookie, { secret: app.keys.cookieSecrets });
    await app.register(fastifyCsrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: SECRET_COOKIE,
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true, secure: 'auto' },
      getToken: (req) => {
        const v = req.headers[XSRF_HEADER];
        return typeof v === 'string' ? v : undefined;
      },
    });

    app.decorate('protection', {
      issueVisitorCookies(request, reply, loadedAt) {
        if (request.cookies[XSRF_COOKIE] && request.cookies[SECRET_COOKIE] && request.cookies[LOADED_COOKIE]) return;
        const common = { path: '/', sameSite: 'lax', secure: 'auto', maxAge: COOKIE_MAX_AGE_S } as const;
        const token = reply.generateCsrf({ ...common, httpOnly: true, signed: true });
        reply.setCookie(XSRF_COOKIE, token, { ...common, httpOnly: false });
        const at = (loadedAt ?? app.clock()).getTime();
        reply.setCookie(LOADED_COOKIE, String(at), { ...common, httpOnly: true, signed: true });
      },

      msSincePageLoad(request, now) {
        const raw = request.cookies[LOADED_COOKIE];
        if (!raw) return null;
        const { valid, value } = request.unsignCookie(raw);
        const at = valid && value !== null ? Number(value) : NaN;
        return Number.isFinite(at) ? now.getTime() - at : null;
      },

      async sameOrigin(request) {
        const site = request.headers['sec-fetch-site'];
        if (typeof site === 'string') {
          if (site === 'same-origin') return;
          throw new ForbiddenError('This form can only be sent from our own site.');
        }
        // Older browsers: fall back to Origin, which every browser sends on a cross-site POST.
        const origin = request.headers.origin;
        if (typeof origin === 'string' && isOwnOrigin(origin, request, opts.publicUrl)) return;
        throw new ForbiddenError('This form can only be sent from our own site.');
      },

      csrfToken: app.csrfProtection,
    } satisfies WriteProtection);
  },
  {
    name: 'dh-write-protection',
    fastify: '5.x',
    dependencies: ['dh-keys', 'dh-clock'],
    decorators: { fastify: ['keys', 'clock'] },
  },
);
